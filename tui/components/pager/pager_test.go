package pager

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func pager(n, h int) Model {
	m := New()
	var lines []string
	for i := range n {
		lines = append(lines, fmt.Sprintf("line %d", i+1))
	}
	m.SetLines(lines)
	m.SetHeight(h)
	return m
}

func first(m Model) string { return strings.SplitN(m.View(), "\n", 2)[0] }

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

func TestUpdate(t *testing.T) {
	key := func(s string) tea.Msg {
		switch s {
		case "ctrl+d":
			return tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
		case "wheel":
			return tea.MouseWheelMsg{Button: tea.MouseWheelDown}
		}
		return tea.KeyPressMsg{Code: []rune(s)[0], Text: s}
	}
	tests := []struct {
		keys  []string
		first string
	}{
		{nil, "line 1"},
		{[]string{"j"}, "line 2"},
		{[]string{"j", "k"}, "line 1"},
		{[]string{"k"}, "line 1"},
		{[]string{"ctrl+d"}, "line 3"},
		{[]string{"G"}, "line 7"},
		{[]string{"G", "k"}, "line 6"},
		{[]string{"G", "g"}, "line 1"},
		{[]string{"wheel"}, "line 2"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.keys, " "), func(t *testing.T) {
			m := pager(10, 4)
			for _, k := range tc.keys {
				m, _ = m.Update(key(k))
			}
			if got := first(m); got != tc.first {
				t.Errorf("first line %q, want %q", got, tc.first)
			}
		})
	}
}

func TestView(t *testing.T) {
	if got, want := pager(10, 4).View(), "line 1\nline 2\nline 3\n  … 7 more line(s), ↓/j scrolls"; got != want {
		t.Errorf("View = %q, want %q", got, want)
	}
	if got, want := pager(2, 4).View(), "line 1\nline 2"; got != want {
		t.Errorf("View = %q, want %q", got, want)
	}
	m := pager(10, 4)
	m.Keys.Down = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "down"))
	if !strings.Contains(m.View(), "n scrolls") {
		t.Errorf("the marker does not name the Down key:\n%s", m.View())
	}
}

// TestSetLinesKeepsTheScroll: new text keeps the window, within the text.
func TestSetLinesKeepsTheScroll(t *testing.T) {
	m := pager(10, 4)
	m.Scroll(3)
	m.SetLines(strings.Split(strings.Repeat("x\n", 5)+"y", "\n"))
	if m.scroll != 2 {
		t.Errorf("scroll %d after shorter text, want 2", m.scroll)
	}
}
