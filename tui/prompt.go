package tui

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// promptMode is what the bottom-line prompt is for.
type promptMode uint8

const (
	promptNone promptMode = iota
	promptCycleFilter
	promptNodeFilter
	promptCommand
)

// Prompt is the one-line text input at the bottom: "/" filters, ":" commands.
type Prompt struct {
	mode  promptMode
	input textinput.Model
	prev  string // the value before editing, restored by esc
}

// NewPrompt returns an inactive prompt.
func NewPrompt(st *Styles) Prompt {
	return Prompt{input: newTextInput(st)}
}

// newTextInput returns a text input in the theme's colours, with a steady
// cursor (a blinking one would redraw the screen twice a second for nothing).
func newTextInput(st *Styles) textinput.Model {
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

// commandSuggestions complete ":" commands with tab.
func commandSuggestions() []string {
	out := []string{"cycle ", "quit"}
	for p := range numPhases {
		out = append(out, "phase "+strings.ToLower(p.short()))
	}
	for s := range numSorts {
		out = append(out, "sort "+s.String())
	}
	return out
}

// Active reports whether the prompt takes the keys.
func (p Prompt) Active() bool { return p.mode != promptNone }

// Open starts editing with an initial value.
func (p *Prompt) Open(mode promptMode, value string) tea.Cmd {
	p.mode, p.prev = mode, value
	p.input.ShowSuggestions = mode == promptCommand
	switch mode {
	case promptCommand:
		p.input.Prompt = ":"
		p.input.Placeholder = "cycle N · phase NAME · sort name|status|score|snapshot · q (tab completes)"
		p.input.SetSuggestions(commandSuggestions())
	default:
		p.input.Prompt = "/"
		p.input.Placeholder = "pod, node, outcome or plugin (pod:web node:a outcome:unsch plugin:taint disagree)"
		if mode == promptNodeFilter {
			p.input.Placeholder = "node name substring"
		}
		p.input.SetSuggestions(nil)
	}
	p.input.SetValue(value)
	p.input.CursorEnd()
	return p.input.Focus()
}

// SetWidth sets the input's width.
func (p *Prompt) SetWidth(w int) { p.input.SetWidth(max(w-2, 1)) }

// Close stops editing.
func (p *Prompt) Close() {
	p.mode = promptNone
	p.input.Blur()
}

// Update forwards a message to the text input.
func (p Prompt) Update(msg tea.Msg) (Prompt, tea.Cmd) {
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return p, cmd
}

// Value returns the text typed so far.
func (p Prompt) Value() string { return p.input.Value() }

// View renders the prompt line.
func (p Prompt) View() string { return p.input.View() }
