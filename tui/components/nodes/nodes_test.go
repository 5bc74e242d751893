package nodes

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/theme"
)

// The rows are the cycle's nodes by name, filtered by name or verdict;
// the moving keys stop at the ends.
func TestRowsFilterAndCursor(t *testing.T) {
	st := theme.New(true)
	m := New(&st)
	m.SetSize(100, 20)
	c := &recorder.Cycle{Seq: 3, Nodes: &recorder.NodeSet{Names: []string{"n-b", "n-a", "n-c"}},
		Outcome: recorder.Outcome{Result: recorder.ResultBound, Node: "n-c"}}
	m.SetCycle(c, recorder.NewUsage())
	if name, _ := m.Selected(); name != "n-a" {
		t.Errorf("first row %q, want n-a (by name)", name)
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
	if name, _ := m.Selected(); name != "n-c" || m.Position() != "3/3" {
		t.Errorf("G: %q at %s, want n-c at 3/3", name, m.Position())
	}
	m.SetFilter("chosen")
	if name, _ := m.Selected(); name != "n-c" || m.Position() != "1/1" {
		t.Errorf("filtered to the chosen node: %q at %s", name, m.Position())
	}
	m.SetFilter("nothing")
	if _, ok := m.Selected(); ok || m.Position() != "0/0" {
		t.Errorf("a filter matching nothing selects a node")
	}
}
