package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

// TestCycleFiles: the TUI's X writes the cycle as Markdown and HTML beside
// each other, and a second time under new names, never over the first.
func TestCycleFiles(t *testing.T) {
	rec, err := recorder.LoadFile("../../../tui/testdata/default.rec")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := Files(dir, "replay default.rec", func() []recorder.Mark {
		return []recorder.Mark{{Seq: rec.Cycles[0].Seq, Pod: rec.Cycles[0].Pod.Key(), Note: "look here"}}
	})
	c := rec.Cycles[0]
	where, err := write(rec.Header, c)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "schedscope-cycle-1.md"))
	if err != nil || !strings.Contains(where, "schedscope-cycle-1.md and ") || !strings.Contains(string(md), "## Cycle 1 · `default/web`") ||
		!strings.Contains(string(md), "★ **Marked:** look here") {
		t.Fatalf("first write: %q, %v\n%s", where, err, md)
	}
	page, err := os.ReadFile(filepath.Join(dir, "schedscope-cycle-1.html"))
	if err != nil || !strings.Contains(string(page), `<h2 id="cycle-1">Cycle 1`) || !strings.Contains(string(page), "★ Marked: look here") {
		t.Fatalf("the HTML: %v\n%s", err, page)
	}
	where, err = write(rec.Header, c)
	if err != nil || !strings.Contains(where, "schedscope-cycle-1-2.md") {
		t.Errorf("second write: %q, %v", where, err)
	}
	if again, _ := os.ReadFile(filepath.Join(dir, "schedscope-cycle-1.md")); string(again) != string(md) {
		t.Error("the second write changed the first file")
	}
}
