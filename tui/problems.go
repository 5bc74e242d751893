package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/schedscope/schedscope/tui/keyhint"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// noteKind says where a note in the problems view came from.
type noteKind uint8

const (
	// noteProblem is a problem the source reported: a corrupt record, a torn
	// tail, a missing node set, a lost connection, a failed run.
	noteProblem noteKind = iota
	// noteMessage is the TUI's answer to something the user did, such as an
	// unknown command.
	noteMessage
)

// note is one line of the session's log.
type note struct {
	kind noteKind
	text string
}

// ProblemsKeyMap holds the problems view's keys.
type ProblemsKeyMap struct {
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
	Close                                   key.Binding
}

// DefaultProblemsKeyMap returns the problems view's keys.
func DefaultProblemsKeyMap() ProblemsKeyMap {
	return ProblemsKeyMap{
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "first")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "last")),
		PageUp:   key.NewBinding(key.WithKeys("ctrl+u", "pgup"), key.WithHelp("ctrl+u", "page up")),
		PageDown: key.NewBinding(key.WithKeys("ctrl+d", "pgdown"), key.WithHelp("ctrl+d", "page down")),
		Close:    key.NewBinding(key.WithKeys("esc", "!", "q"), key.WithHelp("esc/!", "close")),
	}
}

// ShortHelp implements help.KeyMap.
func (k ProblemsKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Close}
}

// FullHelp implements help.KeyMap.
func (k ProblemsKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.Close}}
}

// ProblemsView lists every problem the source reported and every message the
// TUI gave, whole and wrapped, newest last.
type ProblemsView struct {
	st     *theme.Styles
	Keys   ProblemsKeyMap
	notes  []note
	scroll int // first line shown
	w, h   int
}

// NewProblemsView returns an empty problems view.
func NewProblemsView(st *theme.Styles) ProblemsView {
	return ProblemsView{st: st, Keys: DefaultProblemsKeyMap()}
}

// SetNotes replaces the notes shown; the view starts at the newest.
func (p *ProblemsView) SetNotes(notes []note) {
	p.notes = notes
	p.scroll = 1 << 30
	p.clampScroll()
}

// SetSize sets the view's size.
func (p *ProblemsView) SetSize(w, h int) {
	p.w, p.h = w, h
	p.clampScroll()
}

// lines renders every note, wrapped to the width.
func (p *ProblemsView) lines() []string {
	var out []string
	problems := 0
	for _, n := range p.notes {
		if n.kind == noteProblem {
			problems++
		}
	}
	title := fmt.Sprintf("Problems (%d)", problems)
	if msgs := len(p.notes) - problems; msgs > 0 {
		title += fmt.Sprintf(" and messages (%d)", msgs)
	}
	out = append(out, p.st.Title.Render(title)+p.st.Dim.Render("  (")+keyhint.Line(p.st, p.Keys.Close)+p.st.Dim.Render(")"), "")
	if len(p.notes) == 0 {
		return append(out, p.st.Dim.Render("nothing went wrong so far"))
	}
	for i, n := range p.notes {
		mark := p.st.Problem.Render("⚠")
		if n.kind == noteMessage {
			mark = p.st.Dim.Render("·")
		}
		lead := fmt.Sprintf("%3d ", i+1)
		wrapped := layout.Wrap(n.text, max(p.w-len(lead)-2, 8), "")
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
func (p *ProblemsView) bodyHeight() int { return max(p.h-2, 1) }

func (p *ProblemsView) clampScroll() {
	n := len(p.lines()) - 2
	p.scroll = layout.Clamp(p.scroll, 0, max(n-p.bodyHeight(), 0))
}

// Update scrolls the list.
func (p ProblemsView) Update(msg tea.Msg) (ProblemsView, tea.Cmd) {
	k := p.Keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			p.scroll--
		case key.Matches(msg, k.Down):
			p.scroll++
		case key.Matches(msg, k.PageUp):
			p.scroll -= max(p.bodyHeight()/2, 1)
		case key.Matches(msg, k.PageDown):
			p.scroll += max(p.bodyHeight()/2, 1)
		case key.Matches(msg, k.Top):
			p.scroll = 0
		case key.Matches(msg, k.Bottom):
			p.scroll = 1 << 30
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			p.scroll--
		case tea.MouseWheelDown:
			p.scroll++
		}
	}
	p.clampScroll()
	return p, nil
}

// View renders the title and the window of notes.
func (p ProblemsView) View() string {
	all := p.lines()
	head, body := all[:2], all[2:]
	return strings.Join(append(head, layout.ScrollLines(body, p.scroll, p.bodyHeight(), p.Keys.Down)...), "\n")
}
