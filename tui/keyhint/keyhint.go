// Package keyhint renders key bindings as the one-line hints views draw
// under their bodies ("o sort · e explain"), so that no view writes a key's
// name out by hand: bubbles/help generates the line from the bindings.
package keyhint

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/tui/theme"
)

// Line renders bindings as the one-line hint a view draws under its body
// ("o sort · e explain"). bubbles/help generates it from the bindings, so a
// disabled key is left out and a rebound key shows its new name.
func Line(st *theme.Styles, bs ...key.Binding) string {
	h := help.New()
	h.ShortSeparator = " · "
	h.Styles.ShortKey, h.Styles.ShortDesc, h.Styles.ShortSeparator = st.Dim, st.Dim, st.Dim
	return h.ShortHelpView(bs)
}

// Brief is b described in fewer words, for a hint line where room is short;
// its keys, key name and enabled state stay b's.
func Brief(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// Pair joins two bindings that go opposite ways into one hint ("←/→
// phases"): it holds both's keys, is named by the first name of each, and is
// enabled when either is.
func Pair(a, b key.Binding, desc string) key.Binding {
	first := func(k key.Binding) string {
		name, _, _ := strings.Cut(k.Help().Key, "/")
		return name
	}
	p := key.NewBinding(
		key.WithKeys(append(slices.Clone(a.Keys()), b.Keys()...)...),
		key.WithHelp(first(a)+"/"+first(b), desc),
	)
	p.SetEnabled(a.Enabled() || b.Enabled())
	return p
}
