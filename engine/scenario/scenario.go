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

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
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
	// Diagnostic is when the diagnostic full-filter pass runs (explain's
	// --diagnostic): "always", "unschedulable" (the default, "") or "never".
	Diagnostic string
}

// engineOptions sets the gates, loads the configuration and the scenario
// under them, and gives the engine's options.
func (s *Scenario) engineOptions(opts Options) (*fixture.Fixture, engine.Options, error) {
	if opts.FeatureGates != nil {
		// Refused before anything is reset: the process keeps its gates.
		if _, err := featuregates.Parse(featuregates.Format(opts.FeatureGates)); err != nil {
			return nil, engine.Options{}, fmt.Errorf("feature gates: %v", err)
		}
		if err := featuregates.Reset(); err != nil {
			return nil, engine.Options{}, fmt.Errorf("feature gates: %v", err)
		}
		if err := featuregates.Set(opts.FeatureGates); err != nil {
			return nil, engine.Options{}, fmt.Errorf("feature gates: %v", err)
		}
	}
	mode := engine.DiagnosticUnschedulable
	if opts.Diagnostic != "" {
		var err error
		if mode, err = engine.ParseDiagnosticMode(opts.Diagnostic); err != nil {
			return nil, engine.Options{}, err
		}
	}
	gates := featuregates.NonDefault()
	fx, err := s.fixture(gates)
	if err != nil {
		return nil, engine.Options{}, err
	}
	cfg, err := engine.LoadConfigFile(opts.ConfigPath)
	if opts.Config != nil {
		name := opts.ConfigPath
		if name == "" {
			name = "(configuration)"
		}
		cfg, err = engine.LoadConfig(name, opts.Config)
	}
	if err != nil {
		return nil, engine.Options{}, err
	}
	engine.QuietUpstreamLogs()
	return fx, engine.Options{Config: cfg, ConfigPath: opts.ConfigPath, Diagnostic: mode, FeatureGates: gates}, nil
}

// Run schedules the scenario's pods with the real scheduler (and the
// controllers beside it) and returns what happened. It returns once every
// pod and step has settled.
func (s *Scenario) Run(ctx context.Context, opts Options) (*Result, error) {
	fx, eopts, err := s.engineOptions(opts)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	res := &Result{scenario: s, fx: fx, opts: eopts, burst: opts.Burst}
	var mu sync.Mutex
	var problems []string
	eopts.OnCycle = func(c *recorder.Cycle) {
		mu.Lock()
		res.Cycles = append(res.Cycles, c)
		mu.Unlock()
	}
	eopts.OnQueue = func(ev *recorder.QueueEvent) {
		mu.Lock()
		res.Queue = append(res.Queue, ev)
		mu.Unlock()
	}
	stop := engine.RouteUpstreamLogs(func(err error) {
		text := err.Error()
		if ue := (*engine.UpstreamLogError)(nil); errors.As(err, &ue) && ue.Err != nil {
			text = ue.Err.Error() // the controller's own words
		}
		mu.Lock()
		problems = append(problems, text)
		mu.Unlock()
	})
	defer stop()
	e, err := engine.New(ctx, fx, eopts)
	if err != nil {
		return nil, err
	}
	res.Header = e.Header()
	res.Warnings = append(res.Warnings, fx.Warnings...)
	unread, err := e.Unread(fx)
	if err != nil {
		return nil, err
	}
	for _, u := range unread {
		res.Warnings = append(res.Warnings, narrate.Unused(*u))
	}
	run := e.Run
	if opts.Burst {
		run = e.RunBurst
	}
	if _, err := run(ctx); err != nil {
		return nil, err
	}
	res.Cluster = e.ClusterState()
	cancel()
	mu.Lock()
	defer mu.Unlock()
	sort.Slice(res.Cycles, func(i, j int) bool { return res.Cycles[i].Seq < res.Cycles[j].Seq })
	had := map[string]bool{}
	for _, c := range res.Cycles {
		had[c.Pod.Key()] = true
	}
	never := fx.NeverAttempted(res.Header, func(k string) bool { return had[k] }, nil)
	res.Pods = recorder.PodStates(res.Cycles, never, res.Queue)
	res.Problems = problems
	for _, l := range res.Cluster.Lost(problems) {
		res.Warnings = append(res.Warnings, narrate.Lost(l))
	}
	return res, nil
}
