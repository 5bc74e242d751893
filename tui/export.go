package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// exportedMsg says where X wrote the cycle, or why it could not.
type exportedMsg struct {
	seq   int
	where string
	err   error
}

// exportCycle writes the cycle selected to share (Options.Export), off the
// update loop; the status bar says where.
func (m *Model) exportCycle() tea.Cmd {
	i := m.list.Selected()
	if m.focus == focusCycle {
		i = m.view.Index()
	}
	export := m.opts.Export
	switch {
	case export == nil:
		m.say("this session cannot write files")
		return nil
	case i < 0 || i >= len(m.cycles) || m.header == nil:
		m.say("no cycle to write")
		return nil
	case m.cycles[i] == nil:
		m.say("cycle %d is still being read; press X again once it shows", m.list.Entry(i).Seq)
		return nil
	}
	h, c := *m.header, m.cycles[i]
	return func() tea.Msg {
		where, err := export(h, c)
		return exportedMsg{seq: c.Seq, where: where, err: err}
	}
}

// exported tells where the cycle went.
func (m *Model) exported(msg exportedMsg) {
	if msg.err != nil {
		m.problem(fmt.Sprintf("writing cycle %d: %v", msg.seq, msg.err))
		return
	}
	m.say("cycle %d written: %s", msg.seq, msg.where)
}
