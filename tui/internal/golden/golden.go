// Package golden compares what a component draws with a file under its own
// package's testdata/golden, for the tests of the TUI's packages; go test
// -update rewrites the files.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/tui/layout"
)

// Sizes are the sizes a component's goldens are drawn at: the smallest
// terminal the TUI supports, and a wide one.
var Sizes = [][2]int{{80, 24}, {200, 50}}

// Screen is view laid in a w×h box, as the root lays out a component.
func Screen(view string, w, h int) string {
	return strings.Join(layout.Box(layout.SplitLines(view), w, h), "\n")
}

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// Check compares got, its styles stripped, with testdata/golden/name.golden
// of the package under test, rewriting the file with -update.
func Check(t testing.TB, name, got string) {
	t.Helper()
	got = ansi.Strip(got)
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}
