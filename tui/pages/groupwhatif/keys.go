package groupwhatif

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/tui/components/pager"
)

// KeyMap holds the keys of a pod group's what-if: the two that open it
// from the pod-group page (the pod what-if's w and S), the menu's actions
// (x, W and p as in the pod what-if's menu), and the screens' keys.
type KeyMap struct {
	// Open and Suggest work on the group shown.
	Open    key.Binding
	Suggest key.Binding

	// The menu's actions.
	MinCount key.Binding
	Requests key.Binding
	CopyNode key.Binding
	Evict    key.Binding
	Weight   key.Binding
	Disable  key.Binding
	Flags    key.Binding

	// The screens' keys: moving, then acting.
	pager.KeyMap
	Choose key.Binding
	Cancel key.Binding
}

// DefaultKeyMap returns the keys.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		KeyMap:   pager.DefaultKeyMap(),
		Open:     key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "group what-if")),
		Suggest:  key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "suggest for the group")),
		MinCount: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "set the gang's minCount")),
		Requests: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "change a member's requests")),
		CopyNode: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "add a copy of a node")),
		Evict:    key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "evict a placed pod")),
		Weight:   key.NewBinding(key.WithKeys("W"), key.WithHelp("W", "set a score weight")),
		Disable:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "disable a plugin")),
		Flags:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "any change, as whatif's flags")),
		Choose:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Cancel:   key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "back")),
	}
	return k
}

// setAvailable enables the keys that open the what-if only when the
// session can run its fixture again.
func (k *KeyMap) setAvailable(ok bool) {
	k.Open.SetEnabled(ok)
	k.Suggest.SetEnabled(ok)
}

// ShortHelp implements help.KeyMap: the keys that open the what-if, shown
// on the pod-group page.
//
// The help line words them short, so both fit beside the page's own keys
// at 80 columns; the help screen (FullHelp's users) keeps the long words.
func (k KeyMap) ShortHelp() []key.Binding {
	open, suggest := k.Open, k.Suggest
	open.SetHelp(open.Help().Key, "what-if")
	suggest.SetHelp(suggest.Help().Key, "suggest")
	return []key.Binding{open, suggest}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Open, k.Suggest},
		k.menu(),
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Choose, k.Cancel},
	}
}

// menu are the menu's actions.
func (k KeyMap) menu() []key.Binding {
	return []key.Binding{k.MinCount, k.Requests, k.CopyNode, k.Evict, k.Weight, k.Disable, k.Flags, k.Suggest}
}

// menuKeys is the help under the menu.
type menuKeys struct{ k KeyMap }

func (m menuKeys) ShortHelp() []key.Binding {
	cancel := m.k.Cancel
	cancel.SetHelp("esc", "close the menu")
	return []key.Binding{cancel}
}
func (m menuKeys) FullHelp() [][]key.Binding { return [][]key.Binding{m.ShortHelp()} }

// inputKeys is the help under a prompt.
type inputKeys struct{ k KeyMap }

func (i inputKeys) ShortHelp() []key.Binding {
	run := i.k.Choose
	run.SetHelp("enter", "run")
	cancel := i.k.Cancel
	cancel.SetHelp("esc", "back to the menu")
	return []key.Binding{run, cancel}
}
func (i inputKeys) FullHelp() [][]key.Binding { return [][]key.Binding{i.ShortHelp()} }

// compareKeys is the help of the before/after screen.
type compareKeys struct{ k KeyMap }

func (c compareKeys) ShortHelp() []key.Binding {
	more := c.k.Open
	more.SetHelp("w", "change more")
	return []key.Binding{more, c.k.Up, c.k.Down, c.k.PageDown, c.k.Cancel}
}
func (c compareKeys) FullHelp() [][]key.Binding { return [][]key.Binding{c.ShortHelp()} }

// listKeys is the help of suggest's list.
type listKeys struct{ k KeyMap }

func (l listKeys) ShortHelp() []key.Binding {
	choose := l.k.Choose
	choose.SetHelp("enter", "run it: before/after")
	return []key.Binding{choose, l.k.Up, l.k.Down, l.k.Cancel}
}
func (l listKeys) FullHelp() [][]key.Binding { return [][]key.Binding{l.ShortHelp()} }

var (
	_ help.KeyMap = KeyMap{}
	_ help.KeyMap = menuKeys{}
	_ help.KeyMap = inputKeys{}
	_ help.KeyMap = compareKeys{}
	_ help.KeyMap = listKeys{}
)
