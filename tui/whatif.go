package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/layout"
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
// what it started) to it, does what it asks, and shows its screen on the
// stack when it opened one.
func (m *Model) toWhatIf(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.wi, cmd = m.wi.Update(msg)
	m.takeOut()
	return cmd
}

// takeOut does what the what-if page asked of the session: a message, a
// re-run listed beside the cycle it changed, a cycle opened (then the
// menu on it).
func (m *Model) takeOut() {
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
	if c := out.Open; c != nil {
		if i := slices.Index(m.cycles, c); i >= 0 {
			m.open(i)
		}
		if out.ThenMenu {
			m.wi = m.wi.Menu(m.here())
		}
	}
	m.stackWhatIf()
}

// stackWhatIf keeps the what-if layer on the stack while a screen of the
// page is shown, and off it when none is.
func (m *Model) stackWhatIf() {
	i := slices.IndexFunc(m.layers, func(l layer) bool { return sameKind(l, whatifLayer{}) })
	switch {
	case m.wi.Active() && i < 0:
		m.push(whatifLayer{})
	case !m.wi.Active() && i >= 0:
		m.layers = slices.Delete(slices.Clone(m.layers), i, i+1)
	}
}

// whatifLayer shows the what-if page's screen: the diff, suggest's list,
// the evict picker and the YAML fill the body; the menu, the prompts and
// an edit's error are drawn over the bottom of the panes. It takes every
// key, as the page's prompts must (":" and "?" are text there).
type whatifLayer struct{}

func (whatifLayer) update(m *Model, msg tea.Msg) (layer, bool, tea.Cmd) {
	var cmd tea.Cmd
	m.wi, cmd = m.wi.Update(msg)
	m.takeOut()
	return whatifLayer{}, false, cmd
}
func (whatifLayer) view(m *Model) string {
	if m.wi.FullScreen() {
		return m.wi.View()
	}
	body := layout.Box(m.panes(max(m.bodyHeight()-m.lessonRows, 1)), m.w, m.bodyHeight())
	return strings.Join(m.wi.Overlay(body), "\n")
}
func (whatifLayer) keys(m *Model) help.KeyMap { return m.wi.HelpKeys() }
func (whatifLayer) crumb(m *Model, c, p string) (string, string) {
	return c + " › " + m.wi.Crumb(), p
}
func (whatifLayer) close(m *Model) key.Binding { return key.NewBinding() }
func (l whatifLayer) resize(w, h int) layer    { return l }
func (whatifLayer) whole() bool                { return true }
