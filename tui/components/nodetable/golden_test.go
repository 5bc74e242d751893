package nodetable_test

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/nodephase"
	"github.com/schedscope/schedscope/tui/components/nodetable"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the table through the view that lays it out (the
// Filter matrix), on the default fixture's first cycle: node-a chosen,
// node-c rejected by TaintToleration. The table is sorted by name, its
// cursor moved onto node-c and the plugin column onto the plugin that
// rejected it; then the same, showing the rejected nodes only.
func TestGoldens(t *testing.T) {
	c := recordings.Cycle(t, "default.rec", 0)
	st := theme.New(true)
	for _, size := range golden.Sizes {
		w, h := size[0], size[1]
		m := nodephase.New(&st)
		m.SetCycle(c, analysis.Of(c))
		m.SetKind(nodephase.Filter)
		m.SetSize(w, h)
		m.SetActive(true, true)
		m.SetSort(nodetable.ByName)
		for range 2 {
			m, _ = m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
		}
		m.FocusRejection()
		if n, ok := m.Selected(); !ok || c.NodeName(n) != "node-c" || m.Plugin() != "TaintToleration" {
			t.Fatalf("%dx%d: cursor on %d (%v), column %q; want node-c and TaintToleration", w, h, n, ok, m.Plugin())
		}
		golden.Check(t, fmt.Sprintf("rejected-%dx%d", w, h), golden.Screen(m.View(), w, h))
		for range 2 {
			m, _ = m.Update(tea.KeyPressMsg{Code: 'f', Text: "f"})
		}
		if rows := m.Rows(); len(rows) != 1 || c.NodeName(rows[0]) != "node-c" {
			t.Fatalf("%dx%d: showing rejected nodes, the rows are %v; want node-c alone", w, h, rows)
		}
		golden.Check(t, fmt.Sprintf("show-rejected-%dx%d", w, h), golden.Screen(m.View(), w, h))
	}
}
