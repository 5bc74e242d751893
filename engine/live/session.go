// Package live mirrors a real cluster, read-only, into an engine and lets the
// embedded scheduler run a cycle for each pending pod, on the state the
// cluster was in when the pod arrived. The cluster is only ever read, through
// a cluster.Reader whose client refuses every request that is not a GET, so
// nothing the engine does can reach the cluster.
//
// What is mirrored is exactly what the scheduler reads: after the engine is
// built, the informers its scheduler asked for name the resource types
// (Engine.ReadResources), and each is listed and watched on the cluster.
//
// When the cluster's own scheduler binds a pod the engine ran a cycle for,
// the binding is reported as an Observed record next to the prediction, and
// the mirror takes the real placement.
//
// session.go is the session (options, start, run, the connection);
// mirror.go copies the cluster's objects into the engine; observe.go sets
// the cluster's decisions beside the engine's; extenders.go is the extender
// policy; fork.go forks the mirror for what-if; pod_groups.go says when the
// cluster schedules pod groups; feature_gates.go compares the API server's
// feature gates (its /metrics) with the process's. The engine is used only through its
// exported surface for a mirror (engine/mirror.go).
package live

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/cluster"
	"github.com/schedscope/schedscope/recorder"
)

var watchBuffer sync.Once

// Options configures a live session.
type Options struct {
	engine.Options
	// Cluster is the connection to the cluster; its context names the
	// cluster in the recording header.
	Cluster *cluster.Reader
	// Namespace limits which pending pods get cycles; "" means all namespaces.
	// Pods of every namespace are mirrored once they run, since they use nodes.
	Namespace string
	// OnObserved receives each binding the cluster's own scheduler made.
	OnObserved func(*recorder.Observed)
	// OnConnection reports losing (err != nil) and regaining the API server.
	OnConnection func(err error)
	// DecisionTimeout bounds how long a real binding waits for the engine to
	// finish its own cycle for the pod (time paused at the Gate does not count).
	DecisionTimeout time.Duration
	// SyncTimeout bounds the initial listing of the cluster.
	SyncTimeout time.Duration
	// CallExtenders sends pending pods to the filter and prioritize verbs of
	// the scheduler extenders in Config. Off, no extender is called; on or
	// off, their bind and preempt verbs never are.
	CallExtenders bool
}

// Session is a running live session.
type Session struct {
	engine *engine.Engine
	opts   Options
	// cfg is the configuration the engine runs with.
	cfg *config.KubeSchedulerConfiguration
	// profiles are the scheduler names the engine's profiles answer to.
	profiles map[string]bool
	// decisions are the engine's finished cycles, by pod.
	decisions *decisions
	// gated is set while the Gate holds the scheduling goroutine.
	gated atomic.Bool

	mu sync.Mutex
	// mirrored holds pods added to the engine while pending, with when.
	mirrored map[types.UID]time.Time
	// withheld holds pending pods not given to the engine (another namespace,
	// or the cluster found them unschedulable and schedscope had bound them).
	withheld map[types.UID]bool
	// reportedUnsched holds pods whose Unschedulable verdict was reported.
	reportedUnsched map[types.UID]bool
	// resources lists what is mirrored, for messages and the ClusterRole check.
	resources []schema.GroupVersionResource
	skipped   []string
	// notes say how the configuration was made safe for a real cluster.
	notes  []string
	connMu sync.Mutex // orders connection reports; guards lost
	lost   bool
	// running is set once the scheduler runs; before, nothing can be decided
	// and a binding is not held for a decision.
	running atomic.Bool
}

// New lists the cluster, builds the engine over it and starts mirroring.
// Nothing is scheduled until Run.
func New(ctx context.Context, opts Options) (*Session, error) {
	if opts.Cluster == nil {
		return nil, errors.New("live mode needs a cluster connection")
	}
	if opts.DecisionTimeout == 0 {
		opts.DecisionTimeout = 30 * time.Second
	}
	if opts.SyncTimeout == 0 {
		opts.SyncTimeout = 60 * time.Second
	}
	if opts.Diagnostic == "" {
		opts.Diagnostic = engine.DiagnosticUnschedulable
	}
	watchBuffer.Do(func() {
		// Events from the cluster arrive in bursts (a scale-up creates
		// hundreds of pods); the in-memory API server's watches panic when
		// their buffer overflows. Set once, before any watch exists.
		watch.DefaultChanSize = 1 << 16
	})
	name := "cluster"
	if opts.Cluster.Context != "" {
		name = opts.Cluster.Context
	}
	s := &Session{opts: opts, decisions: newDecisions(), profiles: map[string]bool{},
		mirrored: map[types.UID]time.Time{}, withheld: map[types.UID]bool{}, reportedUnsched: map[types.UID]bool{}}
	cfg := opts.Config
	if cfg == nil {
		var err error
		if cfg, err = engine.LoadConfigFile(""); err != nil {
			return nil, err
		}
	}
	// Extenders are paths out of the process: none is called unless asked,
	// and their bind and preempt verbs never are.
	eopts := opts.Options
	eopts.Config, s.notes = extenders(cfg, opts.CallExtenders)
	s.cfg = eopts.Config
	eopts.OnDecided = s.decisions.decided
	if gate := opts.Gate; gate != nil {
		eopts.Gate = func(ctx context.Context, pod recorder.PodRef) error {
			s.gated.Store(true)
			defer s.gated.Store(false)
			return gate(ctx, pod)
		}
	}
	e, err := engine.NewMirrored(ctx, recorder.Source{Kind: "cluster", Name: name, Config: opts.ConfigPath}, eopts)
	if err != nil {
		return nil, err
	}
	s.engine = e
	for _, p := range e.Header().Profiles {
		s.profiles[p.SchedulerName] = true
	}
	gvrs, err := e.ReadResources()
	if err != nil {
		return nil, err
	}
	access, err := opts.Cluster.CheckAccess(ctx, gvrs)
	if err != nil {
		return nil, err
	}
	if n := podGroupNote(access.Served); n != "" {
		s.notes = append(s.notes, n)
	}
	if n := clusterGatesNote(ctx, opts.Cluster.Client()); n != "" {
		s.notes = append(s.notes, n)
	}
	s.resources, s.skipped = access.Resources, access.Skipped
	if err := s.startMirror(ctx); err != nil {
		return nil, err
	}
	if err := e.Start(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Resources lists the resources mirrored from the cluster.
func (s *Session) Resources() []schema.GroupVersionResource { return s.resources }

// Notes say what live mode changed in the scheduler configuration to stay
// read-only (extenders not called, bind and preempt verbs removed), and how
// the cluster may schedule otherwise.
func (s *Session) Notes() []string { return s.notes }

// Skipped lists resources the scheduler reads that the cluster does not serve.
func (s *Session) Skipped() []string { return s.skipped }

// Header describes the engine's scheduler for a recording.
func (s *Session) Header() recorder.Header { return s.engine.Header() }

// QueueCounts returns how many pods wait in the scheduling queue's active and
// backoff queues.
func (s *Session) QueueCounts() (active, backoff int) { return s.engine.QueueCounts() }

// Run schedules pending pods as they arrive until ctx is done.
func (s *Session) Run(ctx context.Context) error {
	s.running.Store(true)
	done := make(chan struct{})
	go func() {
		s.engine.Schedule(ctx)
		close(done)
	}()
	go s.heartbeat(ctx, 2*time.Second)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			<-done
			return nil
		case <-tick.C:
			// Preempting cycles wait for their victims' events; let them go.
			s.engine.FlushHeld("")
		}
	}
}

// connection reports a change of the connection state: err != nil when it is
// lost, nil when it is back.
func (s *Session) connection(err error) {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	was := s.lost
	s.lost = err != nil
	if was != (err != nil) && s.opts.OnConnection != nil {
		s.opts.OnConnection(err)
	}
}

// heartbeat asks the API server for its version every interval: informers
// retry a refused or dropped connection silently, so this is how a lost API
// server is noticed, and how its return is.
func (s *Session) heartbeat(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		hctx, cancel := context.WithTimeout(ctx, interval)
		err := s.opts.Cluster.Client().Discovery().RESTClient().Get().AbsPath("/version").Do(hctx).Error()
		cancel()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			s.connection(fmt.Errorf("API server unreachable: %w", err))
		} else {
			s.connection(nil)
		}
	}
}
