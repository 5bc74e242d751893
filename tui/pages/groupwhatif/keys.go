package groupwhatif

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/tui/components/whatifscreen"
)

// KeyMap holds the keys of a pod group's what-if: the keys both what-ifs
// share (the two that open it from the pod-group page, the pod what-if's w
// and S; x, W and p in the menu; the screens' moving, Choose and Cancel),
// worded for a group, and the menu's own actions.
type KeyMap struct {
	whatifscreen.KeyMap

	// The menu's own actions.
	MinCount key.Binding
	Requests key.Binding
	CopyNode key.Binding
	Flags    key.Binding
}

// DefaultKeyMap returns the keys.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		KeyMap:   whatifscreen.DefaultKeyMap(),
		MinCount: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "set the gang's minCount")),
		Requests: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "change a member's requests")),
		CopyNode: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "add a copy of a node")),
		Flags:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "any change, as whatif's flags")),
	}
	k.Open.SetHelp("w", "group what-if")
	k.Suggest.SetHelp("S", "suggest for the group")
	k.Evict.SetHelp("x", "evict a placed pod")
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

// compareKeys is the help of the before/after screen.
type compareKeys struct{ k KeyMap }

func (c compareKeys) ShortHelp() []key.Binding {
	more := c.k.Open
	more.SetHelp("w", "change more")
	return []key.Binding{more, c.k.Up, c.k.Down, c.k.PageDown, c.k.Cancel}
}
func (c compareKeys) FullHelp() [][]key.Binding { return [][]key.Binding{c.ShortHelp()} }

var (
	_ help.KeyMap = KeyMap{}
	_ help.KeyMap = compareKeys{}
)
