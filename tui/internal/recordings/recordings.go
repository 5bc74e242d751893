// Package recordings loads the recordings under tui/testdata for the tests
// of the TUI's packages, wherever the test runs from.
package recordings

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

// Load reads tui/testdata/name.
func Load(t testing.TB, name string) *recorder.Recording {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot tell where tui/testdata is")
	}
	rec, err := recorder.LoadFile(filepath.Join(filepath.Dir(here), "..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// Cycle is cycle index i of tui/testdata/name.
func Cycle(t testing.TB, name string, i int) *recorder.Cycle {
	t.Helper()
	rec := Load(t, name)
	if i < 0 || i >= len(rec.Cycles) {
		t.Fatalf("%s has %d cycles, not %d", name, len(rec.Cycles), i+1)
	}
	return rec.Cycles[i]
}
