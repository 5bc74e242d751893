package recorder

import (
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPodStatesFollowTheQueue(t *testing.T) {
	at := func(ms int) time.Time {
		return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
	}
	pod := func(name string) PodRef { return PodRef{Namespace: "default", Name: name} }
	failed := func(seq int, name string, ms int) *Cycle {
		return &Cycle{Seq: seq, Pod: pod(name), Start: at(ms), Outcome: Outcome{Result: ResultUnschedulable, Reason: "Unschedulable", Message: "no nodes available to schedule pods"}}
	}
	bound := func(seq int, name, node string) *Cycle {
		return &Cycle{Seq: seq, Pod: pod(name), Start: at(seq), Outcome: Outcome{Result: ResultBound, Node: node}}
	}
	preempting := func(seq int, name, node string, victims ...PodRef) *Cycle {
		return &Cycle{Seq: seq, Pod: pod(name), Start: at(seq), Outcome: Outcome{Result: ResultUnschedulable, NominatedNode: node},
			PostFilter: &PostFilterPhase{NominatedNode: node, Victims: victims}}
	}
	// A retry that (as older recordings have it) lists a victim again.
	retry := func(seq int, name string, victims ...PodRef) *Cycle {
		c := bound(seq, name, "n1")
		c.PostFilter = &PostFilterPhase{Victims: victims}
		return c
	}
	backoff := &QueueEvent{Seq: 2, Time: at(110), Pod: pod("a"), Op: QueueMove, To: QueueBackoff, Event: "ScheduleAttemptFailure", Attempts: 1, BackoffUntil: at(1000)}
	tests := []struct {
		name   string
		cycles []*Cycle
		never  []PodState
		queue  []*QueueEvent
		want   []string // "name state attempts"
	}{
		{"backoff after the last cycle", []*Cycle{failed(1, "a", 100)}, nil, []*QueueEvent{backoff}, []string{"a Backoff 1"}},
		{"a move before the last cycle is history", []*Cycle{failed(1, "a", 100), failed(3, "a", 2000)}, nil, []*QueueEvent{backoff}, []string{"a Unschedulable 0"}},
		{"no queue events (version 1)", []*Cycle{failed(1, "a", 100)}, nil, nil, []string{"a Unschedulable 0"}},
		{"queued, never tried", nil, []PodState{{Pod: pod("b"), State: PodNotAttempted}},
			[]*QueueEvent{{Seq: 1, Time: at(5), Pod: pod("b"), Op: QueueAdd, To: QueueActive}}, []string{"b Active 0"}},
		{"gated stays gated", nil, []PodState{{Pod: pod("g"), State: PodGated}},
			[]*QueueEvent{{Seq: 1, Time: at(5), Pod: pod("g"), Op: QueueAdd, To: QueueUnschedulable, Gated: true}}, []string{"g Gated 0"}},
		{"arrived bound", nil, []PodState{{Pod: pod("run"), State: PodPreBound, Node: "n1"}}, nil, []string{"run PreBound 0"}},
		{"deleted after its cycle", []*Cycle{bound(1, "d", "n1")}, []PodState{{Pod: pod("d"), State: PodDeleted}}, nil, []string{"d Deleted 0"}},
		{"deleted before any cycle", nil, []PodState{{Pod: pod("d"), State: PodDeleted}}, nil, []string{"d Deleted 0"}},
		{"a victim, pre-bound or bound, is Preempted by the cycle that nominated", []*Cycle{bound(1, "low", "n1"), preempting(2, "high", "n1", pod("low"), pod("run")), retry(3, "high", pod("low"))},
			[]PodState{{Pod: pod("run"), State: PodPreBound, Node: "n1"}}, nil, []string{"low Preempted 0", "high Bound 0", "run Preempted 0"}},
		{"only the queue knows it", nil, nil, []*QueueEvent{
			{Seq: 1, Time: at(5), Pod: pod("c"), Op: QueueAdd, To: QueueActive},
			{Seq: 2, Time: at(6), Pod: pod("gone"), Op: QueueAdd, To: QueueActive},
			{Seq: 3, Time: at(7), Pod: pod("gone"), Op: QueueDelete, From: QueueActive},
		}, []string{"c Active 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, st := range PodStates(tt.cycles, tt.never, tt.queue) {
				got = append(got, st.Pod.Name+" "+st.State+" "+strconv.Itoa(st.Attempts))
				if e := st.EvictedBy; st.State == PodPreempted && (e == nil || e.Seq != 2 || e.Preemptor.Key() != "default/high" || e.Node != "n1" || st.Message != "") {
					t.Errorf("%s: evicted by %+v, message %q; want cycle 2 of default/high on n1", st.Pod.Name, e, st.Message)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("states (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGroupPodStates: a member a pod-group cycle never reached has no
// cycle, yet ends Unschedulable with the message the group's cycle sent it
// back with (as kube-scheduler writes its PodScheduled condition); a
// member whose own cycle came after that group cycle keeps its cycle's
// message, and one whose cycle came before takes the group's.
func TestGroupPodStates(t *testing.T) {
	at := func(ms int) time.Time {
		return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
	}
	pod := func(name string) PodRef { return PodRef{Namespace: "default", Name: name} }
	failed := func(seq int, name string, ms int) *Cycle {
		return &Cycle{Seq: seq, Pod: pod(name), Start: at(ms), Outcome: Outcome{Result: ResultUnschedulable, Reason: ReasonUnschedulable, Message: "0/2 nodes are available: 2 Insufficient cpu."}}
	}
	const sent = "minCount (2) cannot be satisfied: 0 scheduled, 1 remaining"
	group := func(ms int, reached, unreached string, cycle int) *PodGroupCycle {
		return &PodGroupCycle{Start: at(ms), Group: PodGroupRef{Namespace: "default", Name: "hi"}, Members: []GroupMember{
			{Pod: pod(reached), Cycle: cycle, Final: "0/2 nodes are available: 2 Insufficient cpu."},
			{Pod: pod(unreached), Final: sent},
		}}
	}
	cycles := []*Cycle{failed(1, "hi-0", 10), failed(2, "late", 30), failed(3, "early", 5)}
	groups := []*PodGroupCycle{group(9, "hi-0", "hi-1", 1), group(20, "x", "late", 0), group(20, "y", "early", 0)}
	never := []PodState{{Pod: pod("hi-1"), State: PodNotAttempted}}
	got := map[string]string{}
	for _, st := range GroupPodStates(cycles, groups, never, nil) {
		got[st.Pod.Name] = st.State + " " + st.Reason + ": " + st.Message
	}
	want := map[string]string{
		"hi-0":  "Unschedulable Unschedulable: 0/2 nodes are available: 2 Insufficient cpu.",
		"hi-1":  "Unschedulable Unschedulable: " + sent,
		"late":  "Unschedulable Unschedulable: 0/2 nodes are available: 2 Insufficient cpu.",
		"early": "Unschedulable Unschedulable: " + sent,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	// Without the group cycles, the unreached member is NotAttempted.
	for _, st := range PodStates(cycles, never, nil) {
		if st.Pod.Name == "hi-1" && st.State != PodNotAttempted {
			t.Errorf("PodStates without groups: hi-1 %s, want %s", st.State, PodNotAttempted)
		}
	}
}
