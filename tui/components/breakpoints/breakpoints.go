// Package breakpoints is the form that edits a live engine's breakpoints: a
// pod pattern that pauses before a matching pod's cycle, and pauses after a
// cycle that ends Unschedulable or in Error.
package breakpoints

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/components/prompt"
	"github.com/schedscope/schedscope/tui/keyhint"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the breakpoint form's keys.
type KeyMap struct {
	Next, Prev, Toggle, Apply, Cancel key.Binding
}

// DefaultKeyMap returns the breakpoint form's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "prev field")),
		Toggle: key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space", "toggle")),
		Apply:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Toggle, k.Apply, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev, k.Toggle, k.Apply, k.Cancel}}
}

// Values are the breakpoints the form edits; a zero value pauses nothing.
type Values struct {
	Pod           string // a path.Match pattern on namespace/name or name
	Unschedulable bool
	Error         bool
}

// Model edits the live engine's breakpoints.
type Model struct {
	st    *theme.Styles
	Keys  KeyMap
	pod   textinput.Model
	unsch bool
	err   bool
	field int // 0 pod pattern, 1 Unschedulable, 2 Error

	// done and applied report the form's end: applied with enter, not with esc.
	done, applied bool
}

// New returns a form holding bp.
func New(st *theme.Styles, bp Values) Model {
	in := prompt.NewTextInput(st)
	in.Prompt = "pod pattern: "
	in.Placeholder = "e.g. default/web-* (empty: none)"
	in.SetValue(bp.Pod)
	in.SetWidth(40)
	in.Focus()
	return Model{st: st, Keys: DefaultKeyMap(), pod: in, unsch: bp.Unschedulable, err: bp.Error}
}

// Values returns what the form holds.
func (f Model) Values() Values {
	return Values{Pod: strings.TrimSpace(f.pod.Value()), Unschedulable: f.unsch, Error: f.err}
}

// Done reports whether the form was left, and applied whether with Apply
// (rather than Cancel).
func (f Model) Done() (done, applied bool) { return f.done, f.applied }

// Update edits the form.
func (f Model) Update(msg tea.Msg) (Model, tea.Cmd) {
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

func (f *Model) setField(i int) {
	f.field = i
	if i == 0 {
		f.pod.Focus()
	} else {
		f.pod.Blur()
	}
}

// View renders the form.
func (f Model) View() string {
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
