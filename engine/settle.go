package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	appsinformers "k8s.io/client-go/informers/apps"
	batchinformers "k8s.io/client-go/informers/batch"
	coreinformers "k8s.io/client-go/informers/core"
	"k8s.io/client-go/informers/internalinterfaces"
	policyinformers "k8s.io/client-go/informers/policy"
	resourceinformers "k8s.io/client-go/informers/resource"
	schedulinginformers "k8s.io/client-go/informers/scheduling"
	storageinformers "k8s.io/client-go/informers/storage"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
)

// A fixture run settles when the scheduler has nothing left to do for the pods
// it was given: every pod event the in-memory API server sent has been handled
// (and, in a timeline, every other event) by the scheduler's event handlers, no pod is queued to run, in a cycle,
// binding or being preempted for, no pod waits in backoff for an answer, and no
// preemption victim is still in its grace period.
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

// objectEvents counts writes to the in-memory API server, each of which its
// watch turns into one event, by resource, and the events each of the
// scheduler's event handlers has finished handling. Pods are what a run
// mostly writes; a timeline writes nodes and other objects too, and a step
// has settled only once the scheduler's handlers have seen it.
type objectEvents struct {
	mu       sync.Mutex
	written  map[string]*atomic.Int64 // by group/resource
	handlers []countedResource
	changes  *changes
	// regs are the counted handlers' registrations (registered).
	regs []cache.ResourceEventHandlerRegistration
}

type countedResource struct {
	resource string
	handled  *atomic.Int64
}

func newObjectEvents(c *changes) *objectEvents {
	return &objectEvents{written: map[string]*atomic.Int64{}, changes: c}
}

// counter returns the write counter of resource.
func (p *objectEvents) counter(resource string) *atomic.Int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.written[resource]
	if n == nil {
		n = &atomic.Int64{}
		p.written[resource] = n
	}
	return n
}

// writing counts a write of resource before it is made, so that no handler
// can have handled its event before it is counted; undo takes back one that
// failed.
func (p *objectEvents) writing(resource string) (undo func()) {
	n := p.counter(resource)
	n.Add(1)
	return func() { n.Add(-1) }
}

// total is how many writes have been made, of every resource.
func (p *objectEvents) total() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	var n int64
	for _, w := range p.written {
		n += w.Load()
	}
	return n
}

// behind reports whether some handler has not yet handled every event written.
func (p *objectEvents) behind() bool { return p.behindBy(0) }

// handlingEvents begins what busy says while handlers are behind.
const handlingEvents = "handling events"

// lagging names the resources whose handlers are behind, with by how many
// events, or "" when none is.
func (p *objectEvents) lagging() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, h := range p.handlers {
		w := int64(0)
		if n := p.written[h.resource]; n != nil {
			w = n.Load()
		}
		if d := w - h.handled.Load(); d > 0 {
			out = append(out, fmt.Sprintf("%s: %d behind", h.resource, d))
		}
	}
	return strings.Join(out, ", ")
}

// forgive takes every handler as caught up. A handler that has handled
// nothing for eventsLost while behind will not catch up: an informer that
// lists again after its watch ended delivers the objects as they are, one
// event for several writes.
func (p *objectEvents) forgive() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, h := range p.handlers {
		if n := p.written[h.resource]; n != nil && h.handled.Load() < n.Load() {
			h.handled.Store(n.Load())
		}
	}
}

// eventsLost is how long handlers that are behind may handle nothing
// before a run takes their events as lost (see forgive).
const eventsLost = 10 * time.Second

// behindBy reports whether some handler is more than lag events behind.
func (p *objectEvents) behindBy(lag int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, h := range p.handlers {
		w := int64(0)
		if n := p.written[h.resource]; n != nil {
			w = n.Load()
		}
		if h.handled.Load() < w-lag {
			return true
		}
	}
	return false
}

// countWrites counts the writes reaction makes.
func (p *objectEvents) countWrites(reaction clienttesting.ReactionFunc) clienttesting.ReactionFunc {
	return func(action clienttesting.Action) (bool, runtime.Object, error) {
		switch action.GetVerb() {
		case "create", "update", "patch", "delete":
		default:
			return reaction(action)
		}
		undo := p.writing(action.GetResource().GroupResource().String())
		handled, obj, err := reaction(action)
		if !handled || err != nil {
			undo()
		}
		return handled, obj, err
	}
}

// handler wraps an event handler of resource's informer to count what it
// has handled. The initial list is not counted: it was not written during
// the run. A handler added once the run has written starts from the writes
// so far: its initial list is the objects as they stand after them.
func (p *objectEvents) handler(resource string, h cache.ResourceEventHandler) cache.ResourceEventHandler {
	n := &atomic.Int64{}
	n.Store(p.counter(resource).Load())
	p.mu.Lock()
	p.handlers = append(p.handlers, countedResource{resource, n})
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
// engine's, except that event handlers registered on the informers of the
// groups the scheduler handles events of (core, storage, resource) are
// counted. Each group is built over the counting factory, so its informers
// come from InformerFor below; they are the engine's own, shared. The groups
// watch every namespace with no list options, as scheduler.NewInformerFactory
// builds the engine's factory.
type countingFactory struct {
	informers.SharedInformerFactory
	p *objectEvents
	// scheduler: the scheduler's own, whose pod handlers see the pods
	// that are not finished (see unfinished).
	scheduler bool
	// arrivals, if set, holds the controllers' new pods back from the
	// scheduler's pod handlers until they arrive in order.
	arrivals *arrivals
}

func (f countingFactory) InformerFor(obj runtime.Object, newFunc internalinterfaces.NewInformerFunc) cache.SharedIndexInformer {
	inf := f.SharedInformerFactory.InformerFor(obj, newFunc)
	gvks, _, err := clientgoscheme.Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return inf
	}
	gvr, _ := meta.UnsafeGuessKindToResource(gvks[0])
	resource := gvr.GroupResource().String()
	return f.informer(inf, resource)
}

// informer counts the handlers of inf, an informer of resource; the
// scheduler's pod handlers see the unfinished pods, the controllers' new
// ones in arrival order (arrivals).
func (f countingFactory) informer(inf cache.SharedIndexInformer, resource string) countingInformer {
	i := countingInformer{SharedIndexInformer: inf, p: f.p, resource: resource}
	if f.scheduler && resource == "pods" {
		i.unfinished, i.arrivals = true, f.arrivals
	}
	return i
}

func (f countingFactory) Core() coreinformers.Interface {
	return coreinformers.New(f, metav1.NamespaceAll, nil)
}

func (f countingFactory) Storage() storageinformers.Interface {
	return storageinformers.New(f, metav1.NamespaceAll, nil)
}

func (f countingFactory) Resource() resourceinformers.Interface {
	return resourceinformers.New(f, metav1.NamespaceAll, nil)
}

// Scheduling holds PodGroups and Workloads: the scheduler reads a group's
// status (its PodGroupInitiallyScheduled condition) from its informer, and
// patches the condition from it, so a run waits for that informer too.
func (f countingFactory) Scheduling() schedulinginformers.Interface {
	return schedulinginformers.New(f, metav1.NamespaceAll, nil)
}

// The groups only the controllers beside the scheduler read.

func (f countingFactory) Apps() appsinformers.Interface {
	return appsinformers.New(f, metav1.NamespaceAll, nil)
}

func (f countingFactory) Batch() batchinformers.Interface {
	return batchinformers.New(f, metav1.NamespaceAll, nil)
}

func (f countingFactory) Policy() policyinformers.Interface {
	return policyinformers.New(f, metav1.NamespaceAll, nil)
}

// ForResource is the factory's informer of a resource (the garbage
// collector asks by resource), counted as InformerFor counts.
func (f countingFactory) ForResource(gvr schema.GroupVersionResource) (informers.GenericInformer, error) {
	g, err := f.SharedInformerFactory.ForResource(gvr)
	if err != nil {
		return nil, err
	}
	resource := gvr.GroupResource().String()
	return countingGeneric{g, f.informer(g.Informer(), resource)}, nil
}

type countingGeneric struct {
	informers.GenericInformer
	inf countingInformer
}

func (g countingGeneric) Informer() cache.SharedIndexInformer { return g.inf }

type countingInformer struct {
	cache.SharedIndexInformer
	p        *objectEvents
	resource string
	// unfinished gives each handler the pods that are neither Succeeded
	// nor Failed (see unfinished).
	unfinished bool
	arrivals   *arrivals
}

func (i countingInformer) AddEventHandler(h cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	return i.p.registered(i.SharedIndexInformer.AddEventHandler(i.p.handler(i.resource, i.view(h))))
}

func (i countingInformer) AddEventHandlerWithResyncPeriod(h cache.ResourceEventHandler, resync time.Duration) (cache.ResourceEventHandlerRegistration, error) {
	return i.p.registered(i.SharedIndexInformer.AddEventHandlerWithResyncPeriod(i.p.handler(i.resource, i.view(h)), resync))
}

func (i countingInformer) AddEventHandlerWithOptions(h cache.ResourceEventHandler, opts cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	return i.p.registered(i.SharedIndexInformer.AddEventHandlerWithOptions(i.p.handler(i.resource, i.view(h)), opts))
}

func (i countingInformer) view(h cache.ResourceEventHandler) cache.ResourceEventHandler {
	if i.unfinished {
		h = cache.FilteringResourceEventHandler{FilterFunc: unfinished, Handler: h}
	}
	if i.arrivals != nil {
		h = i.arrivals.gate(h)
	}
	return h
}

// unfinished is kube-scheduler's view of the pods: its pod informer lists
// and watches them with the field selector
// status.phase!=Succeeded,status.phase!=Failed
// (scheduler.NewInformerFactory), so a finished pod never reaches it, and
// one that finishes is deleted from it, as the API server's watch cache
// tells a watch whose selector an object leaves. The in-memory API server
// serves every informer from one store and applies no field selector: the
// scheduler's pod handlers are given the shared informer's events through
// a filter with this test (client-go's FilteringResourceEventHandler, which
// turns an update that leaves it into a delete, as the watch cache does),
// while the controllers beside the scheduler see every pod, as
// kube-controller-manager's do (a Job counts its finished ones).
func unfinished(obj interface{}) bool {
	p, ok := obj.(*v1.Pod)
	return !ok || p.Status.Phase != v1.PodSucceeded && p.Status.Phase != v1.PodFailed
}

// registered keeps a counted handler's registration, so that a run can wait
// until every handler (the controllers' too) has had its initial list: the
// initial list is not counted as writes are, and a controller that has not
// yet queued a workload it lists looks idle.
func (p *objectEvents) registered(r cache.ResourceEventHandlerRegistration, err error) (cache.ResourceEventHandlerRegistration, error) {
	if err == nil {
		p.mu.Lock()
		p.regs = append(p.regs, r)
		p.mu.Unlock()
	}
	return r, err
}

// waitSynced waits until every registration so far has handled its
// initial list. (cache.WaitForCacheSync polls every 100 ms, which every
// run, fork and test would wait once; the handlers take a millisecond or
// two.)
func (p *objectEvents) waitSynced(ctx context.Context) error {
	p.mu.Lock()
	regs := slices.Clone(p.regs)
	p.mu.Unlock()
	for _, r := range regs {
		for !r.HasSynced() {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Millisecond):
			}
		}
	}
	return nil
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

// look says what the scheduler is doing; pods waiting out a backoff and
// victims in their grace period are named only when nothing else is going on
// (the run may then skip the clock).
func (e *Engine) look() string {
	backoff, groupBackoff := e.retrying()
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
	if why := e.ctrls.Busy(); why != "" {
		return why
	}
	if lag := e.events.lagging(); lag != "" {
		return handlingEvents + " (" + lag + ")"
	}
	if n := e.arrivals.release(); n > 0 {
		// Once the controllers are done, and have seen every pod made
		// (a controller with more pods than it wants deletes one), what
		// they made arrives.
		return fmt.Sprintf("%d pod(s) made by controllers arriving", n)
	}
	if backoff > 0 {
		return fmt.Sprintf("%d pod(s) in backoffQ to retry", backoff)
	}
	if groupBackoff > 0 {
		return fmt.Sprintf("%d %s", groupBackoff, membersBackingOff)
	}
	if n := e.terminating.count(); n > 0 {
		return fmt.Sprintf("%d %s", n, victimsTerminating)
	}
	return ""
}

const preemptingVictims = "evicting preemption victims"

// membersBackingOff ends what busy says while nothing is left but pod
// groups waiting out their backoff (see retrying).
const membersBackingOff = "pod group member(s) waiting out their group's backoff"

// inCycles says how many pods are in a scheduling or binding cycle, if any.
func (e *Engine) inCycles() string {
	e.mu.Lock()
	inFlight, open := len(e.inFlight), e.openCycles()
	e.mu.Unlock()
	if inFlight+open > 0 {
		return fmt.Sprintf("%d pod(s) in a cycle or binding", max(inFlight, open))
	}
	if e.groupOpen.Load() {
		return "a pod-group cycle ending"
	}
	return ""
}

// preemptPoll is how often a run rechecks a preemption in progress: the
// executor's goroutine reports its end to nobody.
const preemptPoll = time.Millisecond

// waitSettled waits until the scheduler has settled (see busy), woken by each
// change of its state. It waits as long as the run makes progress (a stall
// of SettleTimeout): a run of many pods takes what it takes; one that makes
// nothing for SettleTimeout ends, saying what is stuck. Time paused at the
// gate does not count.
func (e *Engine) waitSettled(ctx context.Context) error {
	st := newStall(e.progress, e.opts.SettleTimeout, time.Now())
	timeout := time.NewTimer(e.opts.SettleTimeout)
	defer timeout.Stop()
	lastChange := time.Now()
	for {
		changed := e.changes.wait()
		why := e.busy()
		if why == "" {
			return nil
		}
		var poll <-chan time.Time
		switch {
		case strings.HasPrefix(why, handlingEvents) && time.Since(lastChange) >= eventsLost:
			e.events.forgive()
			continue
		case strings.HasPrefix(why, handlingEvents):
			poll = time.After(eventsLost - time.Since(lastChange))
		case why == preemptingVictims:
			poll = time.After(preemptPoll)
		case strings.HasSuffix(why, "in backoffQ to retry") && utilfeature.DefaultFeatureGate.Enabled(features.SchedulerPopFromBackoffQ):
			// With activeQ empty the scheduler pops a pod from backoffQ at
			// once, before its backoff ends (SchedulerPopFromBackoffQ, on by
			// default): wait for that; skipping the clock would race it.
			poll = time.After(preemptPoll)
		case (strings.HasSuffix(why, "in backoffQ to retry") || strings.HasSuffix(why, victimsTerminating) || strings.HasSuffix(why, membersBackingOff)) && e.clock != nil:
			// Nothing is left but a pod's backoff or a victim's grace period:
			// skip the clock to the next timer (the queue's, or a victim's end),
			// and look again once it had time to run (a flush moves the pod,
			// or nothing, and reports neither).
			if e.clock.skipToNextTimer() {
				poll = time.After(preemptPoll)
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
			lastChange = time.Now()
		case <-poll:
		case <-timeout.C:
			now := time.Now()
			if e.gated.Load() {
				st.restart(now)
			}
			if !st.stalled(now) {
				timeout.Reset(st.left(now))
				continue
			}
			return stuck(e.opts.SettleTimeout, why)
		}
	}
}

// waitEvents waits until the scheduler's event handlers are at most lag
// events behind the writes.
func (e *Engine) waitEvents(ctx context.Context, lag int64) error {
	timeout := time.NewTimer(e.opts.SettleTimeout)
	defer timeout.Stop()
	for {
		changed := e.changes.wait()
		if !e.events.behindBy(lag) {
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
			return fmt.Errorf("the scheduler did not handle its events within %v", e.opts.SettleTimeout)
		}
	}
}
