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
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/pages/podgroup"
)

// groupState is what the root keeps of the session's pod-group cycles
// (source.Event.PodGroup), and the members' cycles the pod-group page
// shows.
type groupState struct {
	cycles []*recorder.PodGroupCycle
	// members are the members' own cycles the page shows, by number: those
	// the session held when it opened, and those a replay read for it
	// since (readMembers), at most maxOpenCycles.
	members map[int]*recorder.Cycle
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
func (m *Model) openGroupOfShown() tea.Cmd {
	seq := m.shownSeq()
	g := recorder.GroupOf(m.grp.cycles, seq)
	if g == nil {
		if len(m.grp.cycles) == 0 {
			m.say("this session has no pod-group cycle (pod groups need --feature-gates=GenericWorkload=true)")
		} else {
			m.say("cycle %d was not a pod group member's cycle; :group NAME opens a group", seq)
		}
		return nil
	}
	return m.showGroup(g, seq)
}

// openGroup opens the pod-group page on the last pod-group cycle of the
// group name names (namespace/name or name); with no name, on the group
// of the cycle shown.
func (m *Model) openGroup(name string) tea.Cmd {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "pg/"), "podgroup/")
	if name == "" {
		return m.openGroupOfShown()
	}
	var last *recorder.PodGroupCycle
	var names []string
	for _, g := range m.grp.cycles {
		if g.Group.Name == name || g.Group.Key() == name || g.HoldsPodGroup(name) {
			last = g
		}
		if !slices.Contains(names, g.Group.Key()) {
			names = append(names, g.Group.Key())
		}
	}
	switch {
	case last != nil:
		return m.showGroup(last, 0)
	case len(names) == 0:
		m.say("no pod-group cycle in this session (pod groups need --feature-gates=GenericWorkload=true, and a gang waits until minCount members exist)")
	default:
		m.say("no pod-group cycle of %q%s; the groups are %s", name, input.DidYouMean(name, names), strings.Join(names, ", "))
	}
	return nil
}

// showGroup shows pod-group cycle g among its group's cycles, the member
// whose cycle is seq selected; in a replay, it reads the members' cycles
// the session does not hold.
func (m *Model) showGroup(g *recorder.PodGroupCycle, seq int) tea.Cmd {
	var same []*recorder.PodGroupCycle
	at := 0
	members := map[int]*recorder.Cycle{}
	var unread []recorder.CycleEntry
	for _, x := range m.grp.cycles {
		if x.Group != g.Group {
			continue
		}
		if x == g {
			at = len(same)
		}
		same = append(same, x)
		for _, mem := range x.Members {
			if c := m.memberCycle(mem.Cycle); c != nil {
				members[mem.Cycle] = c
			} else if i, ok := m.list.IndexOf(mem.Cycle); ok && mem.Cycle != 0 && len(members)+len(unread) < maxOpenCycles {
				unread = append(unread, m.list.Entry(i))
			}
		}
	}
	m.grp.members = members
	l := podGroupLayer{p: podgroup.New(m.st)}
	l.p.Show(same, at, func(seq int) *recorder.Cycle { return members[seq] })
	l.p.SetSize(m.w, m.bodyHeight())
	l.p.Select(seq)
	m.push(l)
	return readMembers(m.opts.Recording, unread)
}

// groupMembersMsg brings the members' cycles readMembers read.
type groupMembersMsg struct {
	cycles []*recorder.Cycle
	err    error
}

// readMembers reads a replay's cycles of entries in a Cmd, for the
// pod-group page's members × nodes; nil when there is nothing to read.
func readMembers(r source.Recording, entries []recorder.CycleEntry) tea.Cmd {
	if r == nil || len(entries) == 0 {
		return nil
	}
	return func() tea.Msg {
		var msg groupMembersMsg
		for _, e := range entries {
			c, err := r.Open(e)
			if c != nil {
				msg.cycles = append(msg.cycles, c)
			}
			if err != nil && msg.err == nil {
				msg.err = err
			}
		}
		return msg
	}
}

// membersRead gives the page the members' cycles a replay read for it.
func (m *Model) membersRead(msg groupMembersMsg) {
	if msg.err != nil {
		m.problem(msg.err.Error())
	}
	if m.grp.members == nil {
		return
	}
	for _, c := range msg.cycles {
		c = m.printable.event(source.Event{Cycle: c}).Cycle
		m.grp.members[c.Seq] = c
	}
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
type podGroupLayer struct{ p podgroup.Model }

func (l podGroupLayer) update(m *Model, msg tea.Msg) (layer, bool, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if ok && key.Matches(k, l.p.Keys.Close) {
		return l, true, nil
	}
	if ok && key.Matches(k, l.p.Keys.Open) {
		seq, reached := l.p.Selected()
		i, listed := m.list.IndexOf(seq)
		if !reached || !listed {
			m.say("the group's cycle never reached this member: it has no cycle of its own")
			return l, false, nil
		}
		m.open(i)
		return l, true, nil
	}
	if ok && m.gwi.Opens(k) {
		// The group's what-if (w) or suggest (S), over what the page
		// shows; its screens go on the stack over the page.
		var cmd tea.Cmd
		m.gwi, cmd = m.gwi.Start(k, m.groupHere(l.p))
		m.showGroupWhatIf(m.takeGroupOut())
		return l, false, cmd
	}
	l.p, _ = l.p.Update(msg)
	return l, false, nil
}
func (l podGroupLayer) view(m *Model) string { return l.p.View() }
func (l podGroupLayer) keys(m *Model) help.KeyMap {
	return groupPageKeys{page: l.p.Keys, wi: m.gwi.BarKeys(l.p.Cycle())}
}
func (l podGroupLayer) crumb(m *Model, c, p string) (string, string) {
	return l.p.Crumb(), l.p.Position()
}
func (l podGroupLayer) close(m *Model) key.Binding { return l.p.Keys.Close }
func (l podGroupLayer) resize(w, h int) layer      { l.p.SetSize(w, h); return l }
func (podGroupLayer) whole() bool                  { return false }
