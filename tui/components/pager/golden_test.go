package pager

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder/export/text"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
)

// walk is the text walk through the phases of the default fixture's
// cycles, longer than either golden size.
func walk(t *testing.T) []string {
	var b bytes.Buffer
	w := text.New(&b)
	for _, c := range recordings.Load(t, "default.rec").Cycles {
		w.Cycle(c)
	}
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
}

// TestGoldens draws the pager over a cycle's text walk at each golden
// size: at the top, a page down and three lines further (the last line
// saying how many lines are hidden below), and at the bottom (no such
// line).
func TestGoldens(t *testing.T) {
	lines := walk(t)
	for _, size := range golden.Sizes {
		w, h := size[0], size[1]
		if len(lines) <= h {
			t.Fatalf("the walk has %d lines, not more than %d: nothing to scroll", len(lines), h)
		}
		m := New()
		m.SetLines(lines)
		m.SetHeight(h)
		golden.Check(t, fmt.Sprintf("top-%dx%d", w, h), golden.Screen(m.View(), w, h))
		m, _ = m.Update(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl})
		for range 3 {
			m, _ = m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
		}
		golden.Check(t, fmt.Sprintf("scrolled-%dx%d", w, h), golden.Screen(m.View(), w, h))
		m, _ = m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
		golden.Check(t, fmt.Sprintf("bottom-%dx%d", w, h), golden.Screen(m.View(), w, h))
	}
}
