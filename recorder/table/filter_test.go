package table

import (
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

func TestFilterCell(t *testing.T) {
	c := &recorder.Cycle{
		Nodes: &recorder.NodeSet{Names: []string{"a", "b", "c", "d", "e"}},
		Filter: &recorder.FilterPhase{
			Plugins:  []string{"P0", "P1", "P2"},
			Skipped:  []string{"P1"},
			Feasible: recorder.Ints[int]{0},
			Rejected: []recorder.NodeStatus{
				{Node: 1, Plugin: 2, Code: recorder.CodeUnschedulableAndUnresolvable},
				{Node: 2, Plugin: -1, Code: recorder.CodeUnschedulable},
				{Node: 3, Plugin: 7, Code: recorder.CodeUnschedulable},
			},
			Discarded: recorder.Ints[int]{4},
		},
	}
	tests := []struct {
		name string
		node int
		want [3]Cell
	}{
		{"passed", 0, [3]Cell{Success, Skip, Success}},
		{"rejected by the last plugin", 1, [3]Cell{Success, Skip, Unresolvable}},
		{"rejected by no plugin", 2, [3]Cell{NotCalled, Skip, NotCalled}},
		{"rejected by a plugin index past the plugins", 3, [3]Cell{NotCalled, Skip, NotCalled}},
		{"discarded", 4, [3]Cell{Discarded, Skip, Discarded}},
		{"outside the matrix", 9, [3]Cell{NotEvaluated, Skip, NotEvaluated}},
	}
	m := FilterOf(c)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for p, want := range tc.want {
				if got := m.Cell(tc.node, p); got != want {
					t.Errorf("cell (%d, P%d) = %s, want %s", tc.node, p, got.Label(), want.Label())
				}
			}
		})
	}
	if got, want := m.Listed(c), []int{0, 1, 2, 3}; len(got) != len(want) || got[3] != 3 {
		t.Errorf("Listed = %v, want %v", got, want)
	}
	if got := m.Plugin(m.Nodes[3].Plugin); got != "(no plugin)" {
		t.Errorf("the plugin of a rejection past the plugins = %q, want (no plugin)", got)
	}
}

func TestGlyphsDiffer(t *testing.T) {
	seen := map[string]Cell{}
	for k := range NumCells {
		if other, dup := seen[k.Glyph()]; dup {
			t.Errorf("%s and %s share glyph %q", k.Label(), other.Label(), k.Glyph())
		}
		seen[k.Glyph()] = k
	}
}
