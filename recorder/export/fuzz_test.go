package export

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// FuzzExport reads arbitrary recordings and exports and words every cycle
// read, as explain -o json and the text output do: whatever a damaged file
// holds, neither may panic, and an export must encode as JSON.
func FuzzExport(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("..", "..", "tui", "testdata", "*.rec"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed recordings under ../../tui/testdata: %v", err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := recorder.Load(bytes.NewReader(data))
		if err != nil {
			return
		}
		doc := NewDocument(rec.Header, rec.Cycles, rec.Observed)
		if _, err := json.Marshal(doc); err != nil {
			t.Fatalf("an export does not encode: %v", err)
		}
		for _, c := range rec.Cycles {
			narrate.Outcome(c.Outcome)
			narrate.Selection(c)
			if s := c.Score; s != nil && len(s.Totals) == len(s.Nodes) {
				for i := range s.Nodes {
					narrate.Loss(s, 0, i)
				}
			}
		}
	})
}
