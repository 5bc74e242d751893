package tui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/components/problems"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// reads returns the Cmds that read the cycle the view waits for and the node
// use an open node detail waits for, one of each at a time.
func (m *Model) reads() tea.Cmd {
	r := m.opts.Recording
	if r == nil {
		return nil
	}
	var cmds []tea.Cmd
	if i := m.want; i >= 0 && m.reading < 0 && m.cycles[i] == nil && m.unreadable[i] == "" {
		m.reading = i
		cmds = append(cmds, openCycle(r, i, m.list.Entry(i)))
	}
	if m.view.WaitsForUsage() && m.usageFor < 0 {
		i := m.view.Index()
		m.usageFor = i
		// A copy: the list may still change an entry (recount).
		cmds = append(cmds, readUsage(r, slices.Clone(m.list.Entries()[:i+1])))
	}
	return tea.Batch(cmds...)
}

// opened takes a cycle read for the view.
func (m *Model) opened(msg cycleOpenedMsg) {
	m.reading = -1
	i := msg.index
	if i < 0 || i >= len(m.cycles) {
		return
	}
	if msg.cycle == nil {
		reason := "it is not in the recording"
		if msg.err != nil {
			reason = msg.err.Error()
		}
		m.unreadable[i] = reason
		m.problem(fmt.Sprintf("cycle %d could not be read: %s", m.list.Entry(i).Seq, reason))
		m.recount(i, resultUnreadable)
		if m.want == i {
			m.view.Await(i, m.pendingText(i))
		}
		return
	}
	// A missing node set comes with the cycle; the index reported it.
	m.cycles[i] = m.printable.event(source.Event{Cycle: msg.cycle}).Cycle
	if evict := m.window.use(i); evict >= 0 {
		m.cycles[evict] = nil
	}
	if m.want == i {
		m.present(i, m.wantOpen)
	}
}

// recount lists cycle index i with result r instead of the one its entry
// had: a cycle that could not be read is not counted as bound.
func (m *Model) recount(i int, r string) {
	for _, c := range []struct {
		result string
		n      int
	}{{m.list.Entry(i).Result, -1}, {r, 1}} {
		switch c.result {
		case recorder.ResultBound:
			m.counts.bound += c.n
		case recorder.ResultUnschedulable:
			m.counts.unschedulable += c.n
		default:
			m.counts.errors += c.n
		}
	}
	m.list.SetResult(i, r)
}

// pendingText is what the cycle view says while cycle index i is not there.
func (m *Model) pendingText(i int) string {
	seq := m.list.Entry(i).Seq
	if reason := m.unreadable[i]; reason != "" {
		return fmt.Sprintf("cycle %d could not be read: %s", seq, reason)
	}
	return fmt.Sprintf("reading cycle %d…", seq)
}

// apply takes one event from the source.
func (m *Model) apply(ev source.Event) {
	switch {
	case ev.Header != nil:
		m.header = ev.Header
		m.list.SetWaiting("")
		m.view.SetHeader(ev.Header)
	case ev.Cycle != nil:
		m.cycles = append(m.cycles, ev.Cycle)
		m.addEntry(recorder.EntryOf(ev.Cycle))
		if m.phaseStep {
			// The cycle . let run: shown from its first phase.
			m.phaseStep = false
			m.open(len(m.cycles) - 1)
			m.view.SetPhase(cyclepage.Queue)
		}
	case ev.Entries != nil:
		for _, e := range m.printable.entries(ev.Entries) {
			m.cycles = append(m.cycles, nil)
			m.addEntry(e)
		}
	case ev.Progress != nil:
		p := *ev.Progress
		m.progress = &p
	case ev.Queue != nil:
		m.queue = append(m.queue, ev.Queue)
		k := ev.Queue.Pod.Key()
		m.queueOf[k] = append(m.queueOf[k], ev.Queue)
	case ev.PodGroup != nil:
		m.addPodGroup(ev.PodGroup)
	case ev.Observed != nil:
		m.observed.add(ev.Observed)
		if ev.Observed.Seq != 0 {
			m.list.Observe(ev.Observed)
		}
	case ev.State != nil:
		s := *ev.State
		m.state = &s
	case ev.NeverAttempted != nil:
		m.never, m.neverKnown = ev.NeverAttempted, true
	case ev.Cluster != nil:
		m.cluster = ev.Cluster
	case ev.Problem != nil:
		m.problem(ev.Problem.Error())
	case ev.Done:
		m.finish()
		if ev.Err != nil {
			m.problem(ev.Err.Error())
			m.list.SetWaiting("stopped on an error (! shows it)")
		} else {
			m.list.SetWaiting("no cycle: nothing was scheduled")
		}
	}
}

// addEntry lists a cycle and counts its outcome.
func (m *Model) addEntry(e recorder.CycleEntry) {
	m.counts.total++
	switch e.Result {
	case recorder.ResultBound:
		m.counts.bound++
	case recorder.ResultUnschedulable:
		m.counts.unschedulable++
	default:
		m.counts.errors++
	}
	m.markEntry(e)
	m.list.Append(e)
	if o := m.observed.of(e.Seq); o != nil {
		m.list.Observe(o)
	}
}

// problem logs a problem the source reported and shows it in the status bar.
func (m *Model) problem(text string) {
	text = printable(text) // errors quote what they read
	m.notes = append(m.notes, problems.Note{Kind: problems.Problem, Text: text})
	m.nProblems++
	m.message = problems.Note{Kind: problems.Problem, Text: text}
	m.refreshProblems()
}

// refreshProblems shows the notes so far in the problems view, if it is
// open: a problem that arrives while it is open is listed at once (the
// status bar counted it while the view still said nothing went wrong).
func (m *Model) refreshProblems() {
	change(m, func(l *problemsLayer) { l.p.SetNotes(m.notes) })
}

// say answers the user in the status bar, and logs the answer for the
// problems view, where it shows whole.
func (m *Model) say(format string, a ...any) {
	text := fmt.Sprintf(format, a...)
	m.notes = append(m.notes, problems.Note{Kind: problems.Message, Text: text})
	m.message = problems.Note{Kind: problems.Message, Text: text}
	m.refreshProblems()
}

// finish marks the source as ended: the engine controls have nothing left to
// control.
func (m *Model) finish() {
	m.done = true
	m.Keys.setLive(false)
	// . still walks the phases of the last cycle it let run.
	m.Keys.StepPhase.SetEnabled(m.opts.Control != nil)
}

// stepPhase is the . key: on the newest cycle, the next phase it ran;
// past its last one (or from anywhere else), one more cycle is let run,
// then shown from its first phase. The engine runs a cycle whole (a
// scheduling cycle held half-way would hold the cluster's other work); the
// recording has every phase, so the view steps through them afterwards.
func (m *Model) stepPhase() tea.Cmd {
	newest := len(m.cycles) - 1
	if m.focus == focusCycle && newest >= 0 && m.view.Index() == newest && m.view.Cycle() != nil {
		if m.view.NextRanPhase() {
			m.say(". steps on")
			return nil
		}
	}
	if m.done {
		m.phaseStep = false
		m.say("the run has finished; nothing to step")
		return nil
	}
	if m.phaseStep {
		m.say("waiting for the cycle . let run")
		return nil
	}
	m.phaseStep = true
	if m.state == nil || m.state.State != source.StatePaused {
		m.say("pausing after one cycle · . steps its phases")
	}
	return control(m.opts.Control.Step)
}
