package postfilterphase

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/theme"
)

// view shows cycle index i of the preemption fixture, w×h.
func view(t *testing.T, i, w, h int) Model {
	t.Helper()
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "testdata", "preemption.rec"))
	if err != nil {
		t.Fatal(err)
	}
	st := theme.New(true)
	m := New(&st)
	m.SetCycle(rec.Cycles[i])
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

// TestUpdateScrolls: j and k move the window a line, within the text.
func TestUpdateScrolls(t *testing.T) {
	first := func(m Model) string { return strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0] }
	m := view(t, 0, 100, 3)
	top := first(m)
	m, _ = m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if first(m) == top {
		t.Fatalf("j did not scroll:\n%s", ansi.Strip(m.View()))
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'k', Text: "k"})
	if first(m) != top {
		t.Errorf("k did not scroll back:\n%s", ansi.Strip(m.View()))
	}
	if len(DefaultKeyMap().FullHelp()[0]) != 6 {
		t.Error("the help should list the six scroll keys")
	}
}

// TestPhaseThatDidNotRun: a cycle without the phase shows nothing (the
// cycle view says why instead).
func TestPhaseThatDidNotRun(t *testing.T) {
	m := view(t, 0, 100, 40)
	c := *m.c
	c.PostFilter = nil
	m.SetCycle(&c)
	if got := m.View(); strings.TrimSpace(got) != "" {
		t.Errorf("View = %q, want nothing", got)
	}
}
