package cyclepage

import (
	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/tui/components/pager"
)

// KeyMap holds the cycle view's keys.
type KeyMap struct {
	PrevPhase, NextPhase key.Binding
	// The moving keys: up, down, a page, first and last.
	pager.KeyMap
	Detail                   key.Binding
	NextFailure, PrevFailure key.Binding
	// Filter opens the node-name prompt and Back closes what is open in the
	// view (node detail, explain panel, name filter) or leaves it; the root
	// model routes both, since the prompt and the cycle list are its own.
	Filter, Back key.Binding
}

// DefaultKeyMap returns the cycle view's keys.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		KeyMap:      pager.DefaultKeyMap(),
		PrevPhase:   key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "prev phase")),
		NextPhase:   key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next phase")),
		Detail:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "node detail")),
		NextFailure: key.NewBinding(key.WithKeys("n", "]"), key.WithHelp("n/]", "next failure")),
		PrevFailure: key.NewBinding(key.WithKeys("N", "["), key.WithHelp("N/[", "prev failure")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "name")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
	return k
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.PrevPhase, k.NextPhase, k.Detail}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.PrevPhase, k.NextPhase, k.NextFailure, k.PrevFailure},
		{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown},
		{k.Detail, k.Filter, k.Back},
	}
}
