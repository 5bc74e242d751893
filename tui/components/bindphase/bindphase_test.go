package bindphase

import (
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/theme"
)

// view shows point of cycle 1 of the default fixture (web, bound to node-a), w×h.
func view(t *testing.T, point string, withHeader bool, w, h int) Model {
	t.Helper()
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "testdata", "default.rec"))
	if err != nil {
		t.Fatal(err)
	}
	st := theme.New(true)
	m := New(&st)
	if withHeader {
		m.SetHeader(&rec.Header)
	}
	m.SetCycle(rec.Cycles[0], point)
	m.SetSize(w, h)
	return m
}

func TestHelpListsEveryBinding(t *testing.T) {
	k := DefaultKeyMap()
	listed := map[key.Help]bool{}
	for _, col := range k.FullHelp() {
		for _, b := range col {
			listed[b.Help()] = true
		}
	}
	for name, b := range map[string]key.Binding{"Up": k.Up, "Down": k.Down, "Top": k.Top, "Bottom": k.Bottom, "PageUp": k.PageUp, "PageDown": k.PageDown} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
}

func TestView(t *testing.T) {
	tests := []struct {
		name       string
		point      string
		withHeader bool
		want       []string
	}{
		{"reserve", recorder.PhaseReserve, true, []string{"Reserve took", "VolumeBinding", "✓ Success", "outcome", "bound to node-a"}},
		{"bind", recorder.PhaseBind, true, []string{"DefaultBinder", "✓ Success"}},
		{"permit, no status, with the profile", recorder.PhasePermit, true, []string{"no Permit plugin is enabled in profile default-scheduler"}},
		{"permit, no status, no header", recorder.PhasePermit, false, []string{"no plugin status was recorded at Permit"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ansi.Strip(view(t, tc.point, tc.withHeader, 100, 40).View())
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("view lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestUpdateScrolls: the keys scroll the view, within its lines.
func TestUpdateScrolls(t *testing.T) {
	first := func(m Model) string { return strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0] }
	m := view(t, recorder.PhaseReserve, true, 100, 3)
	top := first(m)
	if !strings.Contains(ansi.Strip(m.View()), "more line(s), ↓/j scrolls") {
		t.Fatalf("a view taller than its room should say so:\n%s", ansi.Strip(m.View()))
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if first(m) == top {
		t.Fatalf("j did not scroll:\n%s", ansi.Strip(m.View()))
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
	m, _ = m.Update(tea.KeyPressMsg{Code: 'k', Text: "k"})
	m2, _ := m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if first(m2) == first(m) {
		t.Error("after G, k should move up at once (the scroll stops at the end)")
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	if first(m) != top {
		t.Errorf("g should go back to the top:\n%s", ansi.Strip(m.View()))
	}
}
