package controllers

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/client-go/util/workqueue"
)

// soonWindow is how far ahead a delayed add still counts as work to wait
// for: a controller that requeues an object within it (the Job controller
// batches pod events for 1 s; a conflict is retried after a few
// milliseconds) has not finished. Longer delays (a Deployment's progress
// deadline, a disruption budget's recheck after 2 minutes) do not hold a
// run: a cluster would be idle until then too.
const soonWindow = 1500 * time.Millisecond

// syncInterval is the least time between two syncs of one object by one
// controller: an object changed again sooner is synced once the interval
// has passed, with every change since (a work queue coalesces changes the
// same way while a sync runs). kube-controller-manager runs on its own
// cores; in a run it shares the scheduler's, and a ReplicaSet of 2 000
// pods, synced anew on each of its pods' bindings and status writes, would
// take one of them for the whole scale-up. What the controllers do is the
// same; they do it in fewer, larger steps.
const syncInterval = 100 * time.Millisecond

// countedQueue stands in for a controller's work queue, passing every call
// on, and keeps what the run needs to know whether the controller has work:
// the items added and not yet taken, the items being worked on, the items
// due again soon. It errs toward busy: an item taken by a worker counts as
// queued until Get returns it, and an item added while it is being worked
// on counts as queued until it is taken again.
type countedQueue struct {
	name    string
	inner   workqueue.TypedInterface[string]
	changed func()

	// interval, if set, spaces the syncs of one item (syncInterval).
	interval time.Duration

	mu         sync.Mutex
	queued     map[string]bool
	processing map[string]int
	waiting    map[string]time.Time // due again by then
	synced     map[string]time.Time // when each item's last sync ended
}

func newCountedQueue(name string, inner workqueue.TypedInterface[string], changed func()) *countedQueue {
	return &countedQueue{name: name, inner: inner, changed: changed,
		queued: map[string]bool{}, processing: map[string]int{}, waiting: map[string]time.Time{}, synced: map[string]time.Time{}}
}

// The queue a workqueue.TypedRateLimitingInterface[string] field holds can be
// replaced by a countedQueue; so can the smaller interfaces.
var _ workqueue.TypedRateLimitingInterface[string] = (*countedQueue)(nil)

func (q *countedQueue) Add(item string) {
	if q.interval > 0 {
		q.mu.Lock()
		wait := q.interval - time.Since(q.synced[item])
		_, processing := q.processing[item]
		q.mu.Unlock()
		if d, ok := q.inner.(workqueue.TypedDelayingInterface[string]); ok && wait > 0 && !processing {
			q.due(item, wait)
			d.AddAfter(item, wait)
			return
		}
	}
	q.mu.Lock()
	q.queued[item] = true
	q.mu.Unlock()
	q.inner.Add(item)
	q.changed()
}

func (q *countedQueue) Len() int { return q.inner.Len() }

func (q *countedQueue) Get() (string, bool) {
	item, shutdown := q.inner.Get()
	if shutdown {
		return item, shutdown
	}
	q.mu.Lock()
	q.processing[item]++
	delete(q.queued, item)
	delete(q.waiting, item)
	q.mu.Unlock()
	return item, false
}

func (q *countedQueue) Done(item string) {
	q.mu.Lock()
	if q.processing[item]--; q.processing[item] <= 0 {
		delete(q.processing, item)
	}
	if q.interval > 0 {
		q.synced[item] = time.Now()
	}
	q.mu.Unlock()
	q.inner.Done(item)
	q.changed()
}

func (q *countedQueue) ShutDown()          { q.inner.ShutDown() }
func (q *countedQueue) ShutDownWithDrain() { q.inner.ShutDownWithDrain() }
func (q *countedQueue) ShuttingDown() bool { return q.inner.ShuttingDown() }

func (q *countedQueue) AddAfter(item string, d time.Duration) {
	if d <= 0 {
		q.Add(item)
		return
	}
	q.due(item, d)
	q.inner.(workqueue.TypedDelayingInterface[string]).AddAfter(item, d)
}

func (q *countedQueue) AddRateLimited(item string) {
	q.due(item, soonWindow)
	q.inner.(workqueue.TypedRateLimitingInterface[string]).AddRateLimited(item)
}

func (q *countedQueue) Forget(item string) {
	q.inner.(workqueue.TypedRateLimitingInterface[string]).Forget(item)
}

func (q *countedQueue) NumRequeues(item string) int {
	return q.inner.(workqueue.TypedRateLimitingInterface[string]).NumRequeues(item)
}

// due notes item as due again after d, if that is soon; the run is woken
// when the wait is over, to look again.
func (q *countedQueue) due(item string, d time.Duration) {
	if d > soonWindow {
		return
	}
	const grace = 200 * time.Millisecond
	q.mu.Lock()
	q.waiting[item] = time.Now().Add(d + grace)
	q.mu.Unlock()
	time.AfterFunc(d+grace, q.changed)
	q.changed()
}

// busy says what work the queue holds, or "" when it holds none.
func (q *countedQueue) busy(now time.Time) string {
	q.mu.Lock()
	defer q.mu.Unlock()
	if n := len(q.queued); n > 0 {
		return fmt.Sprintf("%s: %d queued", q.name, n)
	}
	if n := len(q.processing); n > 0 {
		return fmt.Sprintf("%s: %d in progress", q.name, n)
	}
	n := 0
	for item, until := range q.waiting {
		if now.After(until) {
			delete(q.waiting, item)
			continue
		}
		n++
	}
	if n > 0 {
		return fmt.Sprintf("%s: %d due again within %v", q.name, n, soonWindow)
	}
	return ""
}

// work runs one worker over q until ctx ends, as an upstream controller's
// worker does: a key whose handling failed is retried, rate-limited.
func work(ctx context.Context, q *countedQueue, handle func(context.Context, string) error) {
	go func() {
		<-ctx.Done()
		q.ShutDown()
	}()
	for {
		key, shutdown := q.Get()
		if shutdown {
			return
		}
		if err := handle(ctx, key); err != nil && ctx.Err() == nil {
			q.AddRateLimited(key)
		} else {
			q.Forget(key)
		}
		q.Done(key)
	}
}
