package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core"
	corev1informers "k8s.io/client-go/informers/core/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
)

// A fixture run settles when the scheduler has nothing left to do for the pods
// it was given: every pod event the in-memory API server sent has been handled
// by the scheduler's event handlers, no pod is queued to run, in a cycle,
// binding or being preempted for, and no pod waits in backoff for an answer.
// Each of those is observed where it happens, and each change wakes the run
// (changes), so a run waits exactly as long as the scheduler works.

// changes wakes whoever waits for the engine's state to change.
type changes struct {
	mu sync.Mutex
	ch chan struct{}
}

func newChanges() *changes { return &changes{ch: make(chan struct{})} }

// wait returns a channel closed at the next change. Take it before reading
// the state the change is about, so no change is missed between the two.
func (c *changes) wait() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ch
}

// kick reports a change.
func (c *changes) kick() {
	c.mu.Lock()
	close(c.ch)
	c.ch = make(chan struct{})
	c.mu.Unlock()
}

// podEvents counts pod writes to the in-memory API server, each of which its
// watch turns into one event, and the events each of the scheduler's pod
// event handlers has finished handling.
type podEvents struct {
	written  atomic.Int64
	mu       sync.Mutex
	handlers []*atomic.Int64
	changes  *changes
}

// writing counts a pod write before it is made, so that no handler can have
// handled its event before it is counted; undo takes back one that failed.
func (p *podEvents) writing() (undo func()) {
	p.written.Add(1)
	return func() { p.written.Add(-1) }
}

// behind reports whether some handler has not yet handled every event written.
func (p *podEvents) behind() bool { return p.behindBy(0) }

// behindBy reports whether some handler is more than lag events behind.
func (p *podEvents) behindBy(lag int64) bool {
	w := p.written.Load()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, h := range p.handlers {
		if h.Load() < w-lag {
			return true
		}
	}
	return false
}

// countWrites counts the pod writes reaction makes.
func (p *podEvents) countWrites(reaction clienttesting.ReactionFunc) clienttesting.ReactionFunc {
	return func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.GetResource().Resource != "pods" {
			return reaction(action)
		}
		switch action.GetVerb() {
		case "create", "update", "patch", "delete":
		default:
			return reaction(action)
		}
		undo := p.writing()
		handled, obj, err := reaction(action)
		if !handled || err != nil {
			undo()
		}
		return handled, obj, err
	}
}

// handler wraps a pod event handler to count what it has handled. The initial
// list is not counted: it was not written during the run.
func (p *podEvents) handler(h cache.ResourceEventHandler) cache.ResourceEventHandler {
	n := &atomic.Int64{}
	p.mu.Lock()
	p.handlers = append(p.handlers, n)
	p.mu.Unlock()
	return &countedHandler{h: h, n: n, changes: p.changes}
}

type countedHandler struct {
	h       cache.ResourceEventHandler
	n       *atomic.Int64
	changes *changes
}

func (c *countedHandler) OnAdd(obj interface{}, isInInitialList bool) {
	c.h.OnAdd(obj, isInInitialList)
	if !isInInitialList {
		c.done()
	}
}

func (c *countedHandler) OnUpdate(oldObj, newObj interface{}) {
	c.h.OnUpdate(oldObj, newObj)
	c.done()
}

func (c *countedHandler) OnDelete(obj interface{}) {
	c.h.OnDelete(obj)
	c.done()
}

func (c *countedHandler) done() {
	c.n.Add(1)
	c.changes.kick()
}

// countingFactory is the informer factory the scheduler is built with: the
// engine's, except that pod event handlers registered through it are counted.
type countingFactory struct {
	informers.SharedInformerFactory
	p *podEvents
}

func (f countingFactory) Core() coreinformers.Interface {
	return countingCore{f.SharedInformerFactory.Core(), f.p}
}

type countingCore struct {
	coreinformers.Interface
	p *podEvents
}

func (c countingCore) V1() corev1informers.Interface { return countingCoreV1{c.Interface.V1(), c.p} }

type countingCoreV1 struct {
	corev1informers.Interface
	p *podEvents
}

func (c countingCoreV1) Pods() corev1informers.TypedPodInformer {
	return countingPods{c.Interface.Pods(), c.p}
}

type countingPods struct {
	corev1informers.TypedPodInformer
	p *podEvents
}

func (c countingPods) Informer() cache.SharedIndexInformer {
	return countingInformer{c.TypedPodInformer.Informer(), c.p}
}

type countingInformer struct {
	cache.SharedIndexInformer
	p *podEvents
}

func (i countingInformer) AddEventHandler(h cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	return i.SharedIndexInformer.AddEventHandler(i.p.handler(h))
}

func (i countingInformer) AddEventHandlerWithResyncPeriod(h cache.ResourceEventHandler, resync time.Duration) (cache.ResourceEventHandlerRegistration, error) {
	return i.SharedIndexInformer.AddEventHandlerWithResyncPeriod(i.p.handler(h), resync)
}

func (i countingInformer) AddEventHandlerWithOptions(h cache.ResourceEventHandler, opts cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	return i.SharedIndexInformer.AddEventHandlerWithOptions(i.p.handler(h), opts)
}

// preemptionExecutors returns the executors of the DefaultPreemption plugins
// of every profile; call before the plugins are wrapped.
func (e *Engine) preemptionExecutors() []*preemption.Executor {
	var out []*preemption.Executor
	for _, fw := range e.sched.Profiles {
		v, err := frameworkStruct(fw)
		if err != nil {
			continue
		}
		plugins, err := pluginSlice[fwk.PostFilterPlugin](v, "postFilterPlugins")
		if err != nil {
			continue
		}
		for _, pl := range *plugins {
			if dp, ok := pl.(*defaultpreemption.DefaultPreemption); ok && dp.Executor != nil {
				out = append(out, dp.Executor)
			}
		}
	}
	return out
}

// preempting reports whether a pod that nominated a node is still evicting
// its victims (DefaultPreemption evicts asynchronously).
func (e *Engine) preempting() bool {
	e.mu.Lock()
	uids := make([]types.UID, 0, len(e.nominated))
	for uid := range e.nominated {
		uids = append(uids, uid)
	}
	e.mu.Unlock()
	for _, uid := range uids {
		running := false
		for _, x := range e.executors {
			running = running || x.IsPodRunningPreemption(uid)
		}
		if !running {
			e.mu.Lock()
			delete(e.nominated, uid)
			e.mu.Unlock()
			continue
		}
		return true
	}
	return false
}

// busy says what the scheduler is still doing, or "" once it has settled.
// A pod only moves forward through the places looked at, in the order they are
// looked at (backoffQ, activeQ, popped, in a cycle or binding, evicting
// victims, bound), so a pod moving during the look is still seen; a move
// backward (an event requeues a pod) comes from a handled event, which is
// looked at last, and from a change, which makes the look start over.
func (e *Engine) busy() string {
	// A pod in a cycle or binding settles nothing, whatever the queues hold:
	// answer without listing them (a burst wakes the run thousands of times).
	if why := e.inCycles(); why != "" {
		return why
	}
	for {
		changed := e.changes.wait()
		why := e.look()
		if why != "" {
			return why
		}
		select {
		case <-changed:
			continue
		default:
			return ""
		}
	}
}

// look says what the scheduler is doing; pods waiting out a backoff are named
// only when nothing else is going on (the run may then skip the clock).
func (e *Engine) look() string {
	backoff := e.retrying()
	q := e.sched.SchedulingQueue
	if n := len(q.PodsInActiveQ()); n > 0 {
		return fmt.Sprintf("%d pod(s) in activeQ", n)
	}
	if n := len(q.InFlightPods()); n > 0 {
		return fmt.Sprintf("%d pod(s) popped from the queue", n)
	}
	if why := e.inCycles(); why != "" {
		return why
	}
	if e.preempting() {
		return preemptingVictims
	}
	if e.podEvents.behind() {
		return "handling pod events"
	}
	if backoff > 0 {
		return fmt.Sprintf("%d pod(s) in backoffQ to retry", backoff)
	}
	return ""
}

const preemptingVictims = "evicting preemption victims"

// inCycles says how many pods are in a scheduling or binding cycle, if any.
func (e *Engine) inCycles() string {
	e.mu.Lock()
	inFlight, open := len(e.inFlight), e.openCycles()
	e.mu.Unlock()
	if inFlight+open > 0 {
		return fmt.Sprintf("%d pod(s) in a cycle or binding", max(inFlight, open))
	}
	return ""
}

// preemptPoll is how often a run rechecks a preemption in progress: the
// executor's goroutine reports its end to nobody.
const preemptPoll = time.Millisecond

// waitSettled waits until the scheduler has settled (see busy), woken by each
// change of its state. Time paused at the gate does not count toward the
// settle timeout.
func (e *Engine) waitSettled(ctx context.Context) error {
	timeout := time.NewTimer(e.opts.SettleTimeout)
	defer timeout.Stop()
	for {
		changed := e.changes.wait()
		why := e.busy()
		if why == "" {
			return nil
		}
		var poll <-chan time.Time
		switch {
		case why == preemptingVictims:
			poll = time.After(preemptPoll)
		case strings.HasSuffix(why, "in backoffQ to retry") && e.clock != nil:
			// Nothing is left but a pod's backoff: skip the clock to the
			// queue's next timer, and look again once its flush had time to run
			// (it moves the pod, or nothing, and reports neither).
			if e.clock.skipToNextTimer() {
				poll = time.After(preemptPoll)
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		case <-poll:
		case <-timeout.C:
			if e.gated.Load() {
				timeout.Reset(e.opts.SettleTimeout)
				continue
			}
			return fmt.Errorf("scheduler did not settle within %v (%s)", e.opts.SettleTimeout, why)
		}
	}
}

// waitEvents waits until the scheduler's pod event handlers are at most lag
// events behind the writes.
func (e *Engine) waitEvents(ctx context.Context, lag int64) error {
	timeout := time.NewTimer(e.opts.SettleTimeout)
	defer timeout.Stop()
	for {
		changed := e.changes.wait()
		if !e.podEvents.behindBy(lag) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		case <-timeout.C:
			if e.gated.Load() {
				timeout.Reset(e.opts.SettleTimeout)
				continue
			}
			return fmt.Errorf("the scheduler did not handle its pod events within %v", e.opts.SettleTimeout)
		}
	}
}
