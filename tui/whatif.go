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
func (m *Model) showWhatIf(s whatif.Screen) {
	if s == nil {
		return
	}
	m.layers = slices.DeleteFunc(slices.Clone(m.layers), func(l layer) bool { return sameKind(l, whatifLayer{}) })
	m.push(whatifLayer{s.SetSize(m.w, m.bodyHeight())})
}

// whatifLayer shows a what-if screen (pages/whatif): the diff, suggest's
// list, the evict picker and the YAML fill the body; the menu, the prompts
// and an edit's error are drawn over the bottom of the panes. It takes
// every key, as the page's prompts must (":" and "?" are text there).
// What the screen asks of the session goes to the page's Model (Do).
type whatifLayer struct{ s whatif.Screen }

func (l whatifLayer) update(m *Model, msg tea.Msg) (layer, bool, tea.Cmd) {
	next, ask, cmd := l.s.Update(msg)
	var did tea.Cmd
	m.wi, did = m.wi.Do(ask)
	if s := m.takeOut(); s != nil {
		next = s.SetSize(m.w, m.bodyHeight())
	}
	return whatifLayer{next}, next == nil, tea.Batch(cmd, did)
}
func (l whatifLayer) view(m *Model) string {
	if !l.s.Over() {
		return l.s.View()
	}
	body := layout.Box(m.panes(max(m.bodyHeight()-m.lessonRows, 1)), m.w, m.bodyHeight())
	panel := layout.SplitLines(l.s.View())
	if len(panel) >= len(body) {
		panel = panel[len(panel)-len(body):]
	}
	return strings.Join(append(body[:len(body)-len(panel)], panel...), "\n")
}
func (l whatifLayer) keys(m *Model) help.KeyMap { return l.s.Keys() }
func (l whatifLayer) crumb(m *Model, c, p string) (string, string) {
	return c + " › " + l.s.Crumb(), p
}
func (whatifLayer) close(m *Model) key.Binding { return key.NewBinding() }
func (l whatifLayer) resize(w, h int) layer    { return whatifLayer{l.s.SetSize(w, h)} }
func (whatifLayer) whole() bool                { return true }
