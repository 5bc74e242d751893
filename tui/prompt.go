package tui

import (
	tea "charm.land/bubbletea/v2"
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
	input textField
	prev  string // the value before editing, restored by esc
}

// NewPrompt returns an inactive prompt.
func NewPrompt(st *Styles) Prompt {
	return Prompt{input: newTextField(st)}
}

// Active reports whether the prompt takes the keys.
func (p Prompt) Active() bool { return p.mode != promptNone }

// Open starts editing with an initial value.
func (p *Prompt) Open(mode promptMode, value string) tea.Cmd {
	p.mode, p.prev = mode, value
	switch mode {
	case promptCommand:
		p.input.Prompt = ":"
		p.input.Placeholder = "cycle N · phase NAME · sort name|status|score|snapshot · q"
	default:
		p.input.Prompt = "/"
		p.input.Placeholder = "pod, node, outcome or plugin (pod:web node:a outcome:unsch plugin:taint)"
		if mode == promptNodeFilter {
			p.input.Placeholder = "node name substring"
		}
	}
	p.input.SetValue(value)
	p.input.Focus()
	return nil
}

// SetWidth sets the input's width.
func (p *Prompt) SetWidth(w int) { p.input.SetWidth(max(w-3, 1)) }

// Close stops editing.
func (p *Prompt) Close() {
	p.mode = promptNone
	p.input.Blur()
}

// Update forwards a message to the text input.
func (p Prompt) Update(msg tea.Msg) (Prompt, tea.Cmd) {
	p.input = p.input.Update(msg)
	return p, nil
}

// Value returns the text typed so far.
func (p Prompt) Value() string { return p.input.Value() }

// View renders the prompt line.
func (p Prompt) View() string { return p.input.View() }
