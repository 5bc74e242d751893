package tui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
)

// maxOpenCycles bounds how many whole cycles a replay read through an index
// keeps decoded: a 5 000-node cycle with every node rejected takes about a
// megabyte. The list itself keeps only entries.
const maxOpenCycles = 32

// openCycles remembers which cycles a replay keeps decoded, least recently
// used first. A live session, whose cycles cannot be read again, keeps them
// all and does not use it.
type openCycles struct {
	recent []int // indices into the model's cycles
}

// use marks cycle index i as just used and returns the index of a cycle to
// let go, or -1.
func (o *openCycles) use(i int) int {
	if k := slices.Index(o.recent, i); k >= 0 {
		o.recent = append(o.recent[:k], o.recent[k+1:]...)
	}
	o.recent = append(o.recent, i)
	if len(o.recent) <= maxOpenCycles {
		return -1
	}
	evict := o.recent[0]
	o.recent = o.recent[1:]
	return evict
}

// cycleOpenedMsg brings a cycle read by openCycle.
type cycleOpenedMsg struct {
	index int
	cycle *recorder.Cycle
	err   error
}

// openCycle reads the cycle of entry index i in a Cmd.
func openCycle(r source.Recording, i int, e recorder.CycleEntry) tea.Cmd {
	return func() tea.Msg {
		c, err := r.Open(e)
		return cycleOpenedMsg{index: i, cycle: c, err: err}
	}
}

// usageReadMsg brings the node use as of entry index i.
type usageReadMsg struct {
	index int
	usage *recorder.Usage
	err   error
}

// readUsage rebuilds the node use as of the last of entries in a Cmd. The
// use is read from the recording, not from the cycles the sanitizer
// cleaned: its names are made printable here, with a sanitizer of its own
// (the model's is not the Cmd's to use).
func readUsage(r source.Recording, entries []recorder.CycleEntry) tea.Cmd {
	i := len(entries) - 1
	return func() tea.Msg {
		u, err := r.Usage(entries)
		if err != nil {
			err = fmt.Errorf("reading node use up to cycle %d: %w", entries[i].Seq, err)
		}
		return usageReadMsg{index: i, usage: newSanitizer().usage(u), err: err}
	}
}

// resultUnreadable is the outcome the list shows for a cycle whose record
// could not be read when it was opened (the index had read only its
// summary).
const resultUnreadable = "Unreadable"
