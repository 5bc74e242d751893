package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/components/prompt"
	"github.com/schedscope/schedscope/tui/keyhint"
	"github.com/schedscope/schedscope/tui/theme"
)

// BreakpointsKeyMap holds the breakpoint form's keys.
type BreakpointsKeyMap struct {
	Next, Prev, Toggle, Apply, Cancel key.Binding
}

// DefaultBreakpointsKeyMap returns the breakpoint form's keys.
func DefaultBreakpointsKeyMap() BreakpointsKeyMap {
	return BreakpointsKeyMap{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "prev field")),
		Toggle: key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space", "toggle")),
		Apply:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp implements help.KeyMap.
func (k BreakpointsKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Toggle, k.Apply, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k BreakpointsKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev, k.Toggle, k.Apply, k.Cancel}}
}

// BreakpointsForm edits the live engine's breakpoints.
type BreakpointsForm struct {
	st    *theme.Styles
	Keys  BreakpointsKeyMap
	pod   textinput.Model
	unsch bool
	err   bool
	field int // 0 pod pattern, 1 Unschedulable, 2 Error

	// done and applied report the form's end: applied with enter, not with esc.
	done, applied bool
}

// NewBreakpointsForm returns a form holding bp.
func NewBreakpointsForm(st *theme.Styles, bp Breakpoints) BreakpointsForm {
	in := prompt.NewTextInput(st)
	in.Prompt = "pod pattern: "
	in.Placeholder = "e.g. default/web-* (empty: none)"
	in.SetValue(bp.Pod)
	in.SetWidth(40)
	in.Focus()
	return BreakpointsForm{st: st, Keys: DefaultBreakpointsKeyMap(), pod: in, unsch: bp.Unschedulable, err: bp.Error}
}

// Breakpoints returns what the form holds.
func (f BreakpointsForm) Breakpoints() Breakpoints {
	return Breakpoints{Pod: strings.TrimSpace(f.pod.Value()), Unschedulable: f.unsch, Error: f.err}
}

// Update edits the form.
func (f BreakpointsForm) Update(msg tea.Msg) (BreakpointsForm, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return f, nil
	}
	switch {
	case key.Matches(k, f.Keys.Apply):
		f.done, f.applied = true, true
	case key.Matches(k, f.Keys.Cancel):
		f.done = true
	case key.Matches(k, f.Keys.Next):
		f.setField((f.field + 1) % 3)
	case key.Matches(k, f.Keys.Prev):
		f.setField((f.field + 2) % 3)
	case f.field == 1 && key.Matches(k, f.Keys.Toggle):
		f.unsch = !f.unsch
	case f.field == 2 && key.Matches(k, f.Keys.Toggle):
		f.err = !f.err
	case f.field == 0:
		var cmd tea.Cmd
		f.pod, cmd = f.pod.Update(msg)
		return f, cmd
	}
	return f, nil
}

func (f *BreakpointsForm) setField(i int) {
	f.field = i
	if i == 0 {
		f.pod.Focus()
	} else {
		f.pod.Blur()
	}
}

// View renders the form.
func (f BreakpointsForm) View() string {
	check := func(on bool, label string, field int) string {
		box := "[ ]"
		if on {
			box = "[x]"
		}
		s := box + " " + label
		if f.field == field {
			return f.st.Cursor.Render(s)
		}
		return s
	}
	pod := f.pod.View()
	if f.field == 0 {
		pod = "▸ " + pod
	} else {
		pod = "  " + pod
	}
	return strings.Join([]string{
		f.st.Title.Render("Breakpoints") + f.st.Dim.Render(" — the engine pauses when one matches"),
		"",
		pod,
		f.st.Dim.Render("    pauses before a cycle starts for a matching pod (path.Match on namespace/name or name)"),
		"  " + check(f.unsch, "pause after a cycle ends Unschedulable", 1),
		"  " + check(f.err, "pause after a cycle ends in Error", 2),
		"",
		"  " + keyhint.Line(f.st, f.Keys.ShortHelp()...),
	}, "\n")
}
