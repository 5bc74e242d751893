package cyclelist

import (
	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/tui/components/pager"
)

// KeyMap holds the cycle list's keys.
type KeyMap struct {
	// The moving keys: up, down, a page, first and last.
	pager.KeyMap
	Open                     key.Binding
	NextFailure, PrevFailure key.Binding
	Pods                     key.Binding
	// Back clears the cycle filter; the root model routes it, as the
	// filter is typed in its prompt.
	Back key.Binding
}

// DefaultKeyMap returns the cycle list's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		KeyMap:      pager.DefaultKeyMap(),
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open cycle")),
		NextFailure: key.NewBinding(key.WithKeys("n", "]"), key.WithHelp("n/]", "next failure")),
		PrevFailure: key.NewBinding(key.WithKeys("N", "["), key.WithHelp("N/[", "prev failure")),
		Pods:        key.NewBinding(key.WithKeys("P", "p"), key.WithHelp("P", "pods")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
	}
	k.Top.SetHelp("g", "first")
	k.Bottom.SetHelp("G", "last (follow)")
	return k
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Pods, k.NextFailure}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown}, {k.Open, k.NextFailure, k.PrevFailure, k.Pods, k.Back}}
}
