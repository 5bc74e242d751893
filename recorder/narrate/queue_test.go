package narrate

import (
	"testing"
	"time"

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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := QueueEvent(&tt.ev); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
