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
	showScreen[groupwhatif.Ask, groupWhatIfPage](m, s)
}

// groupWhatIfLayer shows a group what-if screen (pages/groupwhatif) over
// the pod-group page: the before/after and suggest's list fill the body;
// the menu and the prompts are drawn over the bottom of the page.
type groupWhatIfLayer = screenLayer[groupwhatif.Ask, groupWhatIfPage]

// groupWhatIfPage is the root's side of the group what-if.
type groupWhatIfPage struct{}

func (groupWhatIfPage) do(m *Model, ask groupwhatif.Ask) (groupwhatif.Screen, tea.Cmd) {
	var did tea.Cmd
	m.gwi, did = m.gwi.Do(ask)
	return m.takeGroupOut(), did
}

// under is the pod-group page, else (a run's answer came after the page
// was left) the panes.
func (groupWhatIfPage) under(m *Model) []string {
	if n := len(m.layers); n >= 2 {
		return layout.SplitLines(m.layers[n-2].view(m))
	}
	return m.panes(max(m.bodyHeight()-m.lessonRows, 1))
}

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
