package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

// The scheduling queue is observed from three sides, none of which decides
// anything:
//
//   - the scheduler's calls on it (Add, Update, Delete, a failed pod's
//     AddUnschedulablePodIfNotPresent, MoveAllToActiveOrBackoffQueue with its
//     cluster event, Run): the Scheduler's SchedulingQueue field is replaced
//     with queueWrapper, which forwards each call unchanged;
//   - the QueueingHintFn of every plugin, as the queue holds them: each is
//     wrapped in place and returns exactly what the plugin's returned;
//   - the queue's own moves, made inside those calls and by its flush
//     goroutines: each call is handed a logger whose sink (queueSink) reads
//     the queue's "moved to an internal scheduling queue" lines (pod, event,
//     queue) and forwards every line to the scheduler's logger as before.

// queueObserver turns what the queue does into recorder.QueueEvents.
type queueObserver struct {
	now func() time.Time
	on  func(*recorder.QueueEvent)

	mu  sync.Mutex
	seq int
	// where each pod is: its queue, or "" while in a cycle.
	where map[string]string
	refs  map[string]recorder.PodRef
	// infos are the queue's QueuedPodInfos, as popped or requeued after a
	// failure, for their attempts and backoff.
	infos map[string]*framework.QueuedPodInfo
	// hints holds the hints asked for a pod, by the call that asked them
	// (nil for a logger that was not the engine's), until the move or
	// the skip they decided is recorded.
	hints map[*queueCall]map[string][]recorder.QueueHint
	// lastSkip is the pod's last event when it was a Skip (its event and
	// hints), so that the same Skip again is not recorded again: every
	// binding checks every pod an inter-pod plugin rejected.
	lastSkip map[string]string
	// gatedBy is the PreEnqueue plugin that last held each pod back (its
	// name and reasons), until the move it caused is recorded.
	gatedBy map[string]recorder.QueueEvent
}

// newQueueObserver reads time from now (the queue's clock) and hands each
// event to on.
func newQueueObserver(now func() time.Time, on func(*recorder.QueueEvent)) *queueObserver {
	return &queueObserver{now: now, on: on, where: map[string]string{}, refs: map[string]recorder.PodRef{},
		infos: map[string]*framework.QueuedPodInfo{}, hints: map[*queueCall]map[string][]recorder.QueueHint{}, lastSkip: map[string]string{}, gatedBy: map[string]recorder.QueueEvent{}}
}

func keyOf(p *v1.Pod) string { return p.Namespace + "/" + p.Name }

// sawPod remembers a pod's reference (UID, priority) for its events.
func (o *queueObserver) sawPod(p *v1.Pod) {
	o.mu.Lock()
	o.refs[keyOf(p)] = podRef(p)
	o.mu.Unlock()
}

// popped notes that a cycle took the pod from activeQ.
func (o *queueObserver) popped(pi *framework.QueuedPodInfo) {
	k := keyOf(pi.Pod)
	o.mu.Lock()
	o.refs[k] = podRef(pi.Pod)
	o.infos[k] = pi
	o.where[k] = ""
	o.mu.Unlock()
}

// emit assigns the event its sequence number and hands it on. Call with o.mu held.
func (o *queueObserver) emit(ev *recorder.QueueEvent) {
	o.seq++
	ev.Seq = o.seq
	ev.Time = o.now()
	if o.on != nil {
		o.on(ev)
	}
}

// hinted records a plugin's queueing hint for pod, asked in call; it goes
// with the pod's next event in that call.
func (o *queueObserver) hinted(call *queueCall, pod *v1.Pod, plugin, event string, hint fwk.QueueingHint, err error) {
	h := recorder.QueueHint{Plugin: plugin, Event: event, Hint: hintName(hint)}
	if err != nil {
		h.Hint, h.Error = recorder.HintError, err.Error()
	}
	k := keyOf(pod)
	o.mu.Lock()
	if _, ok := o.refs[k]; !ok {
		o.refs[k] = podRef(pod)
	}
	byPod := o.hints[call]
	if byPod == nil {
		byPod = map[string][]recorder.QueueHint{}
		o.hints[call] = byPod
	}
	byPod[k] = append(byPod[k], h)
	o.mu.Unlock()
}

func hintName(h fwk.QueueingHint) string {
	if h == fwk.Queue {
		return recorder.HintQueue
	}
	return recorder.HintQueueSkip
}

// moved records the queue's move of pod key to queue, for event, in call.
func (o *queueObserver) moved(call *queueCall, key, queue, event string, gated bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	ev := &recorder.QueueEvent{Pod: o.ref(key), Op: recorder.QueueMove, From: o.where[key], To: queue, Event: event, Gated: gated, PodGroup: groupOf(key)}
	if g, ok := o.gatedBy[key]; ok {
		// The plugin's refusal goes with the move it caused; a move that
		// was not gated found every plugin agreeing, the refusal past.
		if gated {
			ev.GatedBy, ev.GateReasons = g.GatedBy, g.GateReasons
		}
		delete(o.gatedBy, key)
	}
	switch event {
	case framework.BackoffComplete:
		ev.Flush = recorder.FlushBackoffCompleted
	case framework.UnschedulableTimeout:
		ev.Flush = recorder.FlushUnschedulableLeftover
	case framework.EventUnscheduledPodAdd.Label():
		if _, known := o.where[key]; !known {
			ev.Op = recorder.QueueAdd
		}
	}
	ev.Hints = o.takeHints(call, key, event)
	if pi := o.infos[key]; pi != nil {
		ev.Attempts = pi.Attempts
		if until := pi.BackoffExpiration; queue == recorder.QueueBackoff && !until.IsZero() {
			// The queue computed the expiry (isEntityBackingoff) before
			// moving the pod, on the goroutine that logs the move.
			ev.BackoffUntil = until
			ev.Backoff = recorder.Duration(until.Sub(pi.Timestamp))
		}
	}
	o.where[key] = queue
	delete(o.lastSkip, key)
	o.emit(ev)
}

// skipped records that event, checked in call, left pod key where it was.
func (o *queueObserver) skipped(call *queueCall, key, event string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	hints := o.takeHints(call, key, event)
	if len(hints) == 0 {
		return
	}
	sig := fmt.Sprint(event, hints)
	if o.lastSkip[key] == sig {
		return
	}
	o.lastSkip[key] = sig
	o.emit(&recorder.QueueEvent{Pod: o.ref(key), Op: recorder.QueueSkip, From: o.where[key], To: o.where[key], Event: event, Hints: hints, PodGroup: groupOf(key)})
}

// deleted records that pod left the queue: bound, or deleted (assigned
// says the API server has it on a node).
func (o *queueObserver) deleted(pod *v1.Pod, assigned bool) {
	k := keyOf(pod)
	o.mu.Lock()
	defer o.mu.Unlock()
	from, known := o.where[k]
	if !known {
		return
	}
	delete(o.where, k)
	delete(o.refs, k)
	delete(o.infos, k)
	delete(o.lastSkip, k)
	ev := &recorder.QueueEvent{Pod: podRef(pod), Op: recorder.QueueDelete, From: from}
	if assigned {
		ev.Event = framework.EventAssignedPodAdd.Label()
	} else {
		ev.Event = framework.EventUnscheduledPodDelete.Label()
	}
	o.emit(ev)
}

// flushHints records the hints call asked that moved no pod, once the
// call is over, in the order of the pods' names.
func (o *queueObserver) flushHints(call *queueCall, event string) {
	o.mu.Lock()
	keys := slices.Sorted(maps.Keys(o.hints[call]))
	o.mu.Unlock()
	for _, k := range keys {
		o.skipped(call, k, event)
	}
	o.mu.Lock()
	delete(o.hints, call)
	o.mu.Unlock()
}

// takeHints removes and returns pod key's pending hints asked in call,
// naming event on those asked without one. Call with o.mu held.
func (o *queueObserver) takeHints(call *queueCall, key, event string) []recorder.QueueHint {
	hs := o.hints[call][key]
	delete(o.hints[call], key)
	for i := range hs {
		if hs[i].Event == "" {
			hs[i].Event = event
		}
	}
	return hs
}

// ref is pod key's reference. Call with o.mu held.
func (o *queueObserver) ref(key string) recorder.PodRef {
	if r, ok := o.refs[key]; ok {
		return r
	}
	ns, name := splitKey(strings.TrimPrefix(key, groupKeyPrefix))
	return recorder.PodRef{Namespace: ns, Name: name}
}

// groupOf names the pod group of a queue key, or nil for a pod's.
func groupOf(key string) *recorder.PodGroupRef {
	if !strings.HasPrefix(key, groupKeyPrefix) {
		return nil
	}
	ns, name := splitKey(strings.TrimPrefix(key, groupKeyPrefix))
	return &recorder.PodGroupRef{Namespace: ns, Name: name}
}

func splitKey(key string) (string, string) {
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

// wrapQueueingHints wraps every QueueingHintFn the queue holds so that each
// answer is recorded; the wrapper returns exactly what the plugin's returned.
func (o *queueObserver) wrapQueueingHints(q internalqueue.SchedulingQueue) error {
	m, err := queueingHintMap(q)
	if err != nil {
		return err
	}
	done := map[*internalqueue.QueueingHintFunction]bool{}
	for _, byEvent := range m {
		for _, fns := range byEvent {
			for _, hf := range fns {
				if done[hf] || hf.QueueingHintFn == nil {
					continue
				}
				done[hf] = true
				fn, plugin := hf.QueueingHintFn, hf.PluginName
				hf.QueueingHintFn = func(logger klog.Logger, pod *v1.Pod, oldObj, newObj interface{}) (fwk.QueueingHint, error) {
					hint, err := fn(logger, pod, oldObj, newObj)
					// The event being checked, when the call named it; for a
					// pod update the queue names it only after asking, and
					// takeHints fills it in.
					event := ""
					var call *queueCall
					if s, ok := logger.GetSink().(*queueSink); ok {
						call, event = s.call, s.call.eventLabel()
					}
					if pod != nil {
						o.hinted(call, pod, plugin, event, hint, err)
					}
					return hint, err
				}
			}
		}
	}
	return nil
}

// wrapPreEnqueue wraps every PreEnqueue plugin the queue runs so that the
// one that holds a pod back is recorded with the pod's Gated move; the
// wrapper returns exactly what the plugin returned.
func (o *queueObserver) wrapPreEnqueue(q internalqueue.SchedulingQueue) error {
	m, err := preEnqueuePlugins(q)
	if err != nil {
		return err
	}
	for _, byName := range m {
		for name, pl := range byName {
			if _, done := pl.(*preEnqueueWrapper); !done {
				byName[name] = &preEnqueueWrapper{PreEnqueuePlugin: pl, o: o}
			}
		}
	}
	return nil
}

// preEnqueueWrapper records a PreEnqueue plugin's refusals.
type preEnqueueWrapper struct {
	fwk.PreEnqueuePlugin
	o *queueObserver
}

var _ fwk.PreEnqueuePlugin = (*preEnqueueWrapper)(nil)

func (w *preEnqueueWrapper) PreEnqueue(ctx context.Context, pod *v1.Pod) *fwk.Status {
	st := w.PreEnqueuePlugin.PreEnqueue(ctx, pod)
	if !st.IsSuccess() && pod != nil {
		w.o.preEnqueued(keyOf(pod), w.Name(), st.Reasons())
	}
	return st
}

// preEnqueued notes the plugin that held pod key back, for its Gated move.
func (o *queueObserver) preEnqueued(key, plugin string, reasons []string) {
	o.mu.Lock()
	o.gatedBy[key] = recorder.QueueEvent{GatedBy: plugin, GateReasons: reasons}
	o.mu.Unlock()
}

// queueCall is one call the scheduler made on the queue (or its flush
// goroutines); the event it is about, once known.
type queueCall struct {
	mu    sync.Mutex
	event string
}

func (c *queueCall) eventLabel() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.event
}

func (c *queueCall) setEvent(ev string) {
	c.mu.Lock()
	c.event = ev
	c.mu.Unlock()
}

// queueSink reads the queue's log lines about moves and forwards every line
// to the logger the scheduler gave (next).
type queueSink struct {
	next logr.LogSink
	o    *queueObserver
	call *queueCall
}

var _ logr.LogSink = (*queueSink)(nil)

func (o *queueObserver) logger(next klog.Logger, call *queueCall) klog.Logger {
	sink := next.GetSink()
	if cd, ok := sink.(logr.CallDepthLogSink); ok {
		sink = cd.WithCallDepth(1) // a copy: lines keep the caller's file and line
	}
	return logr.New(&queueSink{next: sink, o: o, call: call})
}

// Init does nothing: the scheduler's sink was initialized by its own
// logger, and is shared (see logger for the call depth).
func (s *queueSink) Init(logr.RuntimeInfo) {}

// Enabled lets the queue's move lines (verbosity 5 and below) through to Info.
func (s *queueSink) Enabled(level int) bool {
	return level <= queueLogVerbosity || s.next != nil && s.next.Enabled(level)
}

func (s *queueSink) Info(level int, msg string, kv ...any) {
	s.o.logged(s.call, msg, kv)
	if s.next != nil && s.next.Enabled(level) {
		s.next.Info(level, msg, kv...)
	}
}

func (s *queueSink) Error(err error, msg string, kv ...any) {
	if s.next != nil {
		s.next.Error(err, msg, kv...)
	}
}

func (s *queueSink) WithValues(kv ...any) logr.LogSink {
	c := *s
	if s.next != nil {
		c.next = s.next.WithValues(kv...)
	}
	return &c
}

func (s *queueSink) WithName(name string) logr.LogSink {
	c := *s
	if s.next != nil {
		c.next = s.next.WithName(name)
	}
	return &c
}

// logged reads one of the queue's log lines (see queueLog in upstream.go).
func (o *queueObserver) logged(call *queueCall, msg string, kv []any) {
	l, ok := parseQueueLog(msg, kv)
	if !ok {
		return
	}
	switch {
	case l.checking:
		// The queue checks an event that came while the pod was in a cycle.
		call.setEvent(l.event)
	case l.skipped:
		o.skipped(call, l.key, l.event)
	default:
		o.moved(call, l.key, l.queue, l.event, l.gated)
	}
}

// queueWrapper is the scheduler's SchedulingQueue: the upstream
// PriorityQueue, with the calls the scheduler makes observed.
type queueWrapper struct {
	internalqueue.SchedulingQueue
	o *queueObserver
	e *Engine
}

func (q *queueWrapper) Run(logger klog.Logger) {
	// The flush goroutines log with this logger.
	q.SchedulingQueue.Run(q.o.logger(logger, &queueCall{}))
}

func (q *queueWrapper) Add(ctx context.Context, pod *v1.Pod) {
	q.o.sawPod(pod)
	call := &queueCall{event: framework.EventUnscheduledPodAdd.Label()}
	q.SchedulingQueue.Add(klog.NewContext(ctx, q.o.logger(klog.FromContext(ctx), call)), pod)
}

func (q *queueWrapper) Update(ctx context.Context, oldPod, newPod *v1.Pod) {
	q.o.sawPod(newPod)
	call := &queueCall{}
	q.SchedulingQueue.Update(klog.NewContext(ctx, q.o.logger(klog.FromContext(ctx), call)), oldPod, newPod)
	q.o.flushHints(call, framework.EventUnscheduledPodUpdate.Label())
}

func (q *queueWrapper) Delete(logger klog.Logger, pod *v1.Pod) {
	q.SchedulingQueue.Delete(logger, pod)
	q.o.deleted(pod, q.e.assigned(pod))
}

func (q *queueWrapper) AddUnschedulablePodIfNotPresent(logger klog.Logger, pInfo *framework.QueuedPodInfo, podSchedulingCycle int64) error {
	q.o.popped(pInfo)
	call := &queueCall{}
	err := q.SchedulingQueue.AddUnschedulablePodIfNotPresent(q.o.logger(logger, call), pInfo, podSchedulingCycle)
	q.o.flushHints(call, framework.ScheduleAttemptFailure)
	return err
}

func (q *queueWrapper) MoveAllToActiveOrBackoffQueue(logger klog.Logger, event fwk.ClusterEvent, oldObj, newObj interface{}, preCheck internalqueue.PreEnqueueCheck) {
	label := eventLabel(event)
	call := &queueCall{event: label}
	q.SchedulingQueue.MoveAllToActiveOrBackoffQueue(q.o.logger(logger, call), event, oldObj, newObj, preCheck)
	q.o.flushHints(call, label)
}

// eventLabels holds each cluster event's label: every pod and node the
// informers deliver is an event, and a label is built anew each time it
// is asked for (40 000 bound pods: 0.15 s of the one goroutine that fills
// the scheduler's cache).
var eventLabels sync.Map // fwk.ClusterEvent → string

func eventLabel(ev fwk.ClusterEvent) string {
	if l, ok := eventLabels.Load(ev); ok {
		return l.(string)
	}
	l := ev.Label()
	eventLabels.Store(ev, l)
	return l
}

func (q *queueWrapper) Activate(logger klog.Logger, pods map[string]*v1.Pod) {
	call := &queueCall{event: framework.ForceActivate}
	q.SchedulingQueue.Activate(q.o.logger(logger, call), pods)
}

// assigned reports whether the API server has pod on a node: a pod that
// leaves the queue that way was bound, not deleted.
func (e *Engine) assigned(pod *v1.Pod) bool {
	if pod.Spec.NodeName != "" {
		return true
	}
	obj, err := e.store.stored(v1.SchemeGroupVersion.WithResource("pods"), pod.Namespace, pod.Name)
	if err != nil {
		return false
	}
	p, ok := obj.(*v1.Pod)
	return ok && p.UID == pod.UID && p.Spec.NodeName != ""
}

// installQueueObserver replaces the scheduler's queue with an observed one
// and wraps the queue's hint functions.
func (e *Engine) installQueueObserver(on func(*recorder.QueueEvent)) error {
	o := newQueueObserver(e.now, on)
	if err := o.wrapPreEnqueue(e.sched.SchedulingQueue); err != nil {
		return err
	}
	if err := o.wrapQueueingHints(e.sched.SchedulingQueue); err != nil {
		return err
	}
	e.queue = o
	e.sched.SchedulingQueue = &queueWrapper{SchedulingQueue: e.sched.SchedulingQueue, o: o, e: e}
	return nil
}
