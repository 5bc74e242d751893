package tui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/components/cyclelist"
	"github.com/schedscope/schedscope/tui/components/helpscreen"
	"github.com/schedscope/schedscope/tui/components/pods"
)

// openPods shows the Pods view over the panes, on the session's pods as
// they stand now.
func (m *Model) openPods() {
	l := reopen(m, podsLayer{p: pods.New(m.st)})
	m.fromStory = false
	m.push(l)
	m.refreshPods()
}

// refreshPods recomputes the pods' states while the view is shown.
func (m *Model) refreshPods() {
	change(m, func(l *podsLayer) {
		l.p.SetData(m.list.Entries(), m.cycles, m.list.Tags(), m.never, m.neverKnown, m.queue, m.grp.cycles)
		l.p.SetCluster(m.cluster)
	})
}

// podsLayer is the Pods view as a layer: its filter and back keys, then
// the view's own (enter on a story's cycle asks the root to open it). q
// quits from it, as from the panes.
type podsLayer struct{ p pods.Model }

func (l podsLayer) update(m *Model, msg tea.Msg) (layer, bool, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, m.Keys.Quit):
			next, cmd := m.quit()
			*m = next.(Model)
			return l, false, cmd
		case key.Matches(k, l.p.Keys.Filter):
			return l, false, m.openPrompt(promptPodFilter, l.p.Filter())
		case key.Matches(k, l.p.Keys.Back):
			return l, !l.p.Back(), nil
		}
	}
	var cmd tea.Cmd
	l.p, cmd = l.p.Update(msg)
	return l, false, cmd
}
func (l podsLayer) view(m *Model) string      { return l.p.View() }
func (l podsLayer) keys(m *Model) help.KeyMap { return podsBarKeys{l.p.Keys, m.Keys} }
func (l podsLayer) crumb(m *Model, c, p string) (string, string) {
	return l.p.Crumb(), l.p.Position()
}
func (l podsLayer) close(m *Model) key.Binding { return l.p.Keys.Back }
func (l podsLayer) resize(w, h int) layer      { l.p.SetSize(w, h); return l }
func (podsLayer) whole() bool                  { return false }

// openFromStory opens cycle index i of a pod's story in the cycle view; esc
// from the cycle comes back to the story.
func (m *Model) openFromStory(i int) {
	if m.showing(podsLayer{}) {
		m.pop()
	}
	m.fromStory = true
	m.open(i)
}

// backToStory shows the Pods view again after a cycle opened from a story,
// and reports whether there was one to go back to.
func (m *Model) backToStory() bool {
	if !m.fromStory {
		return false
	}
	m.fromStory = false
	m.push(reopen(m, podsLayer{p: pods.New(m.st)}))
	m.setFocus(focusList)
	m.list.Select(m.view.Index())
	m.refreshPods()
	return true
}

// podsHelpSection lists the Pods view's own keys on the "?" screen, as
// "key: what" (their keys mean other things elsewhere, which the screen lists
// as keys once each).
func podsHelpSection() helpscreen.Section {
	k := pods.DefaultKeyMap()
	k.Open.SetHelp("enter", "story, then a cycle")
	var parts []string
	for _, b := range []key.Binding{k.Open, k.Sort, k.Filter} {
		parts = append(parts, b.Help().Key+": "+b.Help().Desc)
	}
	return helpscreen.Section{Title: "Pods (" + cyclelist.DefaultKeyMap().Pods.Help().Key + ")", Note: strings.Join(parts, " · ")}
}

// podsBarKeys are the keys the help line shows under the Pods view.
type podsBarKeys struct {
	p pods.KeyMap
	g KeyMap
}

// ShortHelp implements help.KeyMap.
func (b podsBarKeys) ShortHelp() []key.Binding {
	return append([]key.Binding{b.g.Help, b.g.Quit}, b.p.ShortHelp()...)
}

// FullHelp implements help.KeyMap.
func (b podsBarKeys) FullHelp() [][]key.Binding {
	return append(b.p.FullHelp(), []key.Binding{b.g.Help, b.g.Command, b.g.Problems, b.g.Quit})
}
