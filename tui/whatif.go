package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/pages/cyclepage"
	"github.com/schedscope/schedscope/tui/pages/whatif"
)

// here is what the what-if page acts on: the cycle shown and, when that
// cycle is open in the cycle view, what is selected there.
func (m *Model) here() whatif.Here {
	h := whatif.Here{Cycle: m.shownCycle()}
	v := &m.view
	if m.focus != focusCycle || h.Cycle == nil || v.Cycle() != h.Cycle {
		return h
	}
	h.Node, h.HasNode = v.Selected()
	if h.HasNode {
		h.Usage = v.NodeUsage()
	}
	switch v.Phase() {
	case cyclepage.Filter:
		h.Plugin, h.Point = v.SelectedPlugin(), "filter"
	case cyclepage.Score, cyclepage.Normalize, cyclepage.Weighted:
		h.Plugin, h.Point = v.SelectedPlugin(), "score"
		if s := h.Cycle.Score; s != nil && v.Column() < len(s.Plugins) {
			h.Weight = s.Plugins[v.Column()].Weight
		}
	}
	return h
}

// toWhatIf hands one of the what-if page's own messages (the result of
// what it started) to it, and does what it asks.
func (m *Model) toWhatIf(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.wi, cmd = m.wi.Update(msg)
	m.showWhatIf(m.takeOut())
	return cmd
}

// takeOut does what the what-if page asked of the session: a message, a
// re-run listed beside the cycle it changed, a cycle opened (then the
// menu on it). It returns the screen to show, nil when none.
func (m *Model) takeOut() whatif.Screen {
	var out whatif.Out
	m.wi, out = m.wi.TakeOut()
	if out.Say != "" {
		m.say("%s", out.Say)
	}
	if a := out.Added; a != nil {
		at := slices.Index(m.cycles, a.Orig)
		m.cycles = append(m.cycles, a.Cycle)
		m.list.AppendAfter(a.Cycle, at, a.Label, a.What)
	}
	show := out.Show
	if c := out.Open; c != nil {
		if i := slices.Index(m.cycles, c); i >= 0 {
			m.open(i)
		}
		if out.ThenMenu {
			show = m.wi.Menu(m.here())
		}
	}
	return show
}

// showWhatIf shows what-if screen s on top of the stack, in place of the
// what-if screen shown, if any; nil shows none.
func (m *Model) showWhatIf(s whatif.Screen) { showScreen[whatif.Ask, whatifPage](m, s) }

// whatifLayer shows a what-if screen (pages/whatif): the diff, suggest's
// list, the evict picker and the YAML fill the body; the menu, the prompts
// and an edit's error are drawn over the bottom of the panes. What the
// screen asks of the session goes to the page's Model (Do).
type whatifLayer = screenLayer[whatif.Ask, whatifPage]

// whatifPage is the root's side of the what-if page.
type whatifPage struct{}

func (whatifPage) do(m *Model, ask whatif.Ask) (whatif.Screen, tea.Cmd) {
	var did tea.Cmd
	m.wi, did = m.wi.Do(ask)
	return m.takeOut(), did
}
func (whatifPage) under(m *Model) []string { return m.panes(max(m.bodyHeight()-m.lessonRows, 1)) }
