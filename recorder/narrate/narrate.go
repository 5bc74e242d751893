// Package narrate words recorder types for people: the one place where a
// cycle's outcome, a duration, a plugin's short name and the diff of two
// cycles are put into English, for explain's text, the TUI's panels and the
// what-if commands alike. recorder/ stays plain data.
package narrate

import (
	"fmt"
	"strings"
	"time"

	"github.com/schedscope/schedscope/recorder"
)

// Duration spells a recorded duration compactly (812ns, 96µs, 2.4ms,
// 1.25s), the same way in every view of a recording.
func Duration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0s"
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	default:
		return d.Round(10 * time.Millisecond).String()
	}
}

// Abbrev shortens a plugin name to its capitals (NodeResourcesFit → NRF) for
// a matrix column or a legend; a name with fewer than two capitals keeps its
// first three letters (zone → zon).
func Abbrev(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		}
	}
	if b.Len() < 2 {
		if r := []rune(name); len(r) > 3 {
			return string(r[:3])
		}
		return name
	}
	return b.String()
}

// Outcome says how a cycle ended, in one line: "bound to node-3",
// "Unschedulable: 0/3 nodes are available: …", "Unschedulable; preemption
// nominated node-2", "Error: …".
func Outcome(o recorder.Outcome) string {
	return outcome(o.Result, o.Node, o.NominatedNode, o.Message)
}

func outcome(result, node, nominated, message string) string {
	switch {
	case result == recorder.ResultBound:
		return "bound to " + node
	case nominated != "":
		return fmt.Sprintf("%s; preemption nominated %s (the pod will retry there)", result, nominated)
	case message != "":
		return result + ": " + message
	}
	return result
}

// Nominated says which nominated pods a node's filters counted as if they
// were running there, e.g. "counting default/urgent (priority 1000),
// nominated here by an earlier preemption": why a node with room to spare
// can reject a lower-priority pod. It is "" when none was counted.
func Nominated(pods []recorder.PodRef) string {
	if len(pods) == 0 {
		return ""
	}
	names := make([]string, len(pods))
	for i, p := range pods {
		names[i] = fmt.Sprintf("%s (priority %d)", p.Key(), p.Priority)
	}
	verb := "nominated here by an earlier preemption"
	if len(pods) > 1 {
		verb = "all nominated here by earlier preemptions"
	}
	return "counting " + strings.Join(names, ", ") + ", " + verb
}

// Count says how many of a thing there are: "1 node set", "2 node sets".
func Count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
