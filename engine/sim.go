package engine

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// Result is the state of the cluster after a run.
type Result struct {
	// Bindings maps namespace/name of each pending pod to its node ("" if unscheduled).
	Bindings map[string]string
	// Cycles counts recorded cycles.
	Cycles int
}

// Run starts the scheduler and feeds it the fixture's pending pods one at a time,
// each after the scheduler has settled on the previous one, so cycles follow the
// fixture's order. It returns once the last pod has settled.
func (e *Engine) Run(ctx context.Context) (*Result, error) {
	return e.run(ctx, false)
}

// RunBurst creates every pending pod at once, as a scale-up does, and returns
// once the scheduler has settled on all of them. The queue orders them (by
// priority, then arrival), so cycles may not follow the fixture's order.
func (e *Engine) RunBurst(ctx context.Context) (*Result, error) {
	return e.run(ctx, true)
}

func (e *Engine) run(ctx context.Context, burst bool) (*Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	podInformer := e.sched.Profiles[firstProfile(e)].SharedInformerFactory().Core().V1().Pods().Informer()
	var seen atomic.Int64
	if _, err := podInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(interface{}) { seen.Add(1) },
		UpdateFunc: func(_, obj interface{}) {
			if p, ok := obj.(*v1.Pod); ok && p.Spec.NodeName != "" {
				e.settled(p.UID)
			}
		},
	}); err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		e.sched.Run(ctx)
		close(done)
	}()
	defer func() {
		cancel()
		<-done
	}()
	before := seen.Load()
	for i, p := range e.fixture.Pending {
		// The fake API server drops a watch whose buffer (100 events) overflows;
		// keep the informer no more than a few dozen pods behind.
		for int64(i)-(seen.Load()-before) > 50 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(100 * time.Microsecond):
			}
		}
		if _, err := e.client.CoreV1().Pods(p.Namespace).Create(ctx, p.DeepCopy(), metav1.CreateOptions{}); err != nil {
			return nil, fmt.Errorf("creating pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		if burst {
			continue
		}
		// The scheduler learns of the pod through its informer; until then the
		// queue looks idle, and on a busy machine that can outlast the quiet
		// window below.
		if err := e.waitArrived(ctx, p); err != nil {
			return nil, fmt.Errorf("after pod %s/%s arrived: %w", p.Namespace, p.Name, err)
		}
		if err := e.waitSettled(ctx, podInformer); err != nil {
			return nil, fmt.Errorf("after pod %s/%s arrived: %w", p.Namespace, p.Name, err)
		}
		e.flushPending("")
	}
	if burst {
		if err := e.waitSettled(ctx, podInformer); err != nil {
			return nil, fmt.Errorf("after %d pods arrived: %w", len(e.fixture.Pending), err)
		}
		e.flushPending("")
	}
	res := &Result{Bindings: map[string]string{}}
	for _, p := range e.fixture.Pending {
		got, err := e.client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			res.Bindings[p.Namespace+"/"+p.Name] = ""
			continue
		}
		res.Bindings[p.Namespace+"/"+p.Name] = got.Spec.NodeName
	}
	e.mu.Lock()
	res.Cycles = e.emitted
	e.mu.Unlock()
	return res, nil
}

// waitArrived waits until the scheduler has taken p in: it is queued (active,
// in backoff, unschedulable or gated), being scheduled, decided or bound. A
// pod no profile serves never is.
func (e *Engine) waitArrived(ctx context.Context, p *v1.Pod) error {
	if _, ok := e.sched.Profiles[p.Spec.SchedulerName]; !ok {
		return nil
	}
	deadline := time.Now().Add(e.opts.SettleTimeout)
	for {
		e.mu.Lock()
		seen := e.inFlight[p.UID] || e.decided[p.UID] != nil
		e.mu.Unlock()
		if !seen {
			pending, _ := e.sched.SchedulingQueue.PendingPods()
			seen = slices.ContainsFunc(pending, func(q *v1.Pod) bool { return q.UID == p.UID })
		}
		if !seen {
			// Bound already (recording off, nothing was decided).
			cur, err := e.informers.Core().V1().Pods().Lister().Pods(p.Namespace).Get(p.Name)
			seen = err == nil && cur.UID == p.UID && cur.Spec.NodeName != ""
		}
		if seen {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the scheduler did not receive the pod within %v", e.opts.SettleTimeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Microsecond):
		}
	}
}

func firstProfile(e *Engine) string {
	for n := range e.sched.Profiles {
		return n
	}
	return ""
}
