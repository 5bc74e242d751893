package engine

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// runQueue schedules data and returns the engine, the queue events and the
// cycles in order.
func runQueue(t *testing.T, name string, data []byte) (*Engine, []*recorder.QueueEvent, []*recorder.Cycle) {
	t.Helper()
	fx, err := fixture.Load(name, data)
	if err != nil {
		t.Fatalf("fixture.Load: %v", err)
	}
	var mu sync.Mutex
	var events []*recorder.QueueEvent
	var cycles []*recorder.Cycle
	opts := Options{
		OnQueue: func(ev *recorder.QueueEvent) { mu.Lock(); events = append(events, ev); mu.Unlock() },
		OnCycle: func(c *recorder.Cycle) { mu.Lock(); cycles = append(cycles, c); mu.Unlock() },
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	e, err := New(ctx, fx, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if _, err := e.Run(ctx); err != nil {
		t.Fatalf("Run: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	return e, events, cycles
}

func lastEventOf(events []*recorder.QueueEvent, key string) *recorder.QueueEvent {
	var last *recorder.QueueEvent
	for _, ev := range events {
		if ev.Pod.Key() == key {
			last = ev
		}
	}
	return last
}

// Pods on a cluster without nodes fail with no plugin to wait for; the run
// ends with them in backoffQ. Each one's recorded backoff is the one the
// queue holds for it, after as many attempts as it had cycles.
func TestPodInBackoffRecorded(t *testing.T) {
	const fixture = `apiVersion: v1
kind: Pod
metadata: {name: lonely-1}
spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: lonely-2}
spec: {containers: [{name: c, image: nginx}]}
`
	e, events, cycles := runQueue(t, "no-nodes.yaml", []byte(fixture))
	for _, name := range []string{"lonely-1", "lonely-2"} {
		t.Run(name, func(t *testing.T) {
			attempts := 0
			for _, c := range cycles {
				if c.Pod.Name == name {
					attempts++
				}
			}
			ev := lastEventOf(events, "default/"+name)
			if ev == nil || ev.To != recorder.QueueBackoff || ev.Event != "ScheduleAttemptFailure" {
				t.Fatalf("last queue event %+v, want the move to backoffQ after a failure", ev)
			}
			pi, ok := e.sched.SchedulingQueue.GetPod(name, "default", nil)
			if !ok || pi.BackoffExpiration.IsZero() {
				t.Fatalf("the queue holds no backoff for it (found %v)", ok)
			}
			if ev.Attempts != attempts || ev.Attempts != pi.Attempts || !ev.BackoffUntil.Equal(pi.BackoffExpiration) ||
				time.Duration(ev.Backoff) != pi.BackoffExpiration.Sub(pi.Timestamp) || ev.Backoff <= 0 {
				t.Errorf("recorded backoff %v until %v after %d attempt(s); the queue: until %v, requeued %v, %d attempt(s), %d cycle(s) recorded",
					time.Duration(ev.Backoff), ev.BackoffUntil, ev.Attempts, pi.BackoffExpiration, pi.Timestamp, pi.Attempts, attempts)
			}
			states := recorder.PodStates(cycles, nil, events)
			for _, st := range states {
				if st.Pod.Name == name && (st.State != recorder.PodBackoff || !st.BackoffUntil.Equal(pi.BackoffExpiration) || st.Attempts != attempts) {
					t.Errorf("state %+v, want Backoff until the queue's expiry", st)
				}
			}
		})
	}
}

// In the preemption fixture the preemptor fails, waits among the
// unschedulable pods, and is woken when its victim is deleted: the event is
// AssignedPodDelete and NodeResourcesFit's queueing hint said Queue.
func TestPodWokenByClusterEvent(t *testing.T) {
	_, events, _ := runQueue(t, "preemption.yaml", embedded(t, "preemption.yaml"))
	var got []string
	for _, ev := range events {
		if ev.Pod.Key() == "default/urgent" {
			got = append(got, narrate.QueueEvent(ev))
		}
	}
	var woke *recorder.QueueEvent
	for _, ev := range events {
		if ev.Pod.Key() == "default/urgent" && ev.Op == recorder.QueueMove && ev.From == recorder.QueueUnschedulable {
			woke = ev
		}
	}
	if woke == nil {
		t.Fatalf("urgent never left the unschedulable pods:\n%v", got)
	}
	want := []recorder.QueueHint{{Plugin: "NodeResourcesFit", Event: "AssignedPodDelete", Hint: recorder.HintQueue}}
	if woke.Event != "AssignedPodDelete" || (woke.To != recorder.QueueBackoff && woke.To != recorder.QueueActive) {
		t.Errorf("woken by %+v, want AssignedPodDelete into backoffQ or activeQ", woke)
	}
	if diff := cmp.Diff(want, woke.Woke()); diff != "" {
		t.Errorf("hints that woke it (-want +got):\n%s\nall events: %v", diff, got)
	}
	if last := lastEventOf(events, "default/urgent"); last.Op != recorder.QueueDelete || last.Event != "AssignedPodAdd" {
		t.Errorf("last event %+v, want it leaving the queue bound", last)
	}
}

// A pod waiting for a pod it must be placed with: each pod bound meanwhile
// is an AssignedPodAdd that InterPodAffinity's hint answers QueueSkip to,
// recorded once, not once per binding; the pod it waits for is answered
// Queue, and the pod is bound.
func TestQueueSkipRecordedOnce(t *testing.T) {
	const fixture = `apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: waiter}
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: db}}
        topologyKey: kubernetes.io/hostname
  containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata: {name: filler-1}
spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: filler-2}
spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: filler-3}
spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: db, labels: {app: db}}
spec: {containers: [{name: c, image: nginx}]}
`
	_, events, cycles := runQueue(t, "wait-for-db.yaml", []byte(fixture))
	var got []string
	for _, ev := range events {
		if ev.Pod.Name == "waiter" && (ev.Op == recorder.QueueSkip || ev.From == recorder.QueueUnschedulable) {
			got = append(got, ev.Op+" "+ev.Event+" "+fmt.Sprint(ev.Hints))
		}
	}
	want := []string{
		"Skip AssignedPodAdd [{InterPodAffinity AssignedPodAdd QueueSkip }]",
		"Move AssignedPodAdd [{InterPodAffinity AssignedPodAdd Queue }]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("waiter's events out of the unschedulable pods (-want +got):\n%s", diff)
	}
	states := recorder.PodStates(cycles, nil, events)
	for _, st := range states {
		if st.Pod.Name == "waiter" && (st.State != recorder.PodBound || st.Node != "n1") {
			t.Errorf("waiter: %+v, want bound to n1", st)
		}
	}
}
