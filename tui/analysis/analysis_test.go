package analysis

import (
	"path/filepath"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/glyph"
)

// firstCycle is cycle 1 of the default fixture: web bound to node-a; node-c
// rejected by TaintToleration.
func firstCycle(t *testing.T) *recorder.Cycle {
	t.Helper()
	rec, err := recorder.LoadFile(filepath.Join("..", "testdata", "default.rec"))
	if err != nil {
		t.Fatal(err)
	}
	return rec.Cycles[0]
}

func TestOf(t *testing.T) {
	c := firstCycle(t)
	a := Of(c)
	if got := c.NodeName(a.Winner); got != "node-a" {
		t.Errorf("winner %q, want node-a", got)
	}
	nc := a.NodeIndex("node-c")
	if nc < 0 {
		t.Fatal("node-c not found")
	}
	r := a.Nodes[nc]
	if r.State != Rejected || a.FilterPlugin(r.Plugin) != "TaintToleration" {
		t.Errorf("node-c: %v by %q, want rejected by TaintToleration", r.State, a.FilterPlugin(r.Plugin))
	}
	if k := a.FilterCell(nc, r.Plugin); k != glyph.Unresolvable {
		t.Errorf("node-c × TaintToleration = %v, want UnschedulableAndUnresolvable", k.Label())
	}
	if r.Plugin+1 < len(c.Filter.Plugins) {
		if k := a.FilterCell(nc, r.Plugin+1); k != glyph.NotCalled && k != glyph.Skip {
			t.Errorf("a plugin after the rejection = %v, want not called (or skipped)", k.Label())
		}
	}
	if _, ok := a.Total(nc); ok {
		t.Error("a rejected node has a total score")
	}
	if _, ok := a.Total(a.Winner); !ok {
		t.Error("the winner has no total score")
	}
	if a.StatusRank(a.Winner) >= a.StatusRank(nc) {
		t.Error("the status sort should put the winner before a rejected node")
	}
	if got := SnapshotSize(c); got != "4" {
		t.Errorf("SnapshotSize = %q, want 4", got)
	}
}
