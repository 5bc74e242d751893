package commands

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
)

// live --no-tui prints a line each time a pod's state changes: queued,
// tried, woken into backoffQ, bound; an event that leaves the words as
// they were prints nothing.
func TestLiveHeadlessPrintsPodStateChanges(t *testing.T) {
	_, _, out, _ := genericiooptions.NewTestIOStreams()
	l := newLivePrinter(out, "text")
	at := func(ms int) time.Time {
		return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
	}
	web := recorder.PodRef{Namespace: "default", Name: "web"}
	failed := &recorder.Cycle{Seq: 1, Pod: web, Attempt: 1, Start: at(100),
		Outcome: recorder.Outcome{Result: recorder.ResultUnschedulable, Reason: "Unschedulable", Message: "0/1 nodes are available: 1 Insufficient cpu."}}
	bound := &recorder.Cycle{Seq: 2, Pod: web, Attempt: 2, Start: at(2000), Outcome: recorder.Outcome{Result: recorder.ResultBound, Node: "node-1"}}
	l.queue(&recorder.QueueEvent{Seq: 1, Time: at(0), Pod: web, Op: recorder.QueueAdd, To: recorder.QueueActive, Event: "UnscheduledPodAdd"})
	l.queue(&recorder.QueueEvent{Seq: 2, Time: at(150), Pod: web, Op: recorder.QueueMove, To: recorder.QueueUnschedulable, Event: "ScheduleAttemptFailure", Attempts: 1})
	l.cycle(failed)
	l.queue(&recorder.QueueEvent{Seq: 3, Time: at(900), Pod: web, Op: recorder.QueueSkip, From: recorder.QueueUnschedulable, To: recorder.QueueUnschedulable, Event: "NodeUpdate",
		Hints: []recorder.QueueHint{{Plugin: "NodeResourcesFit", Event: "NodeUpdate", Hint: recorder.HintQueueSkip}}})
	l.queue(&recorder.QueueEvent{Seq: 4, Time: at(1000), Pod: web, Op: recorder.QueueMove, From: recorder.QueueUnschedulable, To: recorder.QueueBackoff, Event: "NodeAdd",
		Hints: []recorder.QueueHint{{Plugin: "NodeResourcesFit", Event: "NodeAdd", Hint: recorder.HintQueue}}, Attempts: 1, Backoff: recorder.Duration(time.Second), BackoffUntil: at(1150)})
	l.cycle(bound)
	l.queue(&recorder.QueueEvent{Seq: 5, Time: at(2100), Pod: web, Op: recorder.QueueDelete, From: recorder.QueueBackoff, Event: "AssignedPodAdd"})

	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if strings.HasPrefix(line, "pod ") {
			got = append(got, line)
		}
	}
	want := []string{
		"pod default/web: Active [added → Active]",
		"pod default/web: Unschedulable: 0/1 nodes are available: 1 Insufficient cpu. [ScheduleAttemptFailure → Unschedulable]",
		"pod default/web: Backoff until 00:00:01.150 (after 1 attempt(s)): 0/1 nodes are available: 1 Insufficient cpu. [NodeAdd → NodeResourcesFit said Queue → Backoff until 00:00:01.150 (1s, after 1 attempt)]",
		"pod default/web: Bound on node-1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("state lines (-want +got):\n%s\nall output:\n%s", diff, out.String())
	}
}
