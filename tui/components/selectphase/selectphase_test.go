package selectphase

import (
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/theme"
)

// view shows host selection of cycle 1 of the default fixture (web: node-a
// chosen over node-d and node-b; node-c rejected), w×h.
func view(t *testing.T, w, h int) Model {
	t.Helper()
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "testdata", "default.rec"))
	if err != nil {
		t.Fatal(err)
	}
	st := theme.New(true)
	m := New(&st)
	c := rec.Cycles[0]
	m.SetCycle(c, analysis.Of(c))
	m.SetSize(w, h)
	return m
}

func TestView(t *testing.T) {
	got := ansi.Strip(view(t, 100, 40).View())
	for _, want := range []string{"chosen: ★ node-a", "rule:   HighestScore", "lost by 11", "never in the running", "1 node(s) were rejected by TaintToleration"} {
		if !strings.Contains(got, want) {
			t.Errorf("view lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "live cluster") {
		t.Errorf("no binding was observed, yet:\n%s", got)
	}
}

func TestObserved(t *testing.T) {
	m := view(t, 100, 40)
	m.SetObserved(&recorder.Observed{Seq: 1, Node: "node-c", Predicted: "node-a"})
	got := ansi.Strip(m.View())
	for _, want := range []string{"live cluster", "≠ cluster bound it to node-c (predicted node-a: disagrees)", "node-c in this cycle: rejected by TaintToleration"} {
		if !strings.Contains(got, want) {
			t.Errorf("view lacks %q:\n%s", want, got)
		}
	}
}

// TestRowsAreBuiltAsScrolled: a short window builds the rows it reaches and
// counts the rest; scrolling builds more.
func TestRowsAreBuiltAsScrolled(t *testing.T) {
	m := view(t, 100, 2)
	if got := m.lines(); !strings.Contains(ansi.Strip(strings.Join(got, "\n")), "… and 1 more scored node(s) (↓/j scrolls)") {
		t.Fatalf("lines:\n%s", ansi.Strip(strings.Join(got, "\n")))
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if got := m.lines(); strings.Contains(ansi.Strip(strings.Join(got, "\n")), "more scored node") {
		t.Errorf("after j every scored node should be built:\n%s", ansi.Strip(strings.Join(got, "\n")))
	}
}

func TestUpdateScrolls(t *testing.T) {
	first := func(m Model) string { return strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0] }
	m := view(t, 100, 4)
	top := first(m)
	m, _ = m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if first(m) == top {
		t.Fatal("j did not scroll")
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
	atEnd := first(m)
	m, _ = m.Update(tea.KeyPressMsg{Code: 'k', Text: "k"})
	if first(m) == atEnd {
		t.Error("after G, k should move up at once")
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	if first(m) != top {
		t.Error("g should go back to the top")
	}
	listed := map[key.Help]bool{}
	for _, b := range DefaultKeyMap().FullHelp()[0] {
		listed[b.Help()] = true
	}
	if len(listed) != 6 {
		t.Errorf("the help lists %d scroll keys, want 6", len(listed))
	}
}
