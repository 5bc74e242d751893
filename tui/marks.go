package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
)

// Marks: m marks the cycle selected with a note, kept beside the recording
// by the session's MarkStore; marked rows show ★, the cycle's header its
// note, and :marked lists them with their notes.

// MarkStore keeps the marks of a recording (cmd writes them to its sidecar,
// recorder.Marks).
type MarkStore interface {
	// Marks are the marks read when the session began.
	Marks() []recorder.Mark
	// Set marks cycle seq of pod with note (an empty note unmarks it) and
	// keeps it; where, in words, is said on success.
	Set(seq int, pod, note string) (where string, err error)
	// Err says why the recording's marks could not be read (none are
	// shown then, and Set refuses), or nil.
	Err() error
}

// startMark opens the note prompt for the cycle selected.
func (m *Model) startMark() tea.Cmd {
	i := m.list.Selected()
	if m.focus == focusCycle {
		i = m.view.Index()
	}
	switch {
	case m.opts.Marks == nil:
		m.say("marks are kept beside a recording: mark cycles in replay FILE (sim --record FILE or record -o FILE writes one)")
		return nil
	case i < 0 || i >= len(m.list.Entries()):
		m.say("no cycle to mark")
		return nil
	case m.list.Tags()[i] != "":
		m.say("a what-if is not in the recording: mark the cycle it changes")
		return nil
	}
	m.marking = m.list.Entry(i)
	note, _ := m.list.Mark(m.marking.Seq)
	return m.openPrompt(promptMark, note)
}

// saveMark keeps the note typed for the cycle being marked.
func (m *Model) saveMark(note string) {
	note = strings.Join(strings.Fields(printable(note)), " ")
	e := m.marking
	where, err := m.opts.Marks.Set(e.Seq, e.Pod.Key(), note)
	if err != nil {
		m.problem(fmt.Sprintf("marking cycle %d: %v", e.Seq, err))
		return
	}
	m.list.SetMark(e.Seq, note)
	m.syncView() // the cycle's header says its note
	if note == "" {
		m.say("cycle %d unmarked (%s)", e.Seq, where)
		return
	}
	m.say("cycle %d marked (%s); :marked lists the marked cycles", e.Seq, where)
}

// markEntry shows the mark read for a cycle as it is listed, when the
// mark names the cycle's pod; a mark that names another pod is a
// problem, not shown.
func (m *Model) markEntry(e recorder.CycleEntry) {
	if m.opts.Marks == nil {
		return
	}
	for _, k := range m.opts.Marks.Marks() {
		if k.Seq != e.Seq {
			continue
		}
		if k.Pod != e.Pod.Key() {
			m.problem(fmt.Sprintf("the mark of cycle %d names pod %s, but the cycle schedules %s: not shown", e.Seq, k.Pod, e.Pod.Key()))
			return
		}
		m.list.SetMark(e.Seq, k.Note)
		return
	}
}
