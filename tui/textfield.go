package tui

import (
	"unicode"

	tea "charm.land/bubbletea/v2"
)

// textField is a one-line text input: typing appends at the cursor, with the
// usual editing keys. (bubbles/textinput would pull a clipboard dependency the
// module does not carry.)
type textField struct {
	st          *Styles
	Prompt      string
	Placeholder string
	value       []rune
	pos         int
	focused     bool
	width       int
}

func newTextField(st *Styles) textField { return textField{st: st} }

func (f *textField) SetValue(s string) { f.value, f.pos = []rune(s), len([]rune(s)) }
func (f textField) Value() string      { return string(f.value) }
func (f *textField) Focus()            { f.focused = true }
func (f *textField) Blur()             { f.focused = false }
func (f *textField) SetWidth(w int)    { f.width = w }

// Update edits the value on key presses while focused.
func (f textField) Update(msg tea.Msg) textField {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || !f.focused {
		return f
	}
	switch k.String() {
	case "backspace", "ctrl+h":
		if f.pos > 0 {
			f.value = append(f.value[:f.pos-1], f.value[f.pos:]...)
			f.pos--
		}
	case "delete", "ctrl+d":
		if f.pos < len(f.value) {
			f.value = append(f.value[:f.pos], f.value[f.pos+1:]...)
		}
	case "left", "ctrl+b":
		f.pos = max(f.pos-1, 0)
	case "right", "ctrl+f":
		f.pos = min(f.pos+1, len(f.value))
	case "home", "ctrl+a":
		f.pos = 0
	case "end", "ctrl+e":
		f.pos = len(f.value)
	case "ctrl+u":
		f.value, f.pos = f.value[f.pos:], 0
	case "ctrl+k":
		f.value = f.value[:f.pos]
	case "ctrl+w":
		i := f.pos
		for i > 0 && unicode.IsSpace(f.value[i-1]) {
			i--
		}
		for i > 0 && !unicode.IsSpace(f.value[i-1]) {
			i--
		}
		f.value, f.pos = append(f.value[:i], f.value[f.pos:]...), i
	default:
		if k.Text == "" || k.Mod&^tea.ModShift != 0 {
			return f
		}
		ins := []rune(k.Text)
		f.value = append(f.value[:f.pos], append(ins, f.value[f.pos:]...)...)
		f.pos += len(ins)
	}
	return f
}

// View renders the prompt, the value and a block cursor.
func (f textField) View() string {
	prompt := f.st.Key.Render(f.Prompt)
	if len(f.value) == 0 && !f.focused {
		return prompt + f.st.Dim.Render(f.Placeholder)
	}
	before, after := string(f.value[:f.pos]), ""
	cur := " "
	if f.pos < len(f.value) {
		cur, after = string(f.value[f.pos]), string(f.value[f.pos+1:])
	}
	if !f.focused {
		return prompt + string(f.value)
	}
	s := prompt + before + f.st.Cursor.Render(cur) + after
	if len(f.value) == 0 {
		s += f.st.Dim.Render(" " + f.Placeholder)
	}
	if f.width > 0 {
		return fit(s, f.width)
	}
	return s
}
