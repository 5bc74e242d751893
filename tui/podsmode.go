package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/components/cyclelist"
	"github.com/schedscope/schedscope/tui/components/helpscreen"
	"github.com/schedscope/schedscope/tui/components/pods"
)

// podsMode is the root's part of the Pods view: whether it is shown, and
// whether the cycle view was opened from a story (esc goes back to it).
type podsMode struct {
	shown bool
	// fromStory says the cycle view shows a cycle opened from a pod's story.
	fromStory bool
}

// openPods shows the Pods view over the panes, on the session's pods as
// they stand now.
func (m *Model) openPods() {
	m.pods.SetSize(m.w, m.bodyHeight())
	m.refreshPods()
	m.podsMode.shown = true
}

// refreshPods recomputes the pods' states while the view is shown.
func (m *Model) refreshPods() {
	m.pods.SetData(m.list.Entries(), m.cycles, m.list.Tags(), m.never, m.neverKnown, m.queue)
	m.pods.SetCluster(m.cluster)
}

// handlePodsKey routes a key while the Pods view is shown: the global keys
// that make sense there, then the view's own.
func (m Model) handlePodsKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.Keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.openHelp()
		return m, nil
	case key.Matches(msg, k.Command):
		return m, m.openPrompt(promptCommand, "")
	case key.Matches(msg, k.Problems):
		m.openProblems()
		return m, nil
	case key.Matches(msg, m.pods.Keys.Filter):
		return m, m.openPrompt(promptPodFilter, m.pods.Filter())
	case key.Matches(msg, m.pods.Keys.Back):
		if !m.pods.Back() {
			m.podsMode.shown = false
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.pods, cmd = m.pods.Update(msg)
	return m, cmd
}

// openFromStory opens cycle index i of a pod's story in the cycle view; esc
// from the cycle comes back to the story.
func (m *Model) openFromStory(i int) {
	m.podsMode = podsMode{fromStory: true}
	m.open(i)
}

// backToStory shows the Pods view again after a cycle opened from a story,
// and reports whether there was one to go back to.
func (m *Model) backToStory() bool {
	if !m.podsMode.fromStory {
		return false
	}
	m.podsMode = podsMode{shown: true}
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
