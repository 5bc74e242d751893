package textphase

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/theme"
)

// numbered words a cycle as ten numbered lines, the width in each.
func numbered(_ *theme.Styles, c *recorder.Cycle, w int) []string {
	var out []string
	for i := range 10 {
		out = append(out, fmt.Sprintf("line %d of cycle %d at %d", i, c.Seq, w))
	}
	return out
}

func first(m Model) string { return strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0] }

// j and k move the window a line, within the text; the help lists the six
// scroll keys.
func TestUpdateScrolls(t *testing.T) {
	st := theme.New(true)
	m := New(&st, numbered)
	m.SetCycle(&recorder.Cycle{Seq: 7})
	m.SetSize(40, 3)
	if got := first(m); got != "line 0 of cycle 7 at 40" {
		t.Fatalf("first line %q", got)
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if got := first(m); got != "line 1 of cycle 7 at 40" {
		t.Fatalf("j: first line %q", got)
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'k', Text: "k"})
	if got := first(m); got != "line 0 of cycle 7 at 40" {
		t.Errorf("k: first line %q", got)
	}
	if len(DefaultKeyMap().FullHelp()[0]) != 6 {
		t.Error("the help should list the six scroll keys")
	}
}

// The view words the cycle at its width, again when the size or the render
// changes, and shows nothing without a cycle.
func TestRenderFollowsSizeAndRender(t *testing.T) {
	st := theme.New(true)
	m := New(&st, numbered)
	if m.View() != "" {
		t.Error("a view without a cycle should be empty")
	}
	m.SetCycle(&recorder.Cycle{Seq: 3})
	m.SetSize(50, 5)
	if got := first(m); got != "line 0 of cycle 3 at 50" {
		t.Errorf("first line %q", got)
	}
	m.SetRender(func(*theme.Styles, *recorder.Cycle, int) []string { return []string{"other"} })
	if got := first(m); got != "other" {
		t.Errorf("after SetRender: %q", got)
	}
}
