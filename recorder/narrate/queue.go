package narrate

import (
	"fmt"
	"strings"
	"time"

	"github.com/schedscope/schedscope/recorder"
)

// QueueEvent describes a queue event in one line, as a pod's story tells it:
// "NodeAdd → NodeResourcesFit said Queue → Backoff until 12:00:03.000 (2s,
// after 2 attempts)".
func QueueEvent(e *recorder.QueueEvent) string {
	var b strings.Builder
	switch e.Op {
	case recorder.QueueAdd:
		b.WriteString("added")
	case recorder.QueueUpdate:
		b.WriteString("updated")
	case recorder.QueueDelete:
		if e.Event == "AssignedPodAdd" {
			return "left the queue, assigned to a node"
		}
		b.WriteString("deleted")
		if e.Event != "" {
			b.WriteString(" (" + e.Event + ")")
		}
		return b.String()
	default:
		b.WriteString(e.Event)
		if e.Flush != "" {
			b.WriteString(" (" + e.Flush + ")")
		}
	}
	for _, h := range e.Hints {
		fmt.Fprintf(&b, " → %s said %s", h.Plugin, h.Hint)
		if h.Event != "" && h.Event != e.Event {
			fmt.Fprintf(&b, " to %s", h.Event)
		}
	}
	switch {
	case e.Op == recorder.QueueSkip:
		b.WriteString(" → stayed")
		if e.To != "" {
			b.WriteString(" " + e.To)
		}
	case e.To != "":
		b.WriteString(" → " + e.To)
		switch {
		case e.Gated && e.GatedBy != "":
			b.WriteString(" (gated by " + e.GatedBy + ")")
		case e.Gated:
			b.WriteString(" (gated)")
		}
	}
	if e.To == recorder.QueueBackoff && !e.BackoffUntil.IsZero() {
		fmt.Fprintf(&b, " until %s (%s", e.BackoffUntil.UTC().Format("15:04:05.000"), Duration(time.Duration(e.Backoff)))
		if e.Attempts > 0 {
			fmt.Fprintf(&b, ", after %d attempt%s", e.Attempts, plural(e.Attempts))
		}
		b.WriteString(")")
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// StoryItem is one step of a pod's story: one of its cycles (Cycle, an
// index into the starts Story was given) or, when Event is set, a queue
// event.
type StoryItem struct {
	Cycle int
	Event *recorder.QueueEvent
	// Early marks a cycle that began before the backoff its pod was put in
	// had ended: with activeQ empty, the queue pops from backoffQ at once
	// (kube-scheduler's SchedulerPopFromBackoffQ, on by default).
	Early bool
}

// EarlyPop words StoryItem.Early.
const EarlyPop = "taken from backoffQ before its backoff ended, as activeQ was empty"

// Story orders a pod's cycles, given by their start times in order, and its
// queue events, in order, into its story: each queue event comes before the
// first cycle that started after it.
func Story(starts []time.Time, events []recorder.QueueEvent) []StoryItem {
	items := make([]StoryItem, 0, len(starts)+len(events))
	q := 0
	for i, start := range starts {
		for ; q < len(events) && events[q].Time.Before(start); q++ {
			items = append(items, StoryItem{Event: &events[q]})
		}
		early := false
		if q > 0 {
			prev := &events[q-1]
			early = prev.To == recorder.QueueBackoff && prev.Op != recorder.QueueDelete && start.Before(prev.BackoffUntil)
		}
		items = append(items, StoryItem{Cycle: i, Early: early})
	}
	for ; q < len(events); q++ {
		items = append(items, StoryItem{Event: &events[q]})
	}
	return items
}
