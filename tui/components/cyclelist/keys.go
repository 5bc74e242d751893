package cyclelist

import "charm.land/bubbles/v2/key"

// KeyMap holds the cycle list's keys.
type KeyMap struct {
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
	Open                                    key.Binding
	NextFailure, PrevFailure                key.Binding
	Pods                                    key.Binding
	// Back clears the cycle filter; the root model routes it, as the
	// filter is typed in its prompt.
	Back key.Binding
}

// DefaultKeyMap returns the cycle list's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:          key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:        key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Top:         key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "first")),
		Bottom:      key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "last (follow)")),
		PageUp:      key.NewBinding(key.WithKeys("ctrl+u", "pgup"), key.WithHelp("ctrl+u", "page up")),
		PageDown:    key.NewBinding(key.WithKeys("ctrl+d", "pgdown"), key.WithHelp("ctrl+d", "page down")),
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open cycle")),
		NextFailure: key.NewBinding(key.WithKeys("n", "]"), key.WithHelp("n/]", "next failure")),
		PrevFailure: key.NewBinding(key.WithKeys("N", "["), key.WithHelp("N/[", "prev failure")),
		Pods:        key.NewBinding(key.WithKeys("P", "p"), key.WithHelp("P", "pods")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Pods, k.NextFailure}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown}, {k.Open, k.NextFailure, k.PrevFailure, k.Pods, k.Back}}
}
