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
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("states (-want +got):\n%s", diff)
			}
		})
	}
}
