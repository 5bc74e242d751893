package tui

import (
	"maps"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/pages/groupwhatif"
	"github.com/schedscope/schedscope/tui/pages/podgroup"
)

// groupHere is what the pod-group page shows, as the group what-if takes
// it: the pod-group cycle, the selected member and its requests as its
// cycle recorded them, the nodes the members saw.
func (m *Model) groupHere(p podgroup.Model) groupwhatif.Here {
	h := groupwhatif.Here{Cycle: p.Cycle(), Nodes: p.Nodes()}
	mem, ok := p.SelectedMember()
	if !ok {
		return h
	}
	h.Member = mem.Pod.Name
	c := m.grp.members[mem.Cycle]
	if c == nil {
		c = m.memberCycle(mem.Cycle)
	}
	if c != nil && mem.Cycle != 0 && len(c.Requests) > 0 {
		var asks []string
		for _, r := range slices.Sorted(maps.Keys(c.Requests)) {
			if r == "pods" || c.Requests[r] == 0 {
				continue
			}
			asks = append(asks, r+"="+narrate.Quantity(r, c.Requests[r]))
		}
		h.Requests = strings.Join(asks, " ")
	}
	return h
}

// toGroupWhatIf hands one of the group what-if's own messages (the result
// of a run it started) to it, and shows what it asks.
func (m *Model) toGroupWhatIf(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.gwi, cmd = m.gwi.Update(msg)
	m.showGroupWhatIf(m.takeGroupOut())
	return cmd
}

// takeGroupOut does what the group what-if asked of the session (a
// message) and returns the screen to show, nil when none.
func (m *Model) takeGroupOut() groupwhatif.Screen {
	var out groupwhatif.Out
	m.gwi, out = m.gwi.TakeOut()
	if out.Say != "" {
		m.say("%s", out.Say)
	}
	return out.Show
}

// showGroupWhatIf shows screen s on top of the stack, in place of the
// group what-if screen shown, if any; nil shows none.
func (m *Model) showGroupWhatIf(s groupwhatif.Screen) {
	if s == nil {
		return
	}
	m.layers = slices.DeleteFunc(slices.Clone(m.layers), func(l layer) bool { return sameKind(l, groupWhatIfLayer{}) })
	m.push(groupWhatIfLayer{s.SetSize(m.w, m.bodyHeight())})
}

// groupWhatIfLayer shows a group what-if screen (pages/groupwhatif) over
// the pod-group page: the before/after and suggest's list fill the body;
// the menu and the prompts are drawn over the bottom of the page. It
// takes every key, as the prompts must.
type groupWhatIfLayer struct{ s groupwhatif.Screen }

func (l groupWhatIfLayer) update(m *Model, msg tea.Msg) (layer, bool, tea.Cmd) {
	next, ask, cmd := l.s.Update(msg)
	var did tea.Cmd
	m.gwi, did = m.gwi.Do(ask)
	if s := m.takeGroupOut(); s != nil {
		next = s.SetSize(m.w, m.bodyHeight())
	}
	return groupWhatIfLayer{next}, next == nil, tea.Batch(cmd, did)
}

// view draws the screen; a panel is drawn over the bottom of the layer
// under it (the pod-group page).
func (l groupWhatIfLayer) view(m *Model) string {
	if !l.s.Over() {
		return l.s.View()
	}
	// What is under it: the pod-group page, else (a run's answer came
	// after the page was left) the panes.
	under := m.panes(max(m.bodyHeight()-m.lessonRows, 1))
	if n := len(m.layers); n >= 2 {
		under = layout.SplitLines(m.layers[n-2].view(m))
	}
	body := layout.Box(under, m.w, m.bodyHeight())
	panel := layout.SplitLines(l.s.View())
	if len(panel) >= len(body) {
		panel = panel[len(panel)-len(body):]
	}
	return strings.Join(append(body[:len(body)-len(panel)], panel...), "\n")
}
func (l groupWhatIfLayer) keys(m *Model) help.KeyMap { return l.s.Keys() }
func (l groupWhatIfLayer) crumb(m *Model, c, p string) (string, string) {
	return c + " › " + l.s.Crumb(), p
}
func (groupWhatIfLayer) close(m *Model) key.Binding { return key.NewBinding() }
func (l groupWhatIfLayer) resize(w, h int) layer    { return groupWhatIfLayer{l.s.SetSize(w, h)} }
func (groupWhatIfLayer) whole() bool                { return true }

// groupPageKeys is the pod-group page's help line: its own keys, then the
// group what-if's (w, S).
type groupPageKeys struct {
	page podgroup.KeyMap
	wi   groupwhatif.KeyMap
}

func (k groupPageKeys) ShortHelp() []key.Binding {
	return append(k.page.ShortHelp()[:3:3], append(k.wi.ShortHelp(), k.page.ShortHelp()[3:]...)...)
}
func (k groupPageKeys) FullHelp() [][]key.Binding {
	return append(k.page.FullHelp(), k.wi.ShortHelp())
}

var _ help.KeyMap = groupPageKeys{}
