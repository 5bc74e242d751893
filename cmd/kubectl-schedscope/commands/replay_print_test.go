package commands

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
)

// TestPrintCyclesStreamsWhatPrintWrites checks that replay --no-tui, which
// reads one cycle at a time, writes what printing them all at once writes.
func TestPrintCyclesStreamsWhatPrintWrites(t *testing.T) {
	recs, _ := filepath.Glob("../../../tui/testdata/*.rec")
	if len(recs) == 0 {
		t.Fatal("no recordings under tui/testdata")
	}
	for _, path := range recs {
		rec, err := recorder.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, cycles := range [][]*recorder.Cycle{rec.Cycles, nil} {
			for _, format := range []string{"text", "json", "yaml", "markdown", "html"} {
				problems := []error{errors.New(`a problem, "quoted": [] cycles: []`)}
				var want, got bytes.Buffer
				pods := recorder.PodStates(cycles, nil, rec.Queue)
				out := cyclesOutput{header: rec.Header, source: "recording x", problems: problems, cycles: cycles, observed: rec.Observed, groups: rec.PodGroups, pods: pods}
				if err := out.print(&want, format); err != nil {
					t.Fatal(err)
				}
				each := func(yield func(*recorder.Cycle, error) bool) {
					for _, c := range cycles {
						if !yield(c, nil) {
							return
						}
					}
				}
				if err := printCycles(&got, format, rec.Header, "recording x", problems, len(cycles), each, rec.Observed, rec.PodGroups, pods, nil, nil, nil); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.String(), got.String()); diff != "" {
					t.Errorf("%s, %d cycles, -o %s (-print +printCycles):\n%s", filepath.Base(path), len(cycles), format, diff)
				}
			}
		}
	}
}
