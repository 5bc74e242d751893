package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	"k8s.io/utils/clock"

	"github.com/schedscope/schedscope/engine/controllers"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

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
	// OnPodGroup receives each finished pod-group cycle (pod_group_cycle.go),
	// from the scheduling goroutine, as the cycle ends: its members' failed
	// cycles were handed to OnCycle before it, its bound members' cycles
	// come once they are bound. It must not block for long nor call the
	// engine.
	OnPodGroup func(*recorder.PodGroupCycle)
	// SettleTimeout bounds how long one pod may take to settle.
	SettleTimeout time.Duration
	// ArrivalInterval spaces Run's arrivals: each pending pod is created this
	// long after the scheduler settled on the one before, as a client that
	// waits for each binding does. It is waited on the wall clock, which
	// kube-scheduler's opportunistic batching reads to expire a stored ranking
	// (maxBatchAge, 500 ms): pods arriving at once reuse it for as long as it
	// lasts, pods 300 ms apart every other time. Zero means at once.
	ArrivalInterval time.Duration
	// Gate, if set, is called with the pod the scheduler has just taken from its
	// queue, before the scheduling cycle starts; it blocks to pause the engine.
	Gate func(ctx context.Context, pod recorder.PodRef) error
	// OnDecided, if set, receives each cycle as it finishes: before OnCycle,
	// which a cycle that preempted reaches only once its victims are known
	// (or FlushHeld hands it over). A mirror waits on it for the engine's
	// decision on a pod the cluster has bound. It is called from scheduler
	// goroutines and must not block for long nor call the engine.
	OnDecided func(*recorder.Cycle)
	// FeatureGates, if not nil, are the feature gates the run was set up
	// with, as featuregates.NonDefault said then (a fork's are its run's):
	// the engine refuses to start when the process's differ. The gates
	// themselves are set process-wide, before a fixture is loaded
	// (featuregates.Set); nil runs under whatever the process has.
	FeatureGates map[string]bool
	// Story, if set, names the pending pods whose story alone is asked for
	// (explain --pod): Run stops once nothing left to happen could change
	// it (see storyCheck).
	Story func(*v1.Pod) bool

	// simulated gives the scheduling queue a simClock (fixture runs), and
	// keeps what a run needs to know when the scheduler has settled. A
	// simulated run has a cluster beside the scheduler (engine/controllers):
	// all of it, or in a fork only its volumes and kubelet (forked).
	simulated bool
	forked    bool
}

// Engine is the upstream scheduler running in-process over a fixture.
type Engine struct {
	opts    Options
	fixture *fixture.Fixture
	client  *fake.Clientset
	store   *store
	sched   *scheduler.Scheduler
	trace   *traceState
	header  recorder.Header
	cfg     *config.KubeSchedulerConfiguration

	nextStart *int
	globalPct int32

	// gated is set while the Gate holds the scheduling goroutine.
	gated atomic.Bool
	// trackerMu orders read-modify-writes of pods in the in-memory API server
	// (the bind reactor and the live mirror).
	trackerMu sync.Mutex
	versions  *versions

	informers informers.SharedInformerFactory

	// queue observes the scheduling queue; nil when recording is disabled.
	queue *queueObserver

	// clock is the queue's simulated clock; nil when it runs on the wall clock.
	clock *simClock
	// changes wakes a settling run when the scheduler's state changes;
	// events counts the events written and handled (see waitSettled).
	changes *changes
	events  *objectEvents
	// executors are the DefaultPreemption executors, asked whether a pod's
	// preemption is still evicting victims.
	executors []*preemption.Executor
	// ctrls are the controllers beside the scheduler (nil in live mode);
	// admitter admits what they create.
	ctrls    *controllers.Set
	admitter *fixture.Admitter
	// arrivals holds the pods the controllers make until they arrive in
	// order; workloadDocs ranks them by their workload's document
	// (kind/namespace/name to index). Fixture runs only.
	arrivals     *arrivals
	workloadDocs map[string]int

	mu       sync.Mutex
	inFlight map[types.UID]bool
	// nominations are the nodes pods were nominated to, as written.
	nominations *nominations
	// timeOnly marks pods whose last cycle failed with no plugin to wait for:
	// the queue retries them after backoff alone. Fixture runs only.
	timeOnly map[types.UID]bool
	// nominated holds pods whose last cycle nominated a node, until their
	// preemption has evicted its victims. Fixture runs only.
	nominated map[types.UID]bool
	pending   []*cycleTrace // preempting cycles held back until their victims are known
	// terminating holds preemption victims in their grace period (fixture
	// runs only); stopped ends their wait with the engine's context.
	terminating *terminations
	stopped     <-chan struct{}
	emitted     int
	emitting    int // cycles being handed to OnCycle
	// group is the pod-group cycle running, if any; groupSeq numbers them.
	group    atomic.Pointer[groupTrace]
	groupSeq int
	// groupOpen is set from a recorded pod-group cycle's start until it
	// has been handed to OnPodGroup: a run has not settled before (a
	// bound group's members may finish binding first).
	groupOpen atomic.Bool
}

// identitySeed draws the names and UIDs of what a run's controllers create
// (fixture.NewAdmitter). It is the same for every run, so a generated name
// depends on the object alone: a change elsewhere in a fixture leaves the
// names of a workload's pods as they were.
const identitySeed = "schedscope"

// New builds the scheduler over the fixture; nothing is scheduled until Run.
// The scheduling queue runs on a simulated clock: waits for backoff that a
// run would only sleep through are skipped (see simClock).
func New(ctx context.Context, fx *fixture.Fixture, opts Options) (*Engine, error) {
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
func build(ctx context.Context, fx *fixture.Fixture, opts Options) (*Engine, error) {
	if err := checkFeatureGates(opts); err != nil {
		return nil, err
	}
	cfg := opts.Config
	if cfg == nil {
		var err error
		if cfg, err = LoadConfigFile(""); err != nil {
			return nil, err
		}
	}
	if err := checkPluginsPresent(cfg); err != nil {
		return nil, err
	}
	if opts.Diagnostic == "" {
		opts.Diagnostic = DiagnosticUnschedulable
	}
	if opts.SettleTimeout == 0 {
		opts.SettleTimeout = 60 * time.Second
	}
	e := &Engine{opts: opts, fixture: fx, cfg: cfg, trace: newTraceState(), inFlight: map[types.UID]bool{},
		timeOnly: map[types.UID]bool{}, nominations: newNominations(),
		nominated: map[types.UID]bool{}, changes: newChanges()}
	e.events = newObjectEvents(e.changes)
	e.terminating, e.stopped = newTerminations(e.changes), ctx.Done()
	if opts.simulated {
		e.clock = newSimClock()
	}
	// The clientset's reactions read and write the store (store.go), which
	// keeps one copy of each object and shares the fixture's. (client-go's
	// field-managed tracker rebuilt a REST mapper on every write; its simple
	// one copied every object on each list and watch event.)
	e.store = newStore()
	if err := e.store.adopt(fx.Objects); err != nil {
		return nil, err
	}
	e.client = fake.NewSimpleClientset()
	e.client.PrependReactor("*", "*", clienttesting.ObjectReaction(e.store))
	e.client.PrependWatchReactor("*", e.store.watchReaction)
	// An API server gives every write a new resourceVersion; the simple
	// tracker does not. The scheduler drops pod updates whose version did not
	// change, so without this a status patch (a nomination after preemption)
	// never reached the queued pod, and its retry missed the fast path.
	e.versions = newVersions(opts.simulated, fx.Objects)
	tracker := versioningTracker{ObjectTracker: e.store, versions: e.versions, written: e.nominations.saw}
	versioned := e.events.countWrites(clienttesting.ObjectReaction(tracker))
	e.client.PrependReactor("update", "*", versioned)
	e.client.PrependReactor("patch", "*", versioned)
	// Every write reaches the scheduler as one event; count them (the
	// same reaction the clientset's default reactor runs).
	written := e.events.countWrites(clienttesting.ObjectReaction(tracker))
	e.client.PrependReactor("create", "*", written)
	e.client.PrependReactor("delete", "*", written)
	e.client.PrependReactor("create", "pods", e.bindReactor)
	if opts.simulated {
		var err error
		if e.admitter, err = fixture.NewAdmitter(fx.Objects, identitySeed); err != nil {
			return nil, err
		}
		context.AfterFunc(ctx, e.admitter.Close)
		e.admitter.Reserve(len(fx.Pending) + len(fx.Steps))
		e.client.PrependReactor("update", "*", e.updateReactor)
		e.client.PrependReactor("create", "*", admitReactor(e.admitter))
		for _, verb := range []string{"create", "update", "patch"} {
			e.client.PrependReactor(verb, "events", dropEvents)
		}
	}

	informerFactory := newInformerFactory(schedulerClient{e.client, e}, e.store.podList)
	if opts.simulated && !opts.forked {
		e.workloadDocs = map[string]int{}
		for i, d := range fx.Documents {
			if kind := fixture.KindName(d.Object); fixture.IsWorkload(kind) {
				if m, err := metaOf(d.Object); err == nil {
					key := kind + "/" + m.Namespace + "/" + m.Name
					if _, ok := e.workloadDocs[key]; !ok {
						e.workloadDocs[key] = i
					}
				}
			}
		}
		e.arrivals = newArrivals(e.arrivalRank)
	}
	recorderFactory := func(string) events.EventRecorderLogger { return &eventRecorder{e: e} }
	var clk clock.WithTicker = clock.RealClock{}
	if e.clock != nil {
		clk = e.clock
	}
	// The scheduler sees the pods as kube-scheduler's informer lists and
	// watches them, without finished ones; the controllers see them all
	// (unfinished, settle.go).
	sched, err := scheduler.New(ctx, schedulerClient{e.client, e}, countingFactory{SharedInformerFactory: informerFactory, p: e.events, scheduler: true, arrivals: e.arrivals}, nil, recorderFactory,
		scheduler.WithClock(clk),
		scheduler.WithComponentConfigVersion(cfg.TypeMeta.APIVersion),
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithFrameworkOutOfTreeRegistry(outOfTreeRegistry()),
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
	if opts.simulated {
		which := controllers.All&^controllers.Workloads | controllers.WorkloadsFor(fixtureKinds(fx))
		outside, owned := ownersOutside(fx)
		switch {
		case opts.forked:
			which = controllers.Volumes | controllers.Kubelet
		case !owned || !deletes(fx):
			// Nothing for it to collect: only a timeline's deletion leaves
			// dependents without their owner (a controller deletes pods,
			// or a ReplicaSet already scaled to none). Running it anyway
			// costs a workload's scale-up its graph of every pod.
			which &^= controllers.GarbageCollector
		}
		if e.ctrls, err = controllers.New(controllerContext(ctx), controllers.Deps{Client: e.client,
			Informers: countingFactory{SharedInformerFactory: informerFactory, p: e.events}, Changed: e.changes.kick, Run: which, Outside: outside}); err != nil {
			return nil, err
		}
	}
	if err := e.installHooks(); err != nil {
		return nil, err
	}
	e.trace.devices = e.deviceShortfalls
	e.header = e.buildHeader()
	e.informers = informerFactory
	return e, nil
}

// start starts the scheduler's informers and waits until they and the
// scheduler's event handlers have caught up with the objects present.
func (e *Engine) start(ctx context.Context) error {
	e.informers.Start(ctx.Done())
	// The counted handlers (the scheduler's and the controllers') are
	// waited for first, each checked every millisecond: the upstream waits
	// below check every 100 ms, and, asked once these have caught up, find
	// what they wait for done on their first look.
	if err := e.events.waitSynced(ctx); err != nil {
		return fmt.Errorf("waiting for the scheduler's and the controllers' event handlers: %w", err)
	}
	e.informers.WaitForCacheSync(ctx.Done())
	if err := e.sched.WaitForHandlersSync(ctx); err != nil {
		return fmt.Errorf("waiting for scheduler event handlers: %w", err)
	}
	return nil
}

// Header describes the engine's scheduler for a recording.
func (e *Engine) Header() recorder.Header { return e.header }
