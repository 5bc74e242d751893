package narrate

import (
	"fmt"
	"strings"
	"time"

	"github.com/schedscope/schedscope/recorder"
)

// PodMessage is the message that says where a pod stands: its PodScheduled
// message when it has one, or else what schedscope knows of it, e.g.
// "arrived bound to node-2 (spec.nodeName); the scheduler only counts it on
// its node".
func PodMessage(st recorder.PodState) string {
	if st.Message != "" {
		return st.Message
	}
	switch st.State {
	case recorder.PodPreBound:
		return "arrived bound to " + st.Node + " (spec.nodeName); the scheduler only counts it on its node"
	case recorder.PodDeleted:
		if st.Source == "" {
			return "deleted during the run"
		}
		return "deleted by the fixture's timeline (" + st.Source + ")"
	case recorder.PodPreempted:
		if e := st.EvictedBy; e != nil {
			return fmt.Sprintf("evicted by preemption in cycle %d, to make room for %s on %s", e.Seq, e.Preemptor.Key(), e.Node)
		}
	case recorder.PodNoProfile:
		return fmt.Sprintf("no profile serves schedulerName %q", st.SchedulerName)
	case recorder.PodGated:
		if w := st.WaitingFor; w != nil && w.Composite {
			return fmt.Sprintf("waiting for composite pod group %s's tree to meet quorum: %d of minGroupCount %d groups have their members", w.Group.Key(), w.Members, w.MinCount)
		}
		if w := st.WaitingFor; w != nil {
			return fmt.Sprintf("waiting for pod group %s: %d of minCount %d members exist", w.Group.Key(), w.Members, w.MinCount)
		}
	}
	return ""
}

// PodHint says in plain words what would let a pod that never got a cycle
// be scheduled, or "" when there is nothing to say: "held by scheduling gate
// example.com/quota (the SchedulingGates PreEnqueue plugin); remove the gate
// to let the scheduler try it".
func PodHint(st recorder.PodState) string {
	switch st.State {
	case recorder.PodGated:
		if w := st.WaitingFor; w != nil && w.Composite {
			return fmt.Sprintf("held by GangScheduling's PreEnqueue until minGroupCount groups under %s have their members (kube-scheduler sets no condition and no event for it); create the missing members of %d more group(s) or lower its minGroupCount", w.Group.Key(), int(w.MinCount)-w.Members)
		}
		if w := st.WaitingFor; w != nil {
			return fmt.Sprintf("held by GangScheduling's PreEnqueue until minCount members of %s exist (kube-scheduler sets no condition and no event for it); create the %d missing member(s) or lower its minCount", w.Group.Key(), int(w.MinCount)-w.Members)
		}
		if len(st.Gates) == 0 {
			return "held back by a PreEnqueue plugin (scheduling gates, or a plugin such as DynamicResources waiting for what the pod needs); remove what holds it to let the scheduler try it"
		}
		word := "gate"
		if len(st.Gates) > 1 {
			word = "gates"
		}
		return fmt.Sprintf("held by scheduling %s %s (the SchedulingGates PreEnqueue plugin); remove the %s to let the scheduler try it", word, strings.Join(st.Gates, ", "), word)
	case recorder.PodNoProfile:
		return "another scheduler must place it; this one has the profile(s) " + strings.Join(st.Profiles, ", ")
	}
	return ""
}

// NeverAttempted says in plain words why a pod in state got no cycle.
func NeverAttempted(state string) string {
	switch state {
	case recorder.PodGated:
		return "scheduling gates hold it out of the queue (PreEnqueue)"
	case recorder.PodNoProfile:
		return "no profile of this scheduler serves its schedulerName"
	case recorder.PodActive:
		return "not yet: it waits in activeQ for its first cycle"
	case recorder.PodPreBound:
		return "it arrived bound to its node (spec.nodeName), so it never enters the queue"
	case recorder.PodPreempted:
		// A victim with no cycle of its own was running when the run began.
		return "it arrived bound to its node (spec.nodeName) and ran there until a preemption evicted it"
	case recorder.PodDeleted:
		return "it was deleted before the scheduler took it"
	case recorder.PodUnschedulable:
		// Only a pod group's member unreached by its group's cycle.
		return "its pod group's cycle ended before reaching it (PlacementFeasible found minCount out of reach), and the scheduler sent it back with the group's message"
	}
	return "the scheduler took no cycle for it"
}

// Unused words a kind of object a fixture run leaves unused, on one line:
// where its first object is, which, how many more, and why.
func Unused(u recorder.Unused) string {
	more := ""
	if u.Count > 1 {
		more = fmt.Sprintf(" and %d more", u.Count-1)
	}
	var why string
	switch u.Reason {
	case recorder.UnusedNoController:
		why = "none of its pods is scheduled: schedscope runs no " + u.Kind + " controller to make them; list its pods as Pods, or snapshot a cluster that runs it"
	default:
		why = "not read by the scheduler, admission or any controller a run has; ignored"
	}
	return fmt.Sprintf("%s: %s %s%s: %s", u.Source, u.Kind, u.Name, more, why)
}

// PodStory tells a pod's story, one line a step: each of its cycles (of
// cycles, which may hold other pods' too) and queue events in time order,
// each with its time; a pod with neither says why it had no cycle.
func PodStory(p recorder.PodState, cycles []*recorder.Cycle) []string {
	var mine []*recorder.Cycle
	for _, c := range cycles {
		if c.Pod.Key() == p.Pod.Key() {
			mine = append(mine, c)
		}
	}
	if len(mine)+len(p.Queue) == 0 {
		// A pod with no cycle and no queue event (one that arrived bound,
		// one no profile serves): say why, rather than nothing.
		out := []string{"no scheduling cycle: " + NeverAttempted(p.State)}
		if p.State == recorder.PodPreBound {
			out = append(out, fmt.Sprintf("the scheduler counts it on %s: its requests are taken from what the node has free for every pod after it", p.Node))
		}
		return out
	}
	starts := make([]time.Time, len(mine))
	for i, c := range mine {
		starts[i] = c.Start
	}
	var out []string
	for _, it := range Story(starts, p.Queue) {
		if ev := it.Event; ev != nil {
			out = append(out, fmt.Sprintf("%s  %s", ev.Time.UTC().Format("15:04:05.000"), QueueEvent(ev)))
			continue
		}
		c := mine[it.Cycle]
		early := ""
		if it.Early {
			early = "; " + EarlyPop
		}
		out = append(out, fmt.Sprintf("%s  cycle %d (attempt %d%s): %s", c.Start.UTC().Format("15:04:05.000"), c.Seq, c.Attempt, early, Outcome(c.Outcome)))
	}
	return out
}
