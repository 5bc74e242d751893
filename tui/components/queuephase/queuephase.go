// Package queuephase is the view of the Queue phase: the pod leaving the scheduling queue, the attempt,
// the profile, the node snapshot, the outcome, how the queue moved the pod
// since its attempt before, and the time each phase took.
package queuephase

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/pluginstatus"
	"github.com/schedscope/schedscope/tui/components/textphase"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the view's keys: it scrolls.
type KeyMap = textphase.KeyMap

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap { return textphase.DefaultKeyMap() }

// Model is the view: a pager over the cycle's start.
type Model = textphase.Model

// New returns a view with no cycle.
func New(st *theme.Styles) Model { return textphase.New(st, With(nil)) }

// With words a cycle with moves, the queue's events of its pod since its
// attempt before (Moves), under the outcome.
func With(moves []*recorder.QueueEvent) textphase.Render {
	return func(st *theme.Styles, c *recorder.Cycle, w int) []string { return lines(st, c, moves, w) }
}

// Moves picks, from queue events in order (a run's, or its pod's), those of
// c's pod that led to c: made after its attempt before (the events say how
// many attempts the pod had had) and not after c began.
func Moves(queue []*recorder.QueueEvent, c *recorder.Cycle) []*recorder.QueueEvent {
	var out []*recorder.QueueEvent
	for _, ev := range queue {
		if ev.Pod.Key() == c.Pod.Key() && ev.Attempts == c.Attempt-1 && !ev.Time.After(c.Start) {
			out = append(out, ev)
		}
	}
	return out
}

// lines renders the pod, the attempt, its queue moves and the cycle's timings.
func lines(st *theme.Styles, c *recorder.Cycle, moves []*recorder.QueueEvent, w int) []string {
	if c == nil {
		return nil
	}
	pod := c.Pod.Key()
	if c.Pod.Priority != 0 {
		pod += fmt.Sprintf(" (priority %d)", c.Pod.Priority)
	}
	lines := []string{
		pluginstatus.Field(st, "pod", st.Bold.Render(pod)),
		pluginstatus.Field(st, "attempt", fmt.Sprintf("%d%s", c.Attempt, map[bool]string{true: " (retried after an earlier failure)", false: " (first try)"}[c.Attempt > 1])),
		pluginstatus.Field(st, "profile", c.Profile),
		pluginstatus.Field(st, "started", c.Start.UTC().Format("2006-01-02 15:04:05.000000 UTC")),
		pluginstatus.Field(st, "took", narrate.Duration(c.Duration)+" from the start of the algorithm to the outcome"),
		pluginstatus.Field(st, "nodes", fmt.Sprintf("%s in the snapshot · search starts at index %d · stops after %d feasible", analysis.SnapshotSize(c), c.SearchStart, c.NodesToFind)),
	}
	if !c.NodeNamesKnown() {
		lines = append(lines, pluginstatus.Field(st, "", st.Problem.Render("node names unknown: the recording lacks this cycle's node set, so nodes show as #index")))
	}
	if fp := c.FastPath; fp != nil {
		res := "passed: chosen without a full search"
		if !fp.Feasible {
			res = "failed: full search follows"
		}
		lines = append(lines, pluginstatus.Field(st, "fast path", fmt.Sprintf("%s %s %s", fp.Kind, fp.Node, res)))
	}
	if c.BatchHint != "" {
		lines = append(lines, pluginstatus.Field(st, "batch hint", c.BatchHint))
	}
	lines = append(lines, pluginstatus.Field(st, "outcome", pluginstatus.Outcome(st, c.Outcome)))
	if len(moves) > 0 {
		head := "how the queue moved it since its attempt before"
		if c.Attempt <= 1 {
			head = "how it came to the queue"
		}
		lines = append(lines, "", "  "+st.Header.Render(head))
		for _, ev := range moves {
			text := "  " + ev.Time.UTC().Format("15:04:05.000") + "  " + narrate.QueueEvent(ev)
			lines = append(lines, layout.Wrap(text, max(w-2, 20), "                ")...)
		}
	}
	if len(c.Timings) > 0 {
		lines = append(lines, "", "  "+st.Header.Render("time per phase"))
		var longest int64
		for _, t := range c.Timings {
			longest = max(longest, int64(t.Duration))
		}
		barW := max(w-2-16-1-10-1, 4)
		for _, t := range c.Timings {
			n := 0
			if longest > 0 {
				n = int(int64(t.Duration) * int64(barW) / longest)
			}
			lines = append(lines, "  "+layout.Fit(t.Phase, 16)+" "+layout.FitLeft(narrate.Duration(t.Duration), 10)+" "+st.Discarded.Render(strings.Repeat("▬", max(n, 1))))
		}
	}
	return lines
}
