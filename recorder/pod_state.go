package recorder

import (
	"slices"
	"time"
)

// Pod states: where a pod stands at the end of a run, named as the
// scheduling queue and the PodScheduled condition name them.
const (
	// PodBound: a cycle bound the pod to Node.
	PodBound = "Bound"
	// PodUnschedulable: its last cycle found no node; Message is the
	// PodScheduled message.
	PodUnschedulable = "Unschedulable"
	// PodNominated: its last cycle preempted other pods and nominated Node;
	// the pod waits for them to leave.
	PodNominated = "Nominated"
	// PodError: its last cycle ended in an error.
	PodError = "Error"
	// PodGated: PreEnqueue held it back (scheduling gates); it never got a cycle.
	PodGated = "Gated"
	// PodNoProfile: no profile serves its schedulerName; this scheduler
	// never takes it.
	PodNoProfile = "NoProfile"
	// PodNotAttempted: it got no cycle, for no reason schedscope can name.
	PodNotAttempted = "NotAttempted"
	// PodBackoff: the run ended with the pod in backoffQ, waiting out the
	// backoff its failed attempts earned (BackoffUntil, Attempts); Reason
	// and Message are its last cycle's.
	PodBackoff = "Backoff"
	// PodActive: the run ended with the pod in activeQ, about to be tried
	// (again, if it had cycles).
	PodActive = "Active"
	// PodPreBound: the pod arrived with spec.nodeName set (Node); the
	// scheduler never takes it, it only counts it on its node.
	PodPreBound = "PreBound"
	// PodDeleted: the pod was deleted during the run (a fixture's timeline
	// step); Seqs are the cycles it had before.
	PodDeleted = "Deleted"
	// PodPreempted: a preemption evicted the pod (Node is where it ran);
	// EvictedBy names the cycle and the preemptor.
	PodPreempted = "Preempted"
)

// Placed says whether a pod in this state holds a node, or is gone: none of
// these waits for the scheduler.
func Placed(state string) bool {
	switch state {
	case PodBound, PodPreBound, PodDeleted, PodPreempted:
		return true
	}
	return false
}

// ReasonUnschedulable is the PodScheduled condition's reason for a pod the
// scheduler found no node for.
const ReasonUnschedulable = "Unschedulable"

// GroupWait is a pod group short of members: Members of its MinCount exist.
// With Composite set, Group is the root CompositePodGroup of the member's
// hierarchy, MinCount its minGroupCount and Members its child groups ready
// (each with its own minCount of members, or its subtree ready).
type GroupWait struct {
	Group     PodGroupRef `json:"group"`
	MinCount  int32       `json:"minCount"`
	Members   int         `json:"members"`
	Composite bool        `json:"composite,omitempty"`
}

// PodState is where one pod stands, with the message a user would read in
// kubectl describe and the cycles it got. It is data: recorder/narrate words
// it (narrate.PodMessage, narrate.PodHint).
type PodState struct {
	Pod   PodRef `json:"pod"`
	State string `json:"state"`
	Node  string `json:"node,omitempty"`
	// Reason and Message are the PodScheduled condition's, when it has one
	// (as the API server or the pod's last cycle wrote it).
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	// WaitingFor is the pod group a Gated member waits for: GangScheduling's
	// PreEnqueue holds a gang's members until minCount of them exist.
	WaitingFor *GroupWait `json:"waitingFor,omitempty"`
	// Gates are a Gated pod's scheduling gates.
	Gates []string `json:"gates,omitempty"`
	// SchedulerName is a NoProfile pod's schedulerName, and Profiles the
	// scheduler names the scheduler's profiles serve.
	SchedulerName string   `json:"schedulerName,omitempty"`
	Profiles      []string `json:"profiles,omitempty"`
	// Source is where a fixture's timeline deleted a Deleted pod (file:line).
	Source string `json:"source,omitempty"`
	// EvictedBy is the preemption that evicted a Preempted pod.
	EvictedBy *Eviction `json:"evictedBy,omitempty"`
	// Seqs are the pod's cycles, in order.
	Seqs []int `json:"seqs"`
	// Attempts and BackoffUntil say, for a pod in Backoff, after how many
	// cycles it waits and until when, as the scheduling queue computed it.
	Attempts     int       `json:"attempts,omitempty"`
	BackoffUntil time.Time `json:"backoffUntil,omitzero"`
	// Queue is what the scheduling queue did with the pod, in order.
	Queue []QueueEvent `json:"queue,omitempty"`
}

// PodStates gives every pod that had a cycle its state from its last cycle,
// in order of first cycle, followed by the pods that never had one, then
// the pods only the queue events name. A pod the queue holds after its last
// cycle is in Backoff or Active (its PodScheduled reason and message stay
// its last cycle's, as the API server keeps them); queue, the scheduling
// queue's events in order, may be nil (a version 1 recording).
func PodStates(cycles []*Cycle, never []PodState, queue []*QueueEvent) []PodState {
	var b PodStateBuilder
	for _, c := range cycles {
		b.Add(c)
	}
	return b.States(never, queue)
}

// GroupPodStates is PodStates that also reads the run's pod-group cycles
// (any order): a member a group cycle took and never reached
// (PlacementFeasible gave up before it) got no cycle of its own, yet the
// scheduler sent it back with the group's message, which its PodScheduled
// condition holds (reason Unschedulable), as a member that had a cycle
// before such a group cycle ends with that message.
func GroupPodStates(cycles []*Cycle, groups []*PodGroupCycle, never []PodState, queue []*QueueEvent) []PodState {
	var b PodStateBuilder
	for _, c := range cycles {
		b.Add(c)
	}
	for _, g := range groups {
		b.AddGroup(g)
	}
	return b.States(never, queue)
}

// sentBack is the message a pod-group cycle sent an unreached member back
// with, and when that cycle started.
type sentBack struct {
	message string
	start   time.Time
}

// AddGroup takes one pod-group cycle, in any order: see GroupPodStates.
func (b *PodStateBuilder) AddGroup(g *PodGroupCycle) {
	if g == nil {
		return
	}
	for _, m := range g.Members {
		if m.Cycle != 0 || m.Final == "" {
			continue
		}
		if b.unreached == nil {
			b.unreached = map[string]sentBack{}
		}
		k := m.Pod.Key()
		if old, ok := b.unreached[k]; !ok || g.Start.After(old.start) {
			b.unreached[k] = sentBack{m.Final, g.Start}
		}
	}
}

// PodStateBuilder gathers what PodStates needs from cycles given one at a
// time, keeping only a summary of each pod's last cycle: a replay printing
// a large recording cycle by cycle gives the pods' states without holding
// the cycles.
type PodStateBuilder struct {
	byPod   map[string]*PodState
	order   []string
	last    map[string]*Cycle // a summary: Seq, Start, Outcome
	evicted map[string]Eviction
	// unreached are the members pod-group cycles sent back unreached.
	unreached map[string]sentBack
}

// Add takes one cycle, in any order.
func (b *PodStateBuilder) Add(c *Cycle) {
	if c == nil {
		return
	}
	if b.byPod == nil {
		b.byPod, b.last, b.evicted = map[string]*PodState{}, map[string]*Cycle{}, map[string]Eviction{}
	}
	k := c.Pod.Key()
	st := b.byPod[k]
	if st == nil {
		st = &PodState{Pod: PodRef{Namespace: c.Pod.Namespace, Name: c.Pod.Name, UID: c.Pod.UID, Priority: c.Pod.Priority, Owner: c.Pod.Owner}}
		b.byPod[k] = st
		b.order = append(b.order, k)
	}
	st.Seqs = append(st.Seqs, c.Seq)
	if l := b.last[k]; l == nil || c.Seq >= l.Seq {
		b.last[k] = &Cycle{Seq: c.Seq, Start: c.Start, Outcome: c.Outcome}
	}
	addEvictions(b.evicted, c)
}

// States gives the pods' states (see PodStates) from the cycles added so far.
func (b *PodStateBuilder) States(never []PodState, queue []*QueueEvent) []PodState {
	events := map[string][]QueueEvent{}
	var evOrder []string
	for _, ev := range queue {
		if ev.PodGroup != nil {
			continue // a pod group's own move, not a pod's
		}
		k := ev.Pod.Key()
		if _, ok := events[k]; !ok {
			evOrder = append(evOrder, k)
		}
		events[k] = append(events[k], *ev)
	}
	// A pod deleted during the run ends Deleted, whatever its cycles said.
	deleted := map[string]PodState{}
	for _, n := range never {
		if n.State == PodDeleted {
			deleted[n.Pod.Key()] = n
		}
	}
	out := make([]PodState, 0, len(b.order)+len(never))
	for _, k := range b.order {
		st, c := *b.byPod[k], b.last[k]
		st.Seqs = slices.Clone(st.Seqs)
		slices.Sort(st.Seqs)
		switch o := c.Outcome; {
		case o.Result == ResultBound:
			st.State, st.Node = PodBound, o.Node
		case o.NominatedNode != "":
			st.State, st.Node, st.Reason, st.Message = PodNominated, o.NominatedNode, o.Reason, o.Message
		case o.Result == ResultError:
			st.State, st.Reason, st.Message = PodError, o.Reason, o.Message
		default:
			st.State, st.Reason, st.Message = PodUnschedulable, o.Reason, o.Message
		}
		st.FollowQueue(events[k], c.Start)
		if d, ok := deleted[k]; ok {
			st.Deleted(d)
		}
		out = append(out, st)
	}
	seen := map[string]bool{}
	for _, n := range never {
		k := n.Pod.Key()
		if _, ok := b.byPod[k]; ok {
			continue
		}
		seen[k] = true
		n.Seqs = []int{}
		if n.State == PodNotAttempted {
			n.FollowQueue(events[k], time.Time{})
		} else {
			n.Queue = events[k]
		}
		out = append(out, n)
	}
	for _, k := range evOrder {
		if _, ok := b.byPod[k]; ok || seen[k] {
			continue
		}
		evs := events[k]
		ev := lastEvent(evs)
		st := PodState{Pod: ev.Pod, Seqs: []int{}, Queue: evs}
		st.Pod.Node = ""
		switch {
		case ev.Op == QueueDelete:
			continue // gone before any cycle
		case ev.Gated:
			st.State = PodGated
		default:
			st.State = PodNotAttempted
			st.FollowQueue(evs, time.Time{})
		}
		out = append(out, st)
	}
	for i := range out {
		k := out[i].Pod.Key()
		if e, ok := b.evicted[k]; ok {
			out[i].Evicted(e)
		}
		var last time.Time
		if c := b.last[k]; c != nil {
			last = c.Start
		}
		b.SentBack(&out[i], last)
	}
	return out
}

// SentBack gives st, a pod whose last cycle started at lastCycle (zero for
// none), the message a pod-group cycle added later (AddGroup) sent it back
// with unreached, if one did: a pod without a newer state of its own ends
// Unschedulable with it (see GroupPodStates).
func (b *PodStateBuilder) SentBack(st *PodState, lastCycle time.Time) {
	sb, ok := b.unreached[st.Pod.Key()]
	if !ok || !lastCycle.IsZero() && !sb.start.After(lastCycle) {
		return
	}
	switch st.State {
	case PodNotAttempted, PodUnschedulable:
		st.State, st.Reason, st.Message = PodUnschedulable, ReasonUnschedulable, sb.message
	case PodBackoff, PodActive:
		st.Reason, st.Message = ReasonUnschedulable, sb.message
	}
}

// Eviction is a preemption that evicted a pod: the cycle that nominated,
// its pod and the node.
type Eviction struct {
	Seq       int    `json:"seq"`
	Preemptor PodRef `json:"preemptor"`
	Node      string `json:"node"`
}

// Evictions maps every pod a cycle's preemption evicted (namespace/name) to
// the cycle that nominated a node for its preemptor (a recording may also
// list a victim on the retry that followed).
func Evictions(cycles []*Cycle) map[string]Eviction {
	evicted := map[string]Eviction{}
	for _, c := range cycles {
		addEvictions(evicted, c)
	}
	return evicted
}

func addEvictions(evicted map[string]Eviction, c *Cycle) {
	if c == nil || c.PostFilter == nil {
		return
	}
	for _, v := range c.PostFilter.Victims {
		if e, ok := evicted[v.Key()]; !ok || e.Node == "" || c.Seq < e.Seq && c.PostFilter.NominatedNode != "" {
			evicted[v.Key()] = Eviction{c.Seq, c.Pod, c.PostFilter.NominatedNode}
		}
	}
}

// Evicted makes st a pod that e evicted.
func (st *PodState) Evicted(e Eviction) {
	if st.Node == "" {
		st.Node = e.Node
	}
	st.State, st.Reason, st.Message = PodPreempted, "", ""
	st.EvictedBy = &e
	st.BackoffUntil, st.Attempts = time.Time{}, 0
}

// Deleted makes st, a pod that had cycles, one a timeline deleted (d, as
// NeverAttempted words it).
func (st *PodState) Deleted(d PodState) {
	st.State, st.Reason, st.Message, st.Source = PodDeleted, "", "", d.Source
	st.BackoffUntil, st.Attempts = time.Time{}, 0
}

// QueueOf is the queue a pod's events leave it in ("" once it left the
// queue, or before any event).
func QueueOf(evs []QueueEvent) string {
	ev := lastEvent(evs)
	if ev == nil || ev.Op == QueueDelete {
		return ""
	}
	return ev.To
}

func lastEvent(evs []QueueEvent) *QueueEvent {
	if len(evs) == 0 {
		return nil
	}
	return &evs[len(evs)-1]
}

// FollowQueue gives the pod its queue events and, when the last one came
// after its last cycle (started at lastCycle; zero for none) and left it
// in backoffQ or activeQ, the state Backoff or Active.
func (st *PodState) FollowQueue(evs []QueueEvent, lastCycle time.Time) {
	st.Queue = evs
	ev := lastEvent(evs)
	if ev == nil || ev.Time.Before(lastCycle) || ev.Op == QueueDelete || ev.Op == QueueSkip {
		return
	}
	switch ev.To {
	case QueueBackoff:
		st.State, st.Attempts, st.BackoffUntil = PodBackoff, ev.Attempts, ev.BackoffUntil
	case QueueActive:
		st.State = PodActive
	}
}
