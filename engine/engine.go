package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	"k8s.io/utils/clock"

	"github.com/schedscope/schedscope/recorder"
)

// DiagnosticMode chooses when the diagnostic full-filter pass runs.
type DiagnosticMode string

// Diagnostic modes.
const (
	DiagnosticAlways        DiagnosticMode = "always"
	DiagnosticUnschedulable DiagnosticMode = "unschedulable"
	DiagnosticNever         DiagnosticMode = "never"
)

// ParseDiagnosticMode checks a --diagnostic flag value.
func ParseDiagnosticMode(s string) (DiagnosticMode, error) {
	switch m := DiagnosticMode(s); m {
	case DiagnosticAlways, DiagnosticUnschedulable, DiagnosticNever:
		return m, nil
	}
	return "", fmt.Errorf("--diagnostic must be always, unschedulable or never, not %q", s)
}

// Options configure an Engine.
type Options struct {
	// Config is the scheduler configuration; nil means kube-scheduler's default.
	Config *config.KubeSchedulerConfiguration
	// ConfigPath is recorded in the header.
	ConfigPath string
	// Diagnostic chooses when the diagnostic full-filter pass runs.
	Diagnostic DiagnosticMode
	// DisableRecording runs the bare scheduler with no wrappers (for comparisons).
	DisableRecording bool
	// OnCycle receives each finished cycle. It is called from scheduler goroutines
	// and must not block for long.
	OnCycle func(*recorder.Cycle)
	// OnQueue receives each scheduling queue event, in order. It is called
	// from scheduler goroutines, with the queue locked: it must not block for
	// long nor call the engine.
	OnQueue func(*recorder.QueueEvent)
	// SettleTimeout bounds how long one pod may take to settle.
	SettleTimeout time.Duration
	// Gate, if set, is called with the pod the scheduler has just taken from its
	// queue, before the scheduling cycle starts; it blocks to pause the engine.
	Gate func(ctx context.Context, pod recorder.PodRef) error

	// simulated gives the scheduling queue a simClock (fixture runs).
	simulated bool
}

// Engine is the upstream scheduler running in-process over a fixture.
type Engine struct {
	opts    Options
	fixture *Fixture
	client  *fake.Clientset
	sched   *scheduler.Scheduler
	rec     *recorderState
	header  recorder.Header
	cfg     *config.KubeSchedulerConfiguration

	nextStart *int
	globalPct int32

	// gated is set while the Gate holds the scheduling goroutine.
	gated atomic.Bool
	// trackerMu orders read-modify-writes of pods in the in-memory API server
	// (the bind reactor and the live mirror).
	trackerMu sync.Mutex

	informers informers.SharedInformerFactory

	// queue observes the scheduling queue; nil when recording is disabled.
	queue *queueObserver

	// clock is the queue's simulated clock; nil when it runs on the wall clock.
	clock *simClock
	// changes wakes a settling run when the scheduler's state changes;
	// podEvents counts pod events written and handled (see waitSettled).
	changes   *changes
	podEvents *podEvents
	// executors are the DefaultPreemption executors, asked whether a pod's
	// preemption is still evicting victims.
	executors []*preemption.Executor

	mu       sync.Mutex
	inFlight map[types.UID]bool
	// decided holds each pod's last finished cycle; decision is closed and
	// replaced whenever one finishes.
	decided  map[types.UID]*recorder.Cycle
	decision chan struct{}
	// nominations are the nodes pods were nominated to, as written.
	nominations *nominations
	// timeOnly marks pods whose last cycle failed with no plugin to wait for:
	// the queue retries them after backoff alone.
	timeOnly map[types.UID]bool
	// nominated holds pods whose last cycle nominated a node, until their
	// preemption has evicted its victims.
	nominated map[types.UID]bool
	pending   []*cycleRec // preempting cycles held back until their victims are known
	emitted   int
	emitting  int // cycles being handed to OnCycle
}

// New builds the scheduler over the fixture; nothing is scheduled until Run.
// The scheduling queue runs on a simulated clock: waits for backoff that a
// run would only sleep through are skipped (see simClock).
func New(ctx context.Context, fx *Fixture, opts Options) (*Engine, error) {
	opts.simulated = true
	e, err := build(ctx, fx, opts)
	if err != nil {
		return nil, err
	}
	if err := e.start(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

// build creates the scheduler over fx's objects without starting its informers.
func build(ctx context.Context, fx *Fixture, opts Options) (*Engine, error) {
	cfg := opts.Config
	if cfg == nil {
		var err error
		if cfg, err = LoadConfigFile(""); err != nil {
			return nil, err
		}
	}
	if opts.Diagnostic == "" {
		opts.Diagnostic = DiagnosticUnschedulable
	}
	if opts.SettleTimeout == 0 {
		opts.SettleTimeout = 60 * time.Second
	}
	e := &Engine{opts: opts, fixture: fx, cfg: cfg, rec: newRecorderState(), inFlight: map[types.UID]bool{},
		decided: map[types.UID]*recorder.Cycle{}, decision: make(chan struct{}), timeOnly: map[types.UID]bool{}, nominations: newNominations(),
		nominated: map[types.UID]bool{}, changes: newChanges()}
	e.podEvents = &podEvents{changes: e.changes}
	if opts.simulated {
		e.clock = newSimClock()
	}
	// The simple tracker stores objects as they are written. The field-managed one
	// (fake.NewClientset) rebuilds a REST mapper on every write, which made the
	// fake API server, not the scheduler, the bottleneck of large runs.
	e.client = fake.NewSimpleClientset(fx.Objects...)
	// An API server gives every write a new resourceVersion; the simple
	// tracker does not. The scheduler drops pod updates whose version did not
	// change, so without this a status patch (a nomination after preemption)
	// never reached the queued pod, and its retry missed the fast path.
	versioned := e.podEvents.countWrites(clienttesting.ObjectReaction(versioningTracker{ObjectTracker: e.client.Tracker(), written: e.nominations.saw}))
	e.client.PrependReactor("update", "*", versioned)
	e.client.PrependReactor("patch", "*", versioned)
	// Every pod write reaches the scheduler as one event; count them (the
	// same reaction the clientset's default reactor runs).
	written := e.podEvents.countWrites(clienttesting.ObjectReaction(e.client.Tracker()))
	e.client.PrependReactor("create", "pods", written)
	e.client.PrependReactor("delete", "pods", written)
	e.client.PrependReactor("create", "pods", e.bindReactor)
	e.client.PrependReactor("list", "*", sortedList(clienttesting.ObjectReaction(e.client.Tracker())))

	informerFactory := scheduler.NewInformerFactory(e.client, 0, nil)
	recorderFactory := func(string) events.EventRecorderLogger { return &eventRecorder{e: e} }
	var clk clock.WithTicker = clock.RealClock{}
	if e.clock != nil {
		clk = e.clock
	}
	sched, err := scheduler.New(ctx, victimClient{e.client, e}, countingFactory{informerFactory, e.podEvents}, nil, recorderFactory,
		scheduler.WithClock(clk),
		scheduler.WithComponentConfigVersion(cfg.TypeMeta.APIVersion),
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithPodMaxBackoffSeconds(cfg.PodMaxBackoffSeconds),
		scheduler.WithPodInitialBackoffSeconds(cfg.PodInitialBackoffSeconds),
		scheduler.WithExtenders(cfg.Extenders...),
		scheduler.WithParallelism(cfg.Parallelism),
	)
	if err != nil {
		return nil, fmt.Errorf("starting the scheduler: %w", err)
	}
	e.sched = sched
	if e.nextStart, err = nextStartNodeIndex(sched); err != nil {
		return nil, err
	}
	if cfg.PercentageOfNodesToScore != nil {
		e.globalPct = *cfg.PercentageOfNodesToScore
	}
	e.executors = e.preemptionExecutors()
	if err := e.installHooks(); err != nil {
		return nil, err
	}
	e.header = e.buildHeader()
	e.informers = informerFactory
	return e, nil
}

// start starts the scheduler's informers and waits until they and the
// scheduler's event handlers have caught up with the objects present.
func (e *Engine) start(ctx context.Context) error {
	e.informers.Start(ctx.Done())
	e.informers.WaitForCacheSync(ctx.Done())
	if err := e.sched.WaitForHandlersSync(ctx); err != nil {
		return fmt.Errorf("waiting for scheduler event handlers: %w", err)
	}
	return nil
}

// Header describes the engine's scheduler for a recording.
func (e *Engine) Header() recorder.Header { return e.header }

// sortedList returns lists ordered by namespace and name, as etcd returns them.
// The in-memory tracker keeps objects in a map; its order would decide the
// order nodes enter the scheduler's cache, hence which nodes a partial search
// (percentageOfNodesToScore) visits first.
func sortedList(list clienttesting.ReactionFunc) clienttesting.ReactionFunc {
	return func(action clienttesting.Action) (bool, runtime.Object, error) {
		handled, obj, err := list(action)
		if !handled || err != nil || obj == nil {
			return handled, obj, err
		}
		items, err := meta.ExtractList(obj)
		if err != nil {
			return handled, obj, nil
		}
		key := func(o runtime.Object) string {
			m, err := meta.Accessor(o)
			if err != nil {
				return ""
			}
			return m.GetNamespace() + "/" + m.GetName()
		}
		sort.SliceStable(items, func(i, j int) bool { return key(items[i]) < key(items[j]) })
		if err := meta.SetList(obj, items); err != nil {
			return handled, obj, nil
		}
		return true, obj, nil
	}
}

// bindReactor does what the API server does for a pods/binding create.
func (e *Engine) bindReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	if action.GetSubresource() != "binding" {
		return false, nil, nil
	}
	b, ok := action.(clienttesting.CreateAction).GetObject().(*v1.Binding)
	if !ok {
		return true, nil, errors.New("binding: unexpected object")
	}
	e.trackerMu.Lock()
	defer e.trackerMu.Unlock()
	obj, err := e.client.Tracker().Get(v1.SchemeGroupVersion.WithResource("pods"), b.Namespace, b.Name)
	if err != nil {
		return true, nil, err
	}
	pod := obj.(*v1.Pod).DeepCopy()
	if pod.Spec.NodeName != "" {
		return true, nil, fmt.Errorf("pod %s/%s is already assigned to node %q", pod.Namespace, pod.Name, pod.Spec.NodeName)
	}
	pod.Spec.NodeName = b.Target.Name
	setCondition(pod, v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue, LastTransitionTime: metav1.Now()})
	bumpVersion(&pod.ObjectMeta)
	undo := e.podEvents.writing()
	if err := e.client.Tracker().Update(v1.SchemeGroupVersion.WithResource("pods"), pod, pod.Namespace); err != nil {
		undo()
		return true, nil, err
	}
	return true, b, nil
}

// versioningTracker gives each updated or patched object a new resourceVersion,
// and shows each written object to written.
type versioningTracker struct {
	clienttesting.ObjectTracker
	written func(runtime.Object)
}

func (t versioningTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	if m, err := metaOf(obj); err == nil {
		bumpVersion(m)
	}
	if err := t.ObjectTracker.Update(gvr, obj, ns, opts...); err != nil {
		return err
	}
	t.written(obj)
	return nil
}

func (t versioningTracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	if m, err := metaOf(obj); err == nil {
		bumpVersion(m)
	}
	if err := t.ObjectTracker.Patch(gvr, obj, ns, opts...); err != nil {
		return err
	}
	t.written(obj)
	return nil
}

// nominations remembers the nodes pods were nominated to, as their status
// patches are written.
type nominations struct {
	mu      sync.Mutex
	nodes   map[string]bool
	changed chan struct{} // closed and replaced on every new nomination
}

func newNominations() *nominations {
	return &nominations{nodes: map[string]bool{}, changed: make(chan struct{})}
}

func (n *nominations) saw(obj runtime.Object) {
	p, ok := obj.(*v1.Pod)
	if !ok || p.Status.NominatedNodeName == "" {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.nodes[p.Status.NominatedNodeName] {
		n.nodes[p.Status.NominatedNodeName] = true
		close(n.changed)
		n.changed = make(chan struct{})
	}
}

// waitFor waits, at most d, until a pod was nominated to node.
func (n *nominations) waitFor(node string, d time.Duration) {
	deadline := time.After(d)
	for {
		n.mu.Lock()
		ok, ch := n.nodes[node], n.changed
		n.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			return
		}
	}
}

// victimClient is the client the scheduler is given: the in-memory API
// server's, except that deleting a preemption victim first waits until the
// preemptor's nomination to the victim's node is written. In a cluster a
// victim leaves only after its graceful termination, long after the
// preemptor's status patch; the in-memory API server deletes at once, and
// the preemptor could be retried before its queued copy carried the
// nomination, missing the nominated-node fast path. Preemption deletes on
// its own goroutine, so the wait holds no scheduling cycle; it is bounded in
// case no nomination comes.
type victimClient struct {
	*fake.Clientset
	e *Engine
}

func (c victimClient) CoreV1() corev1client.CoreV1Interface {
	return victimCoreV1{c.Clientset.CoreV1(), c.e}
}

type victimCoreV1 struct {
	corev1client.CoreV1Interface
	e *Engine
}

func (c victimCoreV1) Pods(namespace string) corev1client.PodInterface {
	return victimPods{c.CoreV1Interface.Pods(namespace), namespace, c.e}
}

type victimPods struct {
	corev1client.PodInterface
	namespace string
	e         *Engine
}

func (p victimPods) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	obj, err := p.e.client.Tracker().Get(v1.SchemeGroupVersion.WithResource("pods"), p.namespace, name)
	if pod, ok := obj.(*v1.Pod); err == nil && ok && pod.Spec.NodeName != "" && preempted(pod) {
		p.e.nominations.waitFor(pod.Spec.NodeName, 5*time.Second)
		// The "Preempted" event that names the preemptor comes after the
		// deletion, possibly after the preemptor's cycle was handed on:
		// record the victim now, on the cycle that nominated its node.
		if c := p.e.preemptorOn(pod.Spec.NodeName); c != nil {
			c.addVictim(podRef(pod))
		}
	}
	return p.PodInterface.Delete(ctx, name, opts)
}

// preemptorOn returns the latest cycle, held or still running, whose
// preemption nominated node.
func (e *Engine) preemptorOn(node string) *cycleRec {
	e.mu.Lock()
	cands := slices.Clone(e.pending)
	e.mu.Unlock()
	e.rec.mu.Lock()
	for _, c := range e.rec.byUID {
		cands = append(cands, c)
	}
	e.rec.mu.Unlock()
	var best *cycleRec
	for _, c := range cands {
		c.mu.Lock()
		ok := c.c.PostFilter != nil && c.c.PostFilter.NominatedNode == node
		c.mu.Unlock()
		if ok && (best == nil || c.c.Seq > best.c.Seq) {
			best = c
		}
	}
	return best
}

// preempted reports whether the scheduler marked p as a preemption victim.
func preempted(p *v1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == v1.DisruptionTarget && c.Reason == v1.PodReasonPreemptionByScheduler {
			return true
		}
	}
	return false
}

func bumpVersion(m *metav1.ObjectMeta) {
	n, _ := strconv.Atoi(m.ResourceVersion)
	m.ResourceVersion = strconv.Itoa(n + 1)
}

func setCondition(p *v1.Pod, c v1.PodCondition) {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == c.Type {
			p.Status.Conditions[i] = c
			return
		}
	}
	p.Status.Conditions = append(p.Status.Conditions, c)
}

// installHooks wraps the scheduler's replaceable functions and, unless recording
// is disabled, every profile's framework and plugins.
func (e *Engine) installHooks() error {
	s := e.sched
	origNext := s.NextEntity
	s.NextEntity = func(logger klog.Logger) (framework.QueuedEntityInfo, error) {
		ent, err := origNext(logger)
		if pi, ok := ent.(*framework.QueuedPodInfo); ok && pi != nil && pi.Pod != nil {
			if e.queue != nil {
				e.queue.popped(pi)
			}
			e.mu.Lock()
			e.inFlight[pi.Pod.UID] = true
			delete(e.timeOnly, pi.Pod.UID)
			e.mu.Unlock()
			e.changes.kick()
			if e.opts.Gate != nil {
				e.gated.Store(true)
				gerr := e.opts.Gate(context.Background(), podRef(pi.Pod))
				e.gated.Store(false)
				if gerr != nil {
					return nil, gerr
				}
			}
		}
		return ent, err
	}
	origFail := s.FailureHandler
	s.FailureHandler = func(ctx context.Context, fw framework.Framework, podInfo *framework.QueuedPodInfo, status *fwk.Status, ni *fwk.NominatingInfo, start time.Time) {
		c := e.rec.cycleFor(podInfo.Pod)
		// A failure no plugin rejected (an error, no nodes at all) is retried
		// after backoff alone, with the same result, for as long as the
		// scheduler runs. Both marks are set before the queue has the pod
		// back: an event may requeue and pop it at once.
		timeOnly := true
		var fitErr *framework.FitError
		if errors.As(status.AsError(), &fitErr) {
			timeOnly = fitErr.Diagnosis.UnschedulablePlugins.Len() == 0 && fitErr.Diagnosis.PendingPlugins.Len() == 0
		}
		e.mu.Lock()
		e.timeOnly[podInfo.Pod.UID] = timeOnly
		if ni != nil && ni.Mode() == fwk.ModeOverride && ni.NominatedNodeName != "" {
			e.nominated[podInfo.Pod.UID] = true
		}
		e.mu.Unlock()
		origFail(ctx, fw, podInfo, status, ni, start)
		if c != nil {
			e.finishFailed(c, status, ni)
		}
		e.settled(podInfo.Pod.UID)
	}
	if e.opts.DisableRecording {
		return nil
	}
	if err := e.installQueueObserver(e.opts.OnQueue); err != nil {
		return err
	}
	for i, ext := range s.Extenders {
		s.Extenders[i] = &extenderWrapper{Extender: ext, r: e.rec}
	}
	for name, fw := range s.Profiles {
		if err := e.rec.installPluginWrappers(fw); err != nil {
			return err
		}
		s.Profiles[name] = &boundFramework{recordingFramework{Framework: fw, r: e.rec}, e}
	}
	origSchedule := s.SchedulePod
	s.SchedulePod = func(ctx context.Context, fw framework.Framework, state fwk.CycleState, podInfo *framework.QueuedPodInfo) (scheduler.ScheduleResult, error) {
		c := e.startCycle(fw, state, podInfo)
		res, err := origSchedule(ctx, fw, state, podInfo)
		e.endAlgorithm(c, fw, res, err)
		return res, err
	}
	return nil
}

// boundFramework completes a cycle when its PostBind plugins have run.
type boundFramework struct {
	recordingFramework
	e *Engine
}

func (f *boundFramework) RunPostBindPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) {
	start := time.Now()
	f.Framework.RunPostBindPlugins(ctx, state, pod, nodeName)
	if c := f.r.cycleFor(pod); c != nil {
		c.timePhase(recorder.PhasePostBind, start)
		c.c.Outcome = recorder.Outcome{Result: recorder.ResultBound, Node: nodeName}
		f.e.finish(c)
	}
}

func (e *Engine) settled(uid types.UID) {
	e.mu.Lock()
	delete(e.inFlight, uid)
	e.mu.Unlock()
	e.changes.kick()
}

func (e *Engine) startCycle(fw framework.Framework, state fwk.CycleState, podInfo *framework.QueuedPodInfo) *cycleRec {
	e.flushPending(podInfo.Pod.UID)
	nodes, _ := fw.SnapshotSharedLister().NodeInfos().List()
	r := e.rec
	r.mu.Lock()
	r.seq++
	seq := r.seq
	set := r.nodeSetFor(nodes)
	index := r.nodeIndex
	use := r.nodeUseFor(nodes)
	r.mu.Unlock()
	c := &cycleRec{
		c: &recorder.Cycle{
			Seq:         seq,
			Pod:         podRef(podInfo.Pod),
			Profile:     fw.ProfileName(),
			Attempt:     podInfo.Attempts,
			Start:       e.now(),
			Nodes:       set,
			NodeSetID:   set.ID,
			NodeUse:     use,
			SearchStart: *e.nextStart,
			NodesToFind: e.nodesToFind(fw, len(nodes)),
		},
		uid:        podInfo.Pod.UID,
		started:    time.Now(),
		state:      state,
		nodeIndex:  index,
		results:    getResults(len(nodes)),
		normalized: map[string][]int64{},
		normNanos:  map[string]time.Duration{},
	}
	pp := r.pluginsOf(fw)
	c.weights, c.scoreIndex, c.filterIndex, c.filterPlugins = pp.weights, pp.scoreIndex, pp.filterIndex, pp.filter
	c.scoreTimers = make([]callTimer, len(pp.scoreIndex))
	c.filterTimers = make([]callTimer, len(c.filterPlugins))
	c.timeAll = len(nodes) <= timeAllNodes
	r.mu.Lock()
	r.byUID[c.uid] = c
	r.mu.Unlock()
	r.current.Store(c)
	return c
}

// nodesToFind is how many feasible nodes the search of fw stops after, as
// the scheduler computes it (see numFeasibleNodesToFind in upstream.go).
func (e *Engine) nodesToFind(fw framework.Framework, numAll int) int {
	pct := e.globalPct
	if p := fw.PercentageOfNodesToScore(); p != nil {
		pct = *p
	}
	return numFeasibleNodesToFind(numAll, pct)
}

// endAlgorithm assembles Filter, Score and Selection once SchedulePod returns.
func (e *Engine) endAlgorithm(c *cycleRec, fw framework.Framework, res scheduler.ScheduleResult, err error) {
	if c.phaseIs(phaseFilter) && !c.phaseStart.IsZero() {
		c.timePhase(recorder.PhaseFilter, c.phaseStart)
	}
	c.setPhase(phaseIdle)
	c.mu.Lock()
	defer c.mu.Unlock()
	cy := c.c
	fp := &recorder.FilterPhase{Plugins: c.filterPlugins, Feasible: []int{}}
	skip := c.state.GetSkipFilterPlugins()
	skipped := make([]bool, len(c.filterPlugins))
	for i, p := range c.filterPlugins {
		if skip.Has(p) {
			skipped[i] = true
			fp.Skipped = append(fp.Skipped, p)
		}
	}
	// A plugin ran on every evaluated node up to the plugin that rejected it:
	// count the nodes by the last plugin they reached, and sum from the end.
	fp.Calls = make([]int, len(c.filterPlugins))
	reached := make([]int, len(c.filterPlugins))
	ranUpTo := func(last int) {
		if last >= len(reached) {
			last = len(reached) - 1
		}
		if last >= 0 {
			reached[last]++
		}
	}
	var passed []int
	for i, r := range c.results {
		switch r.state {
		case 1:
			passed = append(passed, i)
			ranUpTo(len(fp.Calls) - 1)
		case 2:
			fp.Evaluated++
			pi := -1
			if idx, ok := c.filterIndex[r.status.Plugin()]; ok {
				pi = idx
			}
			reasons := r.status.Reasons()
			if len(reasons) == 0 && r.status.AsError() != nil {
				reasons = []string{r.status.AsError().Error()}
			}
			fp.Rejected = append(fp.Rejected, recorder.NodeStatus{Node: i, Plugin: pi, Code: r.status.Code().String(), Reasons: reasons})
			if pi < 0 {
				pi = len(fp.Calls) - 1
			}
			ranUpTo(pi)
		}
	}
	for i, n := len(reached)-1, 0; i >= 0; i-- {
		n += reached[i]
		if !skipped[i] {
			fp.Calls[i] = n
		}
	}
	fp.Durations = make([]time.Duration, len(c.filterPlugins))
	for i := range c.filterPlugins {
		fp.Durations[i] = c.filterTimers[i].total(fp.Calls[i])
	}
	fp.Evaluated += len(passed)
	passed = c.applyExtenderFilters(fp, passed)
	switch {
	case c.scoreNodes != nil:
		fp.Feasible = c.scoreNodes
	case err == nil && res.SuggestedHost != "" && (cy.FastPath == nil || !cy.FastPath.Feasible):
		fp.Feasible = []int{c.nodeIndex[res.SuggestedHost]}
	}
	inFeasible := map[int]bool{}
	for _, i := range fp.Feasible {
		inFeasible[i] = true
	}
	n := len(c.results)
	// The filter pass is over: no wrapper writes results any more.
	putResults(c.results)
	c.results = nil
	for _, i := range passed {
		if !inFeasible[i] {
			fp.Discarded = append(fp.Discarded, i)
		}
	}
	// Order discarded nodes by search order, as the scheduler walked them.
	sort.Slice(fp.Discarded, func(a, b int) bool {
		return (fp.Discarded[a]-cy.SearchStart+n)%n < (fp.Discarded[b]-cy.SearchStart+n)%n
	})
	if fp.Evaluated > 0 || cy.FastPath == nil || !cy.FastPath.Feasible {
		cy.Filter = fp
	}
	if err == nil && res.SuggestedHost != "" {
		cy.Selection = selection(cy, res.SuggestedHost, c.nodeIndex)
	}
	var fitErr *framework.FitError
	if mode := e.opts.Diagnostic; mode == DiagnosticAlways || (mode == DiagnosticUnschedulable && errors.As(err, &fitErr)) {
		cy.Diagnostic = e.diagnosticPass(fw, c)
	}
}

func selection(cy *recorder.Cycle, host string, index map[string]int) *recorder.Selection {
	s := &recorder.Selection{Node: host}
	switch {
	case cy.FastPath != nil && cy.FastPath.Feasible:
		s.Rule = recorder.RuleFastPath
		return s
	case cy.Score == nil || len(cy.Score.Totals) == 0:
		s.Rule = recorder.RuleOnlyFeasible
		return s
	}
	best := cy.Score.Totals[0]
	for _, t := range cy.Score.Totals {
		best = max(best, t)
	}
	for i, t := range cy.Score.Totals {
		if t == best {
			s.Top = append(s.Top, cy.Score.Nodes[i])
		}
	}
	s.Best = best
	s.Rule = recorder.RuleHighestScore
	if len(s.Top) > 1 {
		s.Rule = recorder.RuleTie
	}
	return s
}

// diagnosticPass runs every filter plugin on every node against a copy of the
// cycle state, beyond the first failure. It changes nothing the scheduler uses.
func (e *Engine) diagnosticPass(fw framework.Framework, c *cycleRec) *recorder.DiagnosticFilter {
	v, err := frameworkStruct(unwrap(fw))
	if err != nil {
		return nil
	}
	plugins, err := pluginSlice[fwk.FilterPlugin](v, "filterPlugins")
	if err != nil {
		return nil
	}
	nodes, _ := fw.SnapshotSharedLister().NodeInfos().List()
	state := c.state.Clone()
	skip := state.GetSkipFilterPlugins()
	d := &recorder.DiagnosticFilter{Plugins: c.filterPlugins}
	pod := c.podForDiagnostic(fw)
	if pod == nil {
		return nil
	}
	for ni, node := range nodes {
		for pi, pl := range *plugins {
			if skip.Has(pl.Name()) {
				d.Cells = append(d.Cells, recorder.DiagnosticCell{Node: ni, Plugin: pi, Code: recorder.CodeSkip})
				continue
			}
			inner := pl
			if w, ok := pl.(*filterWrapper); ok {
				inner = w.FilterPlugin
			}
			st := inner.Filter(context.Background(), state, pod, node)
			if !st.IsSuccess() {
				d.Cells = append(d.Cells, recorder.DiagnosticCell{Node: ni, Plugin: pi, Code: st.Code().String(), Reasons: st.Reasons()})
			}
		}
	}
	return d
}

func unwrap(fw framework.Framework) framework.Framework {
	if b, ok := fw.(*boundFramework); ok {
		return b.Framework
	}
	return fw
}

func (c *cycleRec) podForDiagnostic(fw framework.Framework) *v1.Pod {
	pod, err := fw.SharedInformerFactory().Core().V1().Pods().Lister().Pods(c.c.Pod.Namespace).Get(c.c.Pod.Name)
	if err != nil {
		return nil
	}
	return pod
}

func (e *Engine) finishFailed(c *cycleRec, status *fwk.Status, ni *fwk.NominatingInfo) {
	out := recorder.Outcome{Result: recorder.ResultError, Reason: v1.PodReasonSchedulerError, Message: status.Message()}
	if status.IsRejected() {
		out.Result, out.Reason = recorder.ResultUnschedulable, v1.PodReasonUnschedulable
	}
	if ni != nil && ni.Mode() == fwk.ModeOverride {
		out.NominatedNode = ni.NominatedNodeName
	}
	c.c.Outcome = out
	e.finish(c)
}

// finish completes a cycle. A cycle that preempted is held until the pod's next
// cycle starts or the engine settles, so the victims evicted asynchronously are in it.
func (e *Engine) finish(c *cycleRec) {
	c.mu.Lock()
	if c.done {
		c.mu.Unlock()
		return
	}
	c.done = true
	c.c.Duration = time.Since(c.started)
	hold := c.postFilter && c.c.PostFilter != nil && c.c.PostFilter.NominatedNode != ""
	c.mu.Unlock()
	if !e.opts.simulated {
		// Live mode waits for the engine's decision on a pod; a fixture run
		// never asks, and keeping each pod's cycle would hold the run in memory.
		e.mu.Lock()
		e.decided[c.uid] = c.c
		close(e.decision)
		e.decision = make(chan struct{})
		e.mu.Unlock()
	}
	e.rec.current.CompareAndSwap(c, nil)
	if hold {
		e.mu.Lock()
		e.pending = append(e.pending, c)
		e.mu.Unlock()
		e.changes.kick()
		return
	}
	e.emit(c)
}

func (e *Engine) emit(c *cycleRec) {
	e.mu.Lock()
	e.emitted++
	e.emitting++
	e.mu.Unlock()
	e.rec.mu.Lock()
	if e.rec.byUID[c.uid] == c {
		delete(e.rec.byUID, c.uid)
	}
	e.rec.mu.Unlock()
	if e.opts.OnCycle != nil {
		e.opts.OnCycle(c.c)
	}
	e.mu.Lock()
	e.emitting--
	e.mu.Unlock()
	e.changes.kick()
}

// flushPending emits held cycles of uid (all of them when uid is empty).
func (e *Engine) flushPending(uid types.UID) {
	e.mu.Lock()
	var out, keep []*cycleRec
	for _, c := range e.pending {
		if uid == "" || c.uid == uid {
			out = append(out, c)
		} else {
			keep = append(keep, c)
		}
	}
	e.pending = keep
	e.mu.Unlock()
	for _, c := range out {
		e.emit(c)
	}
}

// eventRecorder drops events except "Preempted", which names a victim and its preemptor.
type eventRecorder struct {
	events.FakeRecorder
	e *Engine
}

func (r *eventRecorder) Eventf(regarding runtime.Object, related runtime.Object, eventtype, reason, action, note string, args ...interface{}) {
	if reason != "Preempted" {
		return
	}
	victim, ok1 := regarding.(*v1.Pod)
	// The preemption executor passes a wrapper of the preemptor pod.
	preemptor, ok2 := related.(interface{ GetUID() types.UID })
	if !ok1 || !ok2 {
		return
	}
	r.e.mu.Lock()
	var target *cycleRec
	for _, c := range r.e.pending {
		if c.uid == preemptor.GetUID() {
			target = c
		}
	}
	r.e.mu.Unlock()
	if target == nil {
		target = r.e.rec.cycleFor(&v1.Pod{ObjectMeta: metav1.ObjectMeta{UID: preemptor.GetUID()}})
	}
	if target != nil {
		target.addVictim(podRef(victim))
	}
}

func (r *eventRecorder) WithLogger(klog.Logger) events.EventRecorderLogger { return r }

// buildHeader lists each profile's plugins per extension point, as instantiated.
func (e *Engine) buildHeader() recorder.Header {
	h := recorder.Header{
		SchedscopeVersion: Version,
		KubernetesVersion: KubernetesVersion,
		Created:           time.Now().UTC(),
		Source:            recorder.Source{Kind: "fixture", Name: e.fixture.Name, Config: e.opts.ConfigPath},
		Clock:             recorder.ClockWall,
	}
	if e.clock != nil {
		h.Clock = recorder.ClockSimulated
	}
	names := make([]string, 0, len(e.sched.Profiles))
	for n := range e.sched.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fw := e.sched.Profiles[n]
		p := recorder.Profile{SchedulerName: n, PercentageOfNodesToScore: e.globalPct}
		if pct := fw.PercentageOfNodesToScore(); pct != nil {
			p.PercentageOfNodesToScore = *pct
		}
		pl := fw.ListPlugins()
		for _, ep := range []struct {
			name string
			set  *config.PluginSet
		}{
			{"PreEnqueue", &pl.PreEnqueue}, {"QueueSort", &pl.QueueSort},
			{recorder.PhasePreFilter, &pl.PreFilter}, {recorder.PhaseFilter, &pl.Filter},
			{recorder.PhasePostFilter, &pl.PostFilter}, {recorder.PhasePreScore, &pl.PreScore},
			{recorder.PhaseScore, &pl.Score}, {recorder.PhaseReserve, &pl.Reserve},
			{recorder.PhasePermit, &pl.Permit}, {recorder.PhasePreBind, &pl.PreBind},
			{recorder.PhaseBind, &pl.Bind}, {recorder.PhasePostBind, &pl.PostBind},
		} {
			x := recorder.ExtensionPoint{Name: ep.name}
			for _, p := range ep.set.Enabled {
				x.Plugins = append(x.Plugins, recorder.PluginRef{Name: p.Name, Weight: p.Weight})
			}
			if len(x.Plugins) > 0 {
				p.ExtensionPoints = append(p.ExtensionPoints, x)
			}
		}
		h.Profiles = append(h.Profiles, p)
	}
	return h
}

// openCycles counts cycles whose binding cycle has not finished yet (held
// preempting cycles are finished) or that are being handed to OnCycle. Call
// with e.mu held.
func (e *Engine) openCycles() int {
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	n := e.emitting
	for _, c := range e.rec.byUID {
		if !slices.Contains(e.pending, c) {
			n++
		}
	}
	return n
}

// QueueCounts returns how many pods wait in the scheduling queue's active and
// backoff queues.
func (e *Engine) QueueCounts() (active, backoff int) { return e.queueCounts() }

// queueCounts counts the pods in the scheduling queue's activeQ and backoffQ.
func (e *Engine) queueCounts() (active, backoff int) {
	q := e.sched.SchedulingQueue
	return len(q.PodsInActiveQ()), len(q.PodsInBackoffQ())
}

// retrying counts the pods in backoffQ that a run waits for: every pod but
// those whose last cycle failed with no plugin to wait for. The scheduler
// retries those after backoff alone, with the same inputs and the same result,
// for as long as it runs (a cluster with no nodes, an unreachable extender):
// their cycle is the answer. A pod an event moved to backoffQ (a preemptor
// whose victims are gone) is waited for.
func (e *Engine) retrying() int {
	n := 0
	for _, p := range e.sched.SchedulingQueue.PodsInBackoffQ() {
		e.mu.Lock()
		timeOnly := e.timeOnly[p.UID]
		e.mu.Unlock()
		if !timeOnly {
			n++
		}
	}
	return n
}
