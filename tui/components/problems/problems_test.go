package problems

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/theme"
)

func press(k string) tea.KeyPressMsg {
	switch k {
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

// newView returns a 40×h view holding n notes, the odd ones messages.
func newView(n, h int) Model {
	st := theme.New(true)
	m := New(&st)
	m.SetSize(40, h)
	var notes []Note
	for i := range n {
		kind := Problem
		if i%2 == 1 {
			kind = Message
		}
		notes = append(notes, Note{Kind: kind, Text: fmt.Sprintf("note %d", i+1)})
	}
	m.SetNotes(notes)
	return m
}

func TestHelpListsEveryBinding(t *testing.T) {
	k := DefaultKeyMap()
	var _ help.KeyMap = k
	listed := map[key.Help]bool{}
	for _, col := range k.FullHelp() {
		for _, b := range col {
			listed[b.Help()] = true
		}
	}
	for name, b := range map[string]key.Binding{"Up": k.Up, "Down": k.Down, "Top": k.Top, "Bottom": k.Bottom, "PageUp": k.PageUp, "PageDown": k.PageDown, "Close": k.Close} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
}

func TestView(t *testing.T) {
	got := ansi.Strip(newView(3, 10).View())
	want := strings.Join([]string{
		"Problems (2) and messages (1)  (esc/! close)",
		"",
		"  1 ⚠ note 1",
		"  2 · note 2",
		"  3 ⚠ note 3",
	}, "\n")
	if got != want {
		t.Errorf("View:\n%s\nwant:\n%s", got, want)
	}
	if got := ansi.Strip(New(newView(0, 5).st).View()); !strings.Contains(got, "nothing went wrong so far") {
		t.Errorf("empty view %q", got)
	}
}

// TestUpdateScrolls checks the keys move the window over the notes, which
// opens on the newest.
func TestUpdateScrolls(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		first string // the first note shown
	}{
		{"opens on the newest", nil, "  7 ⚠ note 7"},
		{"k goes up", []string{"k"}, "  6 · note 6"},
		{"g goes to the first", []string{"g"}, "  1 ⚠ note 1"},
		{"G after g goes back to the last", []string{"g", "G"}, "  7 ⚠ note 7"},
		{"down at the end stays", []string{"down"}, "  7 ⚠ note 7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newView(10, 6) // 4 note lines under the title
			for _, k := range tc.keys {
				m, _ = m.Update(press(k))
			}
			lines := strings.Split(ansi.Strip(m.View()), "\n")
			if lines[2] != tc.first {
				t.Errorf("first note line %q, want %q\n%s", lines[2], tc.first, strings.Join(lines, "\n"))
			}
		})
	}
}

// TestRebindingChangesTheTitle checks the title's hint comes from the Close
// binding.
func TestRebindingChangesTheTitle(t *testing.T) {
	m := newView(1, 5)
	m.Keys.Close = key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "close"))
	if got := ansi.Strip(m.View()); !strings.Contains(got, "(x close)") {
		t.Errorf("title does not name the Close key:\n%s", got)
	}
}

func TestMoreLinesNameTheDownKey(t *testing.T) {
	m := newView(10, 6)
	m, _ = m.Update(press("g"))
	if got := ansi.Strip(m.View()); !strings.Contains(got, "more line(s), ↓/j scrolls") {
		t.Errorf("hidden notes are not marked:\n%s", got)
	}
}
