package whatifscreen

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/tui/components/pager"
)

// KeyMap holds the keys both what-ifs share, so that one letter does one
// thing in both: the two that open a what-if, the changes both menus
// offer, the list keys, choose and back. A page words the help of a key
// for its own what-if with SetHelp; the letters stay.
type KeyMap struct {
	// Open opens the menu; Suggest searches for changes.
	Open    key.Binding
	Suggest key.Binding

	// The changes both menus offer.
	Evict   key.Binding
	Weight  key.Binding
	Disable key.Binding

	// The screens' keys: moving, then acting.
	pager.KeyMap
	Choose key.Binding
	Cancel key.Binding
}

// DefaultKeyMap returns the shared keys, worded for a pod's what-if.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		KeyMap:  pager.DefaultKeyMap(),
		Open:    key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "what-if")),
		Suggest: key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "suggest")),
		Evict:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "evict a pod of the node")),
		Weight:  key.NewBinding(key.WithKeys("W"), key.WithHelp("W", "set a score weight")),
		Disable: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "disable a plugin")),
		Choose:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Cancel:  key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "back")),
	}
}

// MenuHelp is the help under a what-if's menu.
type MenuHelp struct{ Keys KeyMap }

// ShortHelp implements help.KeyMap.
func (m MenuHelp) ShortHelp() []key.Binding {
	cancel := m.Keys.Cancel
	cancel.SetHelp("esc", "close the menu")
	return []key.Binding{cancel}
}

// FullHelp implements help.KeyMap.
func (m MenuHelp) FullHelp() [][]key.Binding { return [][]key.Binding{m.ShortHelp()} }

// InputHelp is the help under a prompt: enter does Run, esc does Back.
type InputHelp struct {
	Keys      KeyMap
	Run, Back string
}

// ShortHelp implements help.KeyMap.
func (i InputHelp) ShortHelp() []key.Binding {
	run := i.Keys.Choose
	run.SetHelp("enter", i.Run)
	cancel := i.Keys.Cancel
	cancel.SetHelp("esc", i.Back)
	return []key.Binding{run, cancel}
}

// FullHelp implements help.KeyMap.
func (i InputHelp) FullHelp() [][]key.Binding { return [][]key.Binding{i.ShortHelp()} }

// ListHelp is the help of a list to choose from: enter does What.
type ListHelp struct {
	Keys KeyMap
	What string
}

// ShortHelp implements help.KeyMap.
func (l ListHelp) ShortHelp() []key.Binding {
	choose := l.Keys.Choose
	choose.SetHelp("enter", l.What)
	return []key.Binding{choose, l.Keys.Up, l.Keys.Down, l.Keys.Cancel}
}

// FullHelp implements help.KeyMap.
func (l ListHelp) FullHelp() [][]key.Binding { return [][]key.Binding{l.ShortHelp()} }

var (
	_ help.KeyMap = MenuHelp{}
	_ help.KeyMap = InputHelp{}
	_ help.KeyMap = ListHelp{}
)
