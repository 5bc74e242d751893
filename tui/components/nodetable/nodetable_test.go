package nodetable

import (
	"path/filepath"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/analysis"
)

// table holds the nodes of cycle 1 of the default fixture: node-a chosen,
// node-d and node-b feasible, node-c rejected by TaintToleration.
func table(t *testing.T) (Model, *recorder.Cycle) {
	t.Helper()
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "testdata", "default.rec"))
	if err != nil {
		t.Fatal(err)
	}
	c := rec.Cycles[0]
	a := analysis.Of(c)
	m := New()
	m.Focus(a.Winner)
	all := make([]int, len(a.Nodes))
	for i := range all {
		all[i] = i
	}
	m.SetUniverse(a, all)
	m.SetHeight(10)
	return m, c
}

func names(c *recorder.Cycle, rows []int) []string {
	var out []string
	for _, n := range rows {
		out = append(out, c.NodeName(n))
	}
	return out
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func TestHelpListsEveryBinding(t *testing.T) {
	k := DefaultKeyMap()
	listed := map[key.Help]bool{}
	for _, col := range k.FullHelp() {
		for _, b := range col {
			listed[b.Help()] = true
		}
	}
	for name, b := range map[string]key.Binding{"Up": k.Up, "Down": k.Down, "Top": k.Top, "Bottom": k.Bottom, "PageUp": k.PageUp, "PageDown": k.PageDown, "Sort": k.Sort, "Show": k.Show} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
}

func TestUpdate(t *testing.T) {
	tests := []struct {
		name     string
		keys     []string
		rows     []string
		selected string
		query    string
	}{
		{"by status, on the winner", nil, []string{"node-a", "node-d", "node-b", "node-c"}, "node-a", "sort status"},
		{"j moves down", []string{"j"}, []string{"node-a", "node-d", "node-b", "node-c"}, "node-d", "sort status"},
		{"down twice, up once", []string{"down", "down", "up"}, []string{"node-a", "node-d", "node-b", "node-c"}, "node-d", "sort status"},
		{"G goes to the last", []string{"G"}, []string{"node-a", "node-d", "node-b", "node-c"}, "node-c", "sort status"},
		{"o o sorts by name, keeping the node", []string{"j", "o", "o"}, []string{"node-a", "node-b", "node-c", "node-d"}, "node-d", "sort name"},
		{"f shows the passed", []string{"f"}, []string{"node-a", "node-d", "node-b"}, "node-a", "sort status · show passed"},
		{"f f shows the rejected", []string{"f", "f"}, []string{"node-c"}, "node-c", "sort status · show rejected"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, c := table(t)
			for _, k := range tc.keys {
				m, _ = m.Update(press(k))
			}
			if diff := cmp.Diff(tc.rows, names(c, m.Rows())); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			n, ok := m.Selected()
			if !ok || c.NodeName(n) != tc.selected {
				t.Errorf("selected %q (%v), want %q", c.NodeName(n), ok, tc.selected)
			}
			if m.Query() != tc.query {
				t.Errorf("query %q, want %q", m.Query(), tc.query)
			}
		})
	}
}

func TestDisabledKeysDoNothing(t *testing.T) {
	m, _ := table(t)
	m.Keys.Show.SetEnabled(false)
	if m.Handles(press("f")) {
		t.Error("a disabled Show is still handled")
	}
	m, _ = m.Update(press("f"))
	if len(m.Rows()) != 4 {
		t.Errorf("a disabled f filtered the rows to %d", len(m.Rows()))
	}
}

func TestNameAndWindow(t *testing.T) {
	m, c := table(t)
	m.SetName("-b")
	if diff := cmp.Diff([]string{"node-b"}, names(c, m.Rows())); diff != "" {
		t.Errorf("name filter (-want +got):\n%s", diff)
	}
	m.SetName("")
	m.SetHeight(2)
	m, _ = m.Update(press("G"))
	rows, off := m.Window(2)
	if diff := cmp.Diff([]string{"node-b", "node-c"}, names(c, rows)); diff != "" || off != 2 {
		t.Errorf("window at the bottom from %d (-want +got):\n%s", off, diff)
	}
}
