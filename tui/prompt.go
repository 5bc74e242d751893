package tui

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// promptMode is what the bottom-line prompt is for.
type promptMode uint8

const (
	promptNone promptMode = iota
	promptCycleFilter
	promptNodeFilter
	promptCommand
	promptPodFilter
)

// Prompt is the one-line text input at the bottom: "/" filters, ":" commands.
type Prompt struct {
	st    *theme.Styles
	mode  promptMode
	input textinput.Model
	prev  string // the value before editing, restored by esc
	// candidates are the completions tab found but could not choose between.
	candidates []string
	w          int
}

// NewPrompt returns an inactive prompt.
func NewPrompt(st *theme.Styles) Prompt {
	return Prompt{st: st, input: newTextInput(st)}
}

// newTextInput returns a text input in the theme's colours, with a steady
// cursor (a blinking one would redraw the screen twice a second for nothing).
func newTextInput(st *theme.Styles) textinput.Model {
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
	out := []string{"cycle ", "filter ", "help", "pods", "problems", "quit"}
	for p := range numPhases {
		out = append(out, "phase "+strings.ToLower(p.short()))
	}
	for s := range numSorts {
		out = append(out, "sort "+s.String())
	}
	return out
}

// placeholders are what a prompt shows before anything is typed, longest
// first: the prompt shows the longest that fits.
func placeholders(mode promptMode) []string {
	switch mode {
	case promptCommand:
		return []string{
			"cycle N · phase NAME · filter TEXT · sort name|status|score|snapshot · problems · help · q (tab completes)",
			"cycle N · phase NAME · filter TEXT · sort KEY · help · q (tab completes)",
			"cycle N · phase P · filter T · sort K · help · q · tab completes",
		}
	case promptNodeFilter:
		return []string{"node name substring"}
	case promptPodFilter:
		return []string{"pod, state or node (pod:web state:unsch node:a)", "pod, state or node"}
	}
	return []string{
		"pod, node, outcome or plugin (pod:web node:a outcome:unsch plugin:taint disagree)",
		"text or pod:web node:a outcome:unsch plugin:taint disagree",
	}
}

// Active reports whether the prompt takes the keys.
func (p Prompt) Active() bool { return p.mode != promptNone }

// Open starts editing with an initial value.
func (p *Prompt) Open(mode promptMode, value string) tea.Cmd {
	p.mode, p.prev, p.candidates = mode, value, nil
	// Completion is ours (complete the common prefix, list the rest); the
	// input's own would take the first match.
	p.input.ShowSuggestions = false
	p.input.SetSuggestions(nil)
	switch mode {
	case promptCommand:
		p.input.Prompt = ":"
	default:
		p.input.Prompt = "/"
	}
	p.SetWidth(p.w)
	p.input.SetValue(value)
	p.input.CursorEnd()
	return p.input.Focus()
}

// SetWidth sets the prompt's width. A command prompt's input is as wide as
// its text while candidates are listed, so that they can follow it.
func (p *Prompt) SetWidth(w int) {
	p.w = w
	p.input.Placeholder = ""
	if p.mode == promptCommand && len(p.candidates) > 0 {
		p.input.SetWidth(0)
		return
	}
	p.input.SetWidth(max(w-2, 1))
	// The longest placeholder that fits beside the prompt and the cursor.
	for _, ph := range placeholders(p.mode) {
		p.input.Placeholder = ph
		if ansi.StringWidth(ph) <= w-2 {
			break
		}
	}
}

// Close stops editing.
func (p *Prompt) Close() {
	p.mode, p.candidates = promptNone, nil
	p.input.Blur()
}

// Update forwards a message to the text input; in a command prompt, tab
// completes.
func (p Prompt) Update(msg tea.Msg) (Prompt, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && p.mode == promptCommand {
		p.candidates = nil
		if k.String() == "tab" {
			p.complete()
			p.SetWidth(p.w)
			return p, nil
		}
		p.SetWidth(p.w)
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return p, cmd
}

// complete extends the command typed so far to the longest prefix all the
// commands it could be share; when more than one is left, it keeps them to
// show as the candidates.
func (p *Prompt) complete() {
	typed := strings.TrimLeft(p.input.Value(), " ")
	var matches []string
	for _, s := range commandSuggestions() {
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
		p.input.SetValue(common)
		p.input.CursorEnd()
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
			p.candidates = append(p.candidates, word)
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
func (p Prompt) Value() string { return p.input.Value() }

// View renders the prompt line and the candidates tab found: after the
// typed text, wrapping onto more lines (under the first candidate) when they
// do not fit; Height says how many lines.
func (p Prompt) View() string { return strings.Join(p.lines(), "\n") }

// Height is how many lines View takes.
func (p Prompt) Height() int { return len(p.lines()) }

func (p Prompt) lines() []string {
	v := p.input.View()
	if len(p.candidates) == 0 {
		return []string{v}
	}
	const gap = "   "
	at := ansi.StringWidth(v) + len(gap)
	if p.w-at < p.w/2 {
		// A long command line leaves little room: list them all below it.
		rows := layout.Flow(p.candidates, p.w-2, " ")
		for i := range rows {
			rows[i] = "  " + p.st.Dim.Render(rows[i])
		}
		return append([]string{v}, rows...)
	}
	rows := layout.Flow(p.candidates, p.w-at, " ")
	out := []string{v + p.st.Dim.Render(gap+rows[0])}
	for _, r := range rows[1:] {
		out = append(out, strings.Repeat(" ", at)+p.st.Dim.Render(r))
	}
	return out
}
