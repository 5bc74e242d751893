package scenario

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/engine/scenario/scenariohook"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// A Scenario is a fixture: a cluster's objects, the pods to schedule and a
// timeline's steps, as plain Kubernetes manifests (see fixtures/ and the
// README). It is loaded once and may be run many times, with other
// configurations and gates, one run at a time (runs share its objects).
type Scenario struct {
	name string
	load func() (*fixture.Fixture, error)

	mu sync.Mutex
	fx *fixture.Fixture
	// gates are the process's feature gates fx was loaded under: which
	// kinds a fixture may hold and how they are admitted depend on them.
	gates map[string]bool
}

// Load reads a scenario from manifests (YAML or JSON, documents separated by
// ---); name names it in errors and in the recording's header.
func Load(name string, data []byte) (*Scenario, error) {
	data = bytes.Clone(data)
	return newScenario(name, func() (*fixture.Fixture, error) { return fixture.Load(name, data) })
}

// LoadFile reads a scenario from a file, or from every manifest in a
// directory as kubectl apply -f DIR does.
func LoadFile(path string) (*Scenario, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return newScenario(path, func() (*fixture.Fixture, error) { return fixture.LoadDir(path) })
	}
	return newScenario(path, func() (*fixture.Fixture, error) { return fixture.LoadFile(path) })
}

// Embedded is one of the fixtures schedscope embeds (package fixtures: its
// file name, with or without .yaml).
func Embedded(name string) (*Scenario, error) {
	data, err := fixtures.Read(name)
	if err != nil {
		return nil, fmt.Errorf("no embedded fixture %q; the embedded fixtures are %v", name, fixtures.Names())
	}
	return Load(name, data)
}

// FromFixture is a scenario of a fixture already loaded (the CLI's, which
// reads standard input and embedded names its own way).
func FromFixture(fx *fixture.Fixture) *Scenario {
	return &Scenario{name: fx.Name, fx: fx, gates: featuregates.NonDefault(),
		load: func() (*fixture.Fixture, error) { return fx, nil }}
}

func newScenario(name string, load func() (*fixture.Fixture, error)) (*Scenario, error) {
	s := &Scenario{name: name, load: load}
	if _, err := s.fixture(featuregates.NonDefault()); err != nil {
		return nil, err
	}
	return s, nil
}

// Name names the scenario.
func (s *Scenario) Name() string { return s.name }

// Warnings are what a real cluster would do differently with the scenario's
// manifests, worth telling (a run's Result has them too).
func (s *Scenario) Warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.fx.Warnings...)
}

// fixture is the scenario loaded under gates, loaded again when the gates
// it was loaded under differ.
func (s *Scenario) fixture(gates map[string]bool) (*fixture.Fixture, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fx != nil && maps.Equal(s.gates, gates) {
		return s.fx, nil
	}
	fx, err := s.load()
	if err != nil {
		return nil, err
	}
	s.fx, s.gates = fx, gates
	return fx, nil
}

// Options say how a scenario runs.
type Options struct {
	// Config is a KubeSchedulerConfiguration (YAML or JSON); when nil,
	// ConfigPath's file is read, and with neither the run has
	// kube-scheduler's default configuration.
	Config []byte
	// ConfigPath names Config in errors and the header, or is the file to
	// read when Config is nil.
	ConfigPath string
	// FeatureGates, if not nil, are kube-scheduler's feature gates
	// (--feature-gates as a map): the process's gates are reset to their
	// defaults and set to these before the run, process-wide (upstream
	// code reads one gate for the process). Nil runs under the process's
	// gates as they are.
	FeatureGates map[string]bool
	// Burst creates every pending pod at once, as a scale-up does; the
	// default is one at a time, each once the scheduler has settled on the
	// one before (explain's --arrival).
	Burst bool
	// ArrivalInterval, with one pod at a time, creates each this long
	// after the scheduler settled on the one before, waited on the wall
	// clock (explain's --arrival-interval: kube-scheduler's opportunistic
	// batching expires a stored ranking after 500ms).
	ArrivalInterval time.Duration
	// Diagnostic is when the diagnostic full-filter pass runs (explain's
	// --diagnostic): "always", "unschedulable" (the default, "") or "never".
	Diagnostic string
}

// engineOptions sets the gates, loads the configuration and the scenario
// under them, and gives the engine's options, changed by the hooks ctx
// carries.
func (s *Scenario) engineOptions(ctx context.Context, opts Options) (*fixture.Fixture, engine.Options, error) {
	eopts, err := engineOptions(ctx, opts)
	if err != nil {
		return nil, engine.Options{}, err
	}
	fx, err := s.fixture(eopts.FeatureGates)
	if err != nil {
		return nil, engine.Options{}, err
	}
	return fx, eopts, nil
}

// engineOptions sets the gates and loads the configuration.
func engineOptions(ctx context.Context, opts Options) (engine.Options, error) {
	fail := func(err error) (engine.Options, error) { return engine.Options{}, err }
	if opts.FeatureGates != nil {
		// Refused before anything is reset: the process keeps its gates.
		if _, err := featuregates.Parse(featuregates.Format(opts.FeatureGates)); err != nil {
			return fail(fmt.Errorf("feature gates: %v", err))
		}
		if err := featuregates.Reset(); err != nil {
			return fail(fmt.Errorf("feature gates: %v", err))
		}
		if err := featuregates.Set(opts.FeatureGates); err != nil {
			return fail(fmt.Errorf("feature gates: %v", err))
		}
	}
	mode := engine.DiagnosticUnschedulable
	if opts.Diagnostic != "" {
		var err error
		if mode, err = engine.ParseDiagnosticMode(opts.Diagnostic); err != nil {
			return fail(err)
		}
	}
	gates := featuregates.NonDefault()
	var err error
	data := opts.Config
	name := opts.ConfigPath
	if data == nil && opts.ConfigPath != "" {
		if data, err = input.ReadFile(opts.ConfigPath, input.ManifestLimit, "scheduler configuration"); err != nil {
			return fail(err)
		}
	}
	if name == "" {
		name = "(configuration)"
	}
	cfg, err := engine.LoadConfigFile("")
	if data != nil {
		cfg, err = engine.LoadConfig(name, data)
	}
	if err != nil {
		return fail(err)
	}
	engine.QuietUpstreamLogs()
	eopts := engine.Options{Config: cfg, ConfigPath: opts.ConfigPath, Diagnostic: mode, FeatureGates: gates, ArrivalInterval: opts.ArrivalInterval}
	if h := scenariohook.From(ctx); h != nil && h.Engine != nil {
		h.Engine(&eopts)
	}
	return eopts, nil
}

// describe notes in a header's source what makes the run again: the
// fixture's and the configuration's digests and how the pods arrived.
func describe(src *recorder.Source, fx *fixture.Fixture, opts Options) error {
	src.Digest = fx.Digest
	data := opts.Config
	if data == nil && opts.ConfigPath != "" {
		var err error
		if data, err = input.ReadFile(opts.ConfigPath, input.ManifestLimit, "scheduler configuration"); err != nil {
			return err
		}
	}
	if data != nil {
		src.ConfigDigest = fixture.Digest(data)
	}
	if opts.Burst {
		src.Arrival = "burst"
	}
	src.ArrivalInterval = recorder.Duration(opts.ArrivalInterval)
	return nil
}

// Run schedules the scenario's pods with the real scheduler (and the
// controllers beside it) and returns what happened. It returns once every
// pod and step has settled.
func (s *Scenario) Run(ctx context.Context, opts Options) (*Result, error) {
	h := scenariohook.From(ctx)
	if h == nil {
		h = &scenariohook.Hooks{}
	}
	fx, eopts, err := s.engineOptions(ctx, opts)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	res := &Result{scenario: s, fx: fx, opts: eopts, burst: opts.Burst}
	// The hooks and the result are told one thing at a time, in order.
	var mu sync.Mutex
	serial := func(f func()) {
		mu.Lock()
		defer mu.Unlock()
		f()
	}
	had := map[string]bool{}
	eopts.OnCycle = func(c *recorder.Cycle) {
		serial(func() {
			had[c.Pod.Key()] = true
			if h.Cycle != nil {
				h.Cycle(c)
			} else {
				res.Cycles = append(res.Cycles, c)
			}
		})
	}
	eopts.OnQueue = func(ev *recorder.QueueEvent) {
		serial(func() {
			if h.Queue != nil {
				h.Queue(ev)
			} else {
				res.Queue = append(res.Queue, ev)
			}
		})
	}
	eopts.OnPodGroup = func(g *recorder.PodGroupCycle) {
		serial(func() {
			if h.PodGroup != nil {
				h.PodGroup(g)
			} else {
				res.PodGroups = append(res.PodGroups, g)
			}
		})
	}
	// What upstream code logs as an error is a problem, told once the
	// header is out.
	var problems []string
	var early []error
	headerOut := false
	problem := func(err error) {
		if h.Problem != nil {
			h.Problem(err)
			return
		}
		text := err.Error()
		if ue := (*engine.UpstreamLogError)(nil); errors.As(err, &ue) && ue.Err != nil {
			text = ue.Err.Error() // the controller's own words
		}
		problems = append(problems, text)
	}
	stop := engine.RouteUpstreamLogs(func(err error) {
		serial(func() {
			if headerOut {
				problem(err)
			} else {
				early = append(early, err)
			}
		})
	})
	defer stop()
	e, err := engine.New(ctx, fx, eopts)
	if err != nil {
		return nil, err
	}
	if h.Started != nil {
		h.Started(e)
	}
	res.Warnings = append(res.Warnings, fx.Warnings...)
	// What nothing in the run acts on is told, never dropped.
	unread, err := e.Unread(fx)
	if err != nil {
		return nil, err
	}
	for _, u := range unread {
		if h.Problem != nil {
			early = append(early, &scenariohook.Unused{Unused: *u})
		} else {
			res.Warnings = append(res.Warnings, narrate.Unused(*u))
		}
	}
	res.Header = e.Header()
	if err := describe(&res.Header.Source, fx, opts); err != nil {
		return nil, err
	}
	serial(func() {
		if h.Header != nil {
			h.Header(res.Header)
		}
		headerOut = true
		for _, p := range early {
			problem(p)
		}
	})
	run := e.Run
	if opts.Burst {
		run = e.RunBurst
	}
	ran, err := run(ctx)
	if err != nil {
		return nil, err
	}
	if ran.Stopped == 0 {
		res.Cluster = e.ClusterState()
	}
	cancel()
	mu.Lock()
	defer mu.Unlock()
	sort.Slice(res.Cycles, func(i, j int) bool { return res.Cycles[i].Seq < res.Cycles[j].Seq })
	never := fx.NeverAttempted(res.Header, func(k string) bool { return had[k] }, eopts.Story)
	if h.End != nil {
		if never == nil {
			never = []recorder.PodState{}
		}
		h.End(never, res.Cluster, ran.Stopped)
	}
	if h.Cycle == nil {
		res.Pods = recorder.GroupPodStates(res.Cycles, res.PodGroups, never, res.Queue)
	}
	res.Problems = problems
	for _, l := range res.Cluster.Lost(problems) {
		res.Warnings = append(res.Warnings, narrate.Lost(l))
	}
	return res, nil
}
