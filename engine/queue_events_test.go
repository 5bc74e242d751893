package engine

import (
	"context"
	"sync"
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

// runQueue schedules data and returns the queue events and cycles in order.
func runQueue(t *testing.T, name string, data []byte) (*Engine, []*recorder.QueueEvent, []*recorder.Cycle) {
	t.Helper()
	fx, err := LoadFixture(name, data)
	if err != nil {
		t.Fatalf("LoadFixture: %v", err)
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

func TestQueueEventsDump(t *testing.T) {
	for _, f := range []string{"preemption.yaml", "unschedulable.yaml", "default.yaml"} {
		_, evs, _ := runQueue(t, f, embedded(t, f))
		for _, ev := range evs {
			t.Logf("%s %d %s %s", f, ev.Seq, ev.Pod.Key(), ev.String())
		}
	}
}
