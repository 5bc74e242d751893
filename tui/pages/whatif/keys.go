package whatif

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/tui/components/diffview"
	"github.com/schedscope/schedscope/tui/components/whatifscreen"
)

// KeyMap holds the keys of the what-if mode: the keys both what-ifs share
// (Open and Suggest work on the selected or open cycle; Evict, Weight,
// Disable; the screens' moving, Choose and Cancel), and its own.
type KeyMap struct {
	whatifscreen.KeyMap
	// YAML works on the selected or open cycle.
	YAML key.Binding

	// The menu's own actions.
	EditPod  key.Binding
	EditNode key.Binding
	Diff     key.Binding

	// The screens' own keys.
	Before key.Binding
	Retry  key.Binding
}

// DefaultKeyMap returns the what-if keys.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		KeyMap:   whatifscreen.DefaultKeyMap(),
		YAML:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "the pod's or node's YAML, as the scheduler saw it")),
		EditPod:  key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit the pod in $EDITOR")),
		EditNode: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "edit the node in $EDITOR")),
		Diff:     key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "diff with the original")),
		Before:   key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "open the original")),
		Retry:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit again")),
	}
	k.Top.SetHelp("g", "first")
	k.Bottom.SetHelp("G", "last")
	return k
}

// setAvailable enables the keys that open the mode only when there is
// something to fork.
func (k *KeyMap) setAvailable(ok bool) {
	k.Open.SetEnabled(ok)
	k.Suggest.SetEnabled(ok)
	k.YAML.SetEnabled(ok)
}

// ShortHelp implements help.KeyMap: the keys that open the mode, shown in a
// cycle's key bar.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Open, k.Suggest} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Open, k.Suggest, k.YAML},
		{k.EditPod, k.EditNode, k.Evict, k.Weight, k.Disable, k.Diff},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Choose, k.Before, k.Retry, k.Cancel},
	}
}

// diffKeys is the help of the diff screen: the what-if keys that leave it,
// and the diff view's own.
type diffKeys struct {
	k    KeyMap
	diff diffview.KeyMap
}

func (d diffKeys) ShortHelp() []key.Binding {
	k := d.k
	choose := k.Choose
	choose.SetHelp("enter", "open the what-if")
	return []key.Binding{choose, k.Before, d.diff.Words, k.Open, d.diff.Up, d.diff.Down, k.Cancel}
}
func (d diffKeys) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

// errorKeys is the help under a failed edit.
type errorKeys struct{ k KeyMap }

func (e errorKeys) ShortHelp() []key.Binding {
	cancel := e.k.Cancel
	cancel.SetHelp("esc", "cancel")
	return []key.Binding{e.k.Retry, cancel}
}
func (e errorKeys) FullHelp() [][]key.Binding { return [][]key.Binding{e.ShortHelp()} }

// cancelOnly is a key map of the back key alone.
func (e errorKeys) cancelOnly() help.KeyMap { return backOnly{e.k.Cancel} }

type backOnly struct{ b key.Binding }

func (b backOnly) ShortHelp() []key.Binding  { return []key.Binding{b.b} }
func (b backOnly) FullHelp() [][]key.Binding { return [][]key.Binding{{b.b}} }

// yamlKeys is the help of the YAML view.
type yamlKeys struct{ k KeyMap }

func (y yamlKeys) ShortHelp() []key.Binding {
	return []key.Binding{y.k.Up, y.k.Down, y.k.PageDown, y.k.Cancel}
}
func (y yamlKeys) FullHelp() [][]key.Binding { return [][]key.Binding{y.ShortHelp()} }
