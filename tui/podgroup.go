package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/pages/podgroup"
)

// groupState is what the root keeps of the session's pod-group cycles
// (source.Event.PodGroup) and the pod-group page shown over the panes.
type groupState struct {
	cycles []*recorder.PodGroupCycle
	page   *podgroup.Model
}

var (
	_ component[podgroup.Model] = (*podgroup.Model)(nil)
	_ help.KeyMap               = podgroup.KeyMap{}
)

// addPodGroup keeps a finished pod-group cycle and marks its members' rows
// in the cycle list.
func (m *Model) addPodGroup(g *recorder.PodGroupCycle) {
	m.grp.cycles = append(m.grp.cycles, g)
	for _, mem := range g.Members {
		if mem.Cycle != 0 {
			m.list.SetGroup(mem.Cycle, g.Group.Name)
		}
	}
}

// shownSeq is the number of the cycle shown (else the one selected), 0 for
// none or a what-if's re-run.
func (m *Model) shownSeq() int {
	i := m.list.Selected()
	if m.focus == focusCycle {
		i = m.view.Index()
	}
	if i < 0 || i >= len(m.list.Entries()) || m.list.Tags()[i] != "" {
		return 0
	}
	return m.list.Entry(i).Seq
}

// openGroupOfShown opens the pod-group page on the group cycle the cycle
// shown was a member's cycle of.
func (m *Model) openGroupOfShown() {
	seq := m.shownSeq()
	g := recorder.GroupOf(m.grp.cycles, seq)
	if g == nil {
		if len(m.grp.cycles) == 0 {
			m.say("this session has no pod-group cycle (pod groups need --feature-gates=GenericWorkload=true)")
		} else {
			m.say("cycle %d was not a pod group member's cycle; :group NAME opens a group", seq)
		}
		return
	}
	m.showGroup(g, seq)
}

// openGroup opens the pod-group page on the last pod-group cycle of the
// group name names (namespace/name or name); with no name, on the group
// of the cycle shown.
func (m *Model) openGroup(name string) {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "pg/"), "podgroup/")
	if name == "" {
		m.openGroupOfShown()
		return
	}
	var last *recorder.PodGroupCycle
	var names []string
	for _, g := range m.grp.cycles {
		if g.Group.Name == name || g.Group.Key() == name {
			last = g
		}
		if !slices.Contains(names, g.Group.Key()) {
			names = append(names, g.Group.Key())
		}
	}
	switch {
	case last != nil:
		m.showGroup(last, 0)
	case len(names) == 0:
		m.say("no pod-group cycle in this session (pod groups need --feature-gates=GenericWorkload=true, and a gang waits until minCount members exist)")
	default:
		m.say("no pod-group cycle of %q%s; the groups are %s", name, input.DidYouMean(name, names), strings.Join(names, ", "))
	}
}

// showGroup shows pod-group cycle g among its group's cycles, the member
// whose cycle is seq selected.
func (m *Model) showGroup(g *recorder.PodGroupCycle, seq int) {
	var same []*recorder.PodGroupCycle
	at := 0
	for _, x := range m.grp.cycles {
		if x.Group == g.Group {
			if x == g {
				at = len(same)
			}
			same = append(same, x)
		}
	}
	p := podgroup.New(m.st)
	p.SetSize(m.w, m.bodyHeight())
	p.Show(same, at, m.memberCycle)
	p.Select(seq)
	m.grp.page = &p
	m.push(podGroupLayer{})
}

// memberCycle is the cycle numbered seq when the session holds it (a
// replay keeps only the cycles it has read).
func (m *Model) memberCycle(seq int) *recorder.Cycle {
	i, ok := m.list.IndexOf(seq)
	if !ok || i >= len(m.cycles) {
		return nil
	}
	return m.cycles[i]
}

// groupTopic is what the explain panel of cycle seq tells of its pod
// group, "" when it was no member's cycle.
func (m *Model) groupTopic(seq int) string {
	g := recorder.GroupOf(m.grp.cycles, seq)
	if g == nil {
		return ""
	}
	return narrate.GroupTeaching(g, *g.Member(seq))
}

// groupHint is the key that opens the pod group of the cycle shown, in
// the help line while that cycle was a member's.
func (m Model) groupHint() help.KeyMap {
	b := podgroup.OpenKey()
	b.SetEnabled(recorder.GroupOf(m.grp.cycles, m.shownSeq()) != nil)
	return groupHintKeys{b}
}

type groupHintKeys struct{ open key.Binding }

func (k groupHintKeys) ShortHelp() []key.Binding  { return []key.Binding{k.open} }
func (k groupHintKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.open}} }

// podGroupLayer is the pod-group page over the panes.
type podGroupLayer struct{}

func (podGroupLayer) update(m *Model, msg tea.Msg) (bool, tea.Cmd) {
	p := m.grp.page
	k, ok := msg.(tea.KeyPressMsg)
	if ok && key.Matches(k, p.Keys.Close) {
		return true, nil
	}
	if ok && key.Matches(k, p.Keys.Open) {
		seq, reached := p.Selected()
		i, listed := m.list.IndexOf(seq)
		if !reached || !listed {
			m.say("the group's cycle never reached this member: it has no cycle of its own")
			return false, nil
		}
		m.open(i)
		return true, nil
	}
	p.SetSize(m.w, m.bodyHeight())
	*p, _ = p.Update(msg)
	return false, nil
}
func (podGroupLayer) view(m *Model) string {
	p := *m.grp.page
	p.SetSize(m.w, m.bodyHeight())
	return p.View()
}
func (podGroupLayer) keys(m *Model) help.KeyMap { return m.grp.page.Keys }
func (podGroupLayer) crumb(m *Model) (string, string) {
	return m.grp.page.Crumb(), m.grp.page.Position()
}
func (podGroupLayer) close(m *Model) key.Binding { return m.grp.page.Keys.Close }
