package postfilterphase

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// view shows cycle index i of the preemption fixture, w×h.
func view(t *testing.T, i, w, h int) Model {
	t.Helper()
	st := theme.New(true)
	m := New(&st)
	m.SetCycle(recordings.Cycle(t, "preemption.rec", i))
	m.SetSize(w, h)
	return m
}

func TestView(t *testing.T) {
	got := ansi.Strip(view(t, 0, 100, 60).View())
	for _, want := range []string{"result: ✓ Success", "DefaultPreemption", "candidates: nodes where evicting pods would make room", "nominated node: node-1"} {
		if !strings.Contains(got, want) {
			t.Errorf("view lacks %q:\n%s", want, got)
		}
	}
	if m := New(nil); m.View() != "" {
		t.Error("a view without a cycle should be empty")
	}
}

// TestPhaseThatDidNotRun: a cycle without the phase shows nothing (the
// cycle view says why instead).
func TestPhaseThatDidNotRun(t *testing.T) {
	m := view(t, 0, 100, 40)
	c := *recordings.Cycle(t, "preemption.rec", 0)
	c.PostFilter = nil
	m.SetCycle(&c)
	if got := m.View(); strings.TrimSpace(got) != "" {
		t.Errorf("View = %q, want nothing", got)
	}
}
