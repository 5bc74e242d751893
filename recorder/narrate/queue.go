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
		if e.Gated {
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
