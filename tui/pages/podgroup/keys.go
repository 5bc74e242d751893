package podgroup

import (
	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/tui/components/pager"
)

// KeyMap holds the pod-group page's keys.
type KeyMap struct {
	// Up and Down move between the members; the page keys scroll.
	pager.KeyMap
	// Open opens the selected member's own cycle.
	Open key.Binding
	// Prev and Next go to the group's earlier and later pod-group cycles
	// (its retries).
	Prev, Next key.Binding
	// Explain shows or hides what a pod-group cycle is.
	Explain key.Binding
	Close   key.Binding
}

// DefaultKeyMap returns the page's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		KeyMap:  pager.DefaultKeyMap(),
		Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "member's cycle")),
		Prev:    key.NewBinding(key.WithKeys("[", "N"), key.WithHelp("[", "earlier try")),
		Next:    key.NewBinding(key.WithKeys("]", "n"), key.WithHelp("]", "later try")),
		Explain: key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "explain")),
		Close:   key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "back")),
	}
}

// OpenKey is the key that opens a member's pod group from its cycle (the
// root binds it where a cycle is shown).
func OpenKey() key.Binding {
	return key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "its pod group"))
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Close, k.Explain, k.Up, k.Down, k.Prev, k.Next}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Open, k.Prev, k.Next, k.Explain, k.Close},
	}
}
