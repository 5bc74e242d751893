package narrate

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/schedscope/schedscope/recorder"
)

func TestQueueEventString(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name string
		ev   recorder.QueueEvent
		want string
	}{
		{"woken", recorder.QueueEvent{Op: recorder.QueueMove, From: recorder.QueueUnschedulable, To: recorder.QueueBackoff, Event: "NodeAdd", Hints: []recorder.QueueHint{{Plugin: "NodeResourcesFit", Event: "NodeAdd", Hint: recorder.HintQueue}},
			Attempts: 2, Backoff: recorder.Duration(2 * time.Second), BackoffUntil: at}, "NodeAdd → NodeResourcesFit said Queue → Backoff until 03:04:05.000 (2s, after 2 attempts)"},
		{"flush", recorder.QueueEvent{Op: recorder.QueueMove, From: recorder.QueueBackoff, To: recorder.QueueActive, Event: "BackoffComplete", Flush: recorder.FlushBackoffCompleted}, "BackoffComplete (flushBackoffQCompleted) → Active"},
		{"skip", recorder.QueueEvent{Op: recorder.QueueSkip, To: recorder.QueueUnschedulable, Event: "AssignedPodDelete", Hints: []recorder.QueueHint{{Plugin: "NodeAffinity", Event: "AssignedPodDelete", Hint: recorder.HintQueueSkip}}}, "AssignedPodDelete → NodeAffinity said QueueSkip → stayed Unschedulable"},
		{"bound", recorder.QueueEvent{Op: recorder.QueueDelete, Event: "AssignedPodAdd"}, "left the queue, assigned to a node"},
		{"added", recorder.QueueEvent{Op: recorder.QueueAdd, To: recorder.QueueActive, Event: "UnscheduledPodAdd"}, "added → Active"},
		{"gated", recorder.QueueEvent{Op: recorder.QueueAdd, To: recorder.QueueUnschedulable, Event: "UnscheduledPodAdd", Gated: true}, "added → Unschedulable (gated)"},
		{"gated by a plugin", recorder.QueueEvent{Op: recorder.QueueAdd, To: recorder.QueueUnschedulable, Event: "UnscheduledPodAdd", Gated: true, GatedBy: "SchedulingGates"}, "added → Unschedulable (gated by SchedulingGates)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := QueueEvent(&tt.ev); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestStory(t *testing.T) {
	at := func(ms int) time.Time {
		return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
	}
	events := []recorder.QueueEvent{
		{Time: at(0), Op: recorder.QueueAdd, To: recorder.QueueActive},
		{Time: at(20), Op: recorder.QueueMove, To: recorder.QueueUnschedulable},
		{Time: at(30), Op: recorder.QueueMove, To: recorder.QueueBackoff, BackoffUntil: at(1000)},
		{Time: at(50), Op: recorder.QueueDelete},
	}
	got := Story([]time.Time{at(10), at(40)}, events)
	want := []StoryItem{{Event: &events[0]}, {Cycle: 0}, {Event: &events[1]}, {Event: &events[2]}, {Cycle: 1, Early: true}, {Event: &events[3]}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("story (-want +got):\n%s", diff)
	}
	// A cycle after the backoff ended is not early.
	got = Story([]time.Time{at(10), at(1500)}, events)
	if last := got[len(got)-1]; last.Event != nil || last.Cycle != 1 || last.Early {
		t.Errorf("a cycle after its backoff (and after every event): %+v", last)
	}
}
