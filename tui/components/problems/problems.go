// Package problems is the problems view: every problem the source reported
// and every answer the TUI gave, whole and wrapped, newest last.
package problems

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/keyhint"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// Kind says where a note came from.
type Kind uint8

const (
	// Problem is a problem the source reported: a corrupt record, a torn
	// tail, a missing node set, a lost connection, a failed run.
	Problem Kind = iota
	// Message is the TUI's answer to something the user did, such as an
	// unknown command.
	Message
)

// Note is one line of the session's log.
type Note struct {
	Kind Kind
	Text string
}

// KeyMap holds the problems view's keys.
type KeyMap struct {
	// The moving keys: up, down, a page, first and last.
	pager.KeyMap
	// Close leaves the view; the model that opened it acts on it.
	Close key.Binding
}

// DefaultKeyMap returns the problems view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		KeyMap: pager.DefaultKeyMap(),
		Close:  key.NewBinding(key.WithKeys("esc", "!", "q"), key.WithHelp("esc/!", "close")),
	}
	k.Top.SetHelp("g", "first")
	k.Bottom.SetHelp("G", "last")
	return k
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Close}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.Close}}
}

// Model is the problems view.
type Model struct {
	st     *theme.Styles
	Keys   KeyMap
	notes  []Note
	scroll int // first line shown
	w, h   int
}

// New returns an empty problems view.
func New(st *theme.Styles) Model {
	return Model{st: st, Keys: DefaultKeyMap()}
}

// SetNotes replaces the notes shown; the view starts at the newest.
func (m *Model) SetNotes(notes []Note) {
	m.notes = notes
	m.scroll = 1 << 30
	m.clampScroll()
}

// SetSize sets the view's size.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.clampScroll()
}

// lines renders every note, wrapped to the width.
func (m *Model) lines() []string {
	var out []string
	problems := 0
	for _, n := range m.notes {
		if n.Kind == Problem {
			problems++
		}
	}
	title := fmt.Sprintf("Problems (%d)", problems)
	if msgs := len(m.notes) - problems; msgs > 0 {
		title += fmt.Sprintf(" and messages (%d)", msgs)
	}
	out = append(out, m.st.Title.Render(title)+m.st.Dim.Render("  (")+keyhint.Line(m.st, m.Keys.Close)+m.st.Dim.Render(")"), "")
	if len(m.notes) == 0 {
		return append(out, m.st.Dim.Render("nothing went wrong so far"))
	}
	for i, n := range m.notes {
		mark := m.st.Problem.Render("⚠")
		if n.Kind == Message {
			mark = m.st.Dim.Render("·")
		}
		lead := fmt.Sprintf("%3d ", i+1)
		wrapped := layout.Wrap(n.Text, max(m.w-len(lead)-2, 8), "")
		for k, l := range wrapped {
			if k == 0 {
				out = append(out, lead+mark+" "+l)
			} else {
				out = append(out, strings.Repeat(" ", len(lead)+2)+l)
			}
		}
	}
	return out
}

// bodyHeight is how many note lines fit under the title.
func (m *Model) bodyHeight() int { return max(m.h-2, 1) }

func (m *Model) clampScroll() {
	n := len(m.lines()) - 2
	m.scroll = layout.Clamp(m.scroll, 0, max(n-m.bodyHeight(), 0))
}

// Update scrolls the list.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k := m.Keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if n, ok := k.Step(msg, m.bodyHeight()); ok {
			m.scroll = max(m.scroll+n, 0) // the view stops it at the last line
		}
	case tea.MouseWheelMsg:
		m.scroll = max(m.scroll+pager.Wheel(msg), 0)
	}
	m.clampScroll()
	return m, nil
}

// View renders the title and the window of notes.
func (m Model) View() string {
	all := m.lines()
	head, body := all[:2], all[2:]
	return strings.Join(append(head, layout.ScrollLines(body, m.scroll, m.bodyHeight(), m.Keys.Down)...), "\n")
}
