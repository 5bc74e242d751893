package textphase

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/text"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// walk is the text walk through a cycle's phases (as explain prints it),
// each line wrapped at the view's width: at 80 cells many lines take two.
func walk(_ *theme.Styles, c *recorder.Cycle, w int) []string {
	var b bytes.Buffer
	t := text.New(&b)
	t.Cycle(c)
	var out []string
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		out = append(out, layout.Wrap(l, w, "      ")...)
	}
	return out
}

// TestGoldens draws the default fixture's unschedulable cycle, its lines
// wrapped at each golden width: from the top, and scrolled down four lines
// (at 200×50 it all fits, and does not move).
func TestGoldens(t *testing.T) {
	c := recordings.Cycle(t, "default.rec", 3)
	st := theme.New(true)
	if n := len(walk(&st, c, 1000)); len(walk(&st, c, 80)) <= n {
		t.Fatalf("no line of the walk is wider than 80 cells (%d lines)", n)
	}
	for _, size := range golden.Sizes {
		w, h := size[0], size[1]
		m := New(&st, walk)
		m.SetCycle(c)
		m.SetSize(w, h)
		golden.Check(t, fmt.Sprintf("wrapped-%dx%d", w, h), golden.Screen(m.View(), w, h))
		for range 4 {
			m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
		}
		golden.Check(t, fmt.Sprintf("scrolled-%dx%d", w, h), golden.Screen(m.View(), w, h))
	}
}
