package whatif

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/tui/components/pager"

	"github.com/schedscope/schedscope/tui/components/diffview"
)

// KeyMap holds the keys of the what-if mode: the two that open it from
// a cycle, the menu's actions, and the keys of its screens.
type KeyMap struct {
	// Open, Suggest and YAML work on the selected or open cycle.
	Open    key.Binding
	Suggest key.Binding
	YAML    key.Binding

	// The menu's actions.
	EditPod  key.Binding
	EditNode key.Binding
	Evict    key.Binding
	Weight   key.Binding
	Disable  key.Binding
	Diff     key.Binding

	// The screens' keys: moving, then acting.
	pager.KeyMap
	Choose key.Binding
	Before key.Binding
	Retry  key.Binding
	Cancel key.Binding
}

// DefaultKeyMap returns the what-if keys.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		KeyMap:   pager.DefaultKeyMap(),
		Open:     key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "what-if")),
		Suggest:  key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "suggest")),
		YAML:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "the pod's or node's YAML, as the scheduler saw it")),
		EditPod:  key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit the pod in $EDITOR")),
		EditNode: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "edit the node in $EDITOR")),
		Evict:    key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "evict a pod of the node")),
		Weight:   key.NewBinding(key.WithKeys("W"), key.WithHelp("W", "set a score weight")),
		Disable:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "disable a plugin")),
		Diff:     key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "diff with the original")),
		Choose:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Before:   key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "open the original")),
		Retry:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit again")),
		Cancel:   key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "back")),
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

// menuKeys is the help of the what-if menu.
type menuKeys struct{ k KeyMap }

func (m menuKeys) ShortHelp() []key.Binding {
	cancel := m.k.Cancel
	cancel.SetHelp("esc", "close the menu")
	return []key.Binding{cancel}
}
func (m menuKeys) FullHelp() [][]key.Binding { return [][]key.Binding{m.ShortHelp()} }

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

// listKeys is the help of the suggest list and the pod picker.
type listKeys struct {
	k    KeyMap
	what string
}

func (l listKeys) ShortHelp() []key.Binding {
	choose := l.k.Choose
	choose.SetHelp("enter", l.what)
	return []key.Binding{choose, l.k.Up, l.k.Down, l.k.Cancel}
}
func (l listKeys) FullHelp() [][]key.Binding { return [][]key.Binding{l.ShortHelp()} }

// errorKeys is the help under a failed edit.
type errorKeys struct{ k KeyMap }

func (e errorKeys) ShortHelp() []key.Binding {
	cancel := e.k.Cancel
	cancel.SetHelp("esc", "cancel")
	return []key.Binding{e.k.Retry, cancel}
}
func (e errorKeys) FullHelp() [][]key.Binding { return [][]key.Binding{e.ShortHelp()} }

// inputKeys is the help under the weight and plugin prompts.
type inputKeys struct{ k KeyMap }

func (i inputKeys) ShortHelp() []key.Binding {
	run := i.k.Choose
	run.SetHelp("enter", "re-run")
	cancel := i.k.Cancel
	cancel.SetHelp("esc", "cancel")
	return []key.Binding{run, cancel}
}
func (i inputKeys) FullHelp() [][]key.Binding { return [][]key.Binding{i.ShortHelp()} }

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
