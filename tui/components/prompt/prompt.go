// Package prompt is the one-line text input at the bottom of the screen: a
// filter typed after "/" or a command typed after ":", with tab completing
// commands the bash way (the common prefix, then the candidates listed).
package prompt

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the prompt's keys; every other key is typed.
type KeyMap struct {
	// Accept and Cancel end the editing; the model that opened the prompt
	// acts on them (Cancel restores the value it opened with).
	Accept, Cancel key.Binding
	// Complete completes a command; in a filter it is typed.
	Complete key.Binding
}

// DefaultKeyMap returns the prompt's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Accept:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "accept")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Accept, k.Cancel, k.Complete} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Request is what the prompt is opened with.
type Request struct {
	// Prefix is drawn before the text: "/" for a filter, ":" for a command.
	Prefix string
	// Value is the text to start from.
	Value string
	// Placeholders are what the prompt shows before anything is typed,
	// longest first: it shows the longest that fits.
	Placeholders []string
	// Completions are the commands tab completes; none for a filter.
	Completions []string
}

// Model is the prompt.
type Model struct {
	st     *theme.Styles
	Keys   KeyMap
	active bool
	req    Request
	input  textinput.Model
	// candidates are the completions tab found but could not choose between.
	candidates []string
	w          int
}

// New returns an inactive prompt.
func New(st *theme.Styles) Model {
	return Model{st: st, Keys: DefaultKeyMap(), input: NewTextInput(st)}
}

// NewTextInput returns a text input in the theme's colours, with a steady
// cursor (a blinking one would redraw the screen twice a second for nothing).
func NewTextInput(st *theme.Styles) textinput.Model {
	in := textinput.New()
	s := in.Styles()
	for _, state := range []*textinput.StyleState{&s.Focused, &s.Blurred} {
		state.Prompt = st.Key
		state.Placeholder = st.Dim
		state.Suggestion = st.Dim
		state.Text = lipgloss.NewStyle()
	}
	s.Cursor.Blink = false
	if st.NoColor {
		s.Cursor.Color = lipgloss.NoColor{}
	}
	in.SetStyles(s)
	return in
}

// Active reports whether the prompt takes the keys.
func (m Model) Active() bool { return m.active }

// Original is the value the prompt was opened with, which cancelling restores.
func (m Model) Original() string { return m.req.Value }

// Open starts editing.
func (m *Model) Open(r Request) tea.Cmd {
	m.active, m.req, m.candidates = true, r, nil
	// Completion is ours (complete the common prefix, list the rest); the
	// input's own would take the first match.
	m.input.ShowSuggestions = false
	m.input.SetSuggestions(nil)
	m.input.Prompt = r.Prefix
	m.SetWidth(m.w)
	m.input.SetValue(r.Value)
	m.input.CursorEnd()
	return m.input.Focus()
}

// completes tells whether tab completes in this prompt.
func (m Model) completes() bool { return len(m.req.Completions) > 0 }

// SetWidth sets the prompt's width. A completing prompt's input is as wide
// as its text while candidates are listed, so that they can follow it.
func (m *Model) SetWidth(w int) {
	m.w = w
	m.input.Placeholder = ""
	if m.completes() && len(m.candidates) > 0 {
		m.input.SetWidth(0)
		return
	}
	m.input.SetWidth(max(w-2, 1))
	// The longest placeholder that fits beside the prompt and the cursor.
	for _, ph := range m.req.Placeholders {
		m.input.Placeholder = ph
		if ansi.StringWidth(ph) <= w-2 {
			break
		}
	}
}

// Close stops editing.
func (m *Model) Close() {
	m.active, m.candidates = false, nil
	m.input.Blur()
}

// Update forwards a message to the text input; in a command prompt,
// Complete completes.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && m.completes() {
		m.candidates = nil
		if key.Matches(k, m.Keys.Complete) {
			m.complete()
			m.SetWidth(m.w)
			return m, nil
		}
		m.SetWidth(m.w)
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// complete extends the command typed so far to the longest prefix all the
// commands it could be share; when more than one is left, it keeps them to
// show as the candidates.
func (m *Model) complete() {
	typed := strings.TrimLeft(m.input.Value(), " ")
	var matches []string
	for _, s := range m.req.Completions {
		if strings.HasPrefix(s, typed) {
			matches = append(matches, s)
		}
	}
	if len(matches) == 0 {
		return
	}
	common := matches[0]
	for _, s := range matches[1:] {
		common = common[:commonPrefix(common, s)]
	}
	if len(common) > len(typed) {
		m.input.SetValue(common)
		m.input.CursorEnd()
	}
	if len(matches) == 1 {
		return
	}
	// Show what may follow the last complete word, once each.
	from := strings.LastIndex(common, " ") + 1
	seen := map[string]bool{}
	for _, s := range matches {
		word, _, _ := strings.Cut(s[from:], " ")
		if !seen[word] {
			seen[word] = true
			m.candidates = append(m.candidates, word)
		}
	}
}

// commonPrefix is the length of the longest prefix a and b share.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// Value returns the text typed so far.
func (m Model) Value() string { return m.input.Value() }

// Candidates are the completions listed after the last tab; nil when none.
func (m Model) Candidates() []string { return m.candidates }

// View renders the prompt line and the candidates tab found: after the
// typed text, wrapping onto more lines (under the first candidate) when they
// do not fit; Height says how many lines.
func (m Model) View() string { return strings.Join(m.lines(), "\n") }

// Height is how many lines View takes.
func (m Model) Height() int { return len(m.lines()) }

func (m Model) lines() []string {
	v := m.input.View()
	if len(m.candidates) == 0 {
		return []string{v}
	}
	const gap = "   "
	at := ansi.StringWidth(v) + len(gap)
	if m.w-at < m.w/2 {
		// A long command line leaves little room: list them all below it.
		rows := layout.Flow(m.candidates, m.w-2, " ")
		for i := range rows {
			rows[i] = "  " + m.st.Dim.Render(rows[i])
		}
		return append([]string{v}, rows...)
	}
	rows := layout.Flow(m.candidates, m.w-at, " ")
	out := []string{v + m.st.Dim.Render(gap+rows[0])}
	for _, r := range rows[1:] {
		out = append(out, strings.Repeat(" ", at)+m.st.Dim.Render(r))
	}
	return out
}
