package commands

import (
	"context"
	"sync"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/source"
)

// fixtureSource is a fixture's run as a source.Source: the header, each queue
// event and each cycle as it finishes, and at the end the pods that never
// got a cycle, the engine's final state and Done. sim shows it; explain,
// record, suggest and diff read it headlessly.
type fixtureSource struct {
	o *simOptions
	// ctl, if set, holds the engine before each cycle (sim's pause, step and
	// breakpoints) and reports its state as the source's.
	ctl *liveControl

	// fx is the fixture run, once Run has loaded it.
	fx *fixture.Fixture
	// stopped counts the pending pods that never arrived, once Run has
	// returned: the story asked for (simOptions.story) was told.
	stopped int
}

// fixtureRun is a fixture's run as a source; once it has run, fixture
// says which fixture that was.
type fixtureRun interface {
	source.Source
	fixture() *fixture.Fixture
	// stoppedEarly counts the pending pods the run did not get to, once
	// it has run (see engine.Result.Stopped).
	stoppedEarly() int
}

var _ fixtureRun = (*fixtureSource)(nil)

func (s *fixtureSource) fixture() *fixture.Fixture { return s.fx }

func (s *fixtureSource) stoppedEarly() int { return s.stopped }

// Run schedules the fixture and sends the session.
func (s *fixtureSource) Run(ctx context.Context, send func(source.Event) bool) error {
	var counts func() (active, backoff int)
	if s.ctl != nil {
		s.ctl.setReport(func(st source.EngineState) { send(source.Event{State: &st}) })
		defer s.ctl.Close() // the engine is gone: controls have nothing left to control
	}
	had := map[string]bool{}
	var cluster *recorder.ClusterState
	header, err := s.run(ctx, fixtureHooks{
		onEngine: func(e *engine.Engine) {
			counts = e.QueueCounts
			if s.ctl != nil {
				s.ctl.setCounts(e.QueueCounts)
			}
		},
		onHeader: func(h recorder.Header) {
			send(source.Event{Header: &h})
			// The controller's own state: the user may have paused already.
			if s.ctl != nil {
				s.ctl.Refresh()
			}
		},
		onQueue:    func(ev *recorder.QueueEvent) { send(source.Event{Queue: ev}) },
		onPodGroup: func(g *recorder.PodGroupCycle) { send(source.Event{PodGroup: g}) },
		onProblem:  func(err error) { send(source.Event{Problem: err}) },
		onEnd:      func(st *recorder.ClusterState) { cluster = st },
		onCycle: func(c *recorder.Cycle) {
			had[c.Pod.Key()] = true
			send(source.Event{Cycle: c})
			if s.ctl != nil {
				s.ctl.Observe(c)
			}
		},
	})
	if ctx.Err() != nil {
		return err
	}
	if err == nil {
		// Every cycle has been sent (the run returned): had is complete.
		// Asked for one story (explain --pod), only its pods are told.
		never := s.fx.NeverAttempted(header, func(k string) bool { return had[k] }, s.o.story)
		if never == nil {
			never = []recorder.PodState{}
		}
		send(source.Event{NeverAttempted: never})
		if cluster != nil {
			send(source.Event{Cluster: cluster})
		}
	}
	// The run ends with pods still queued (in backoff, say): the status bar
	// counts them.
	done := source.EngineState{State: source.StateDone}
	if counts != nil {
		done.Active, done.Backoff = counts()
	}
	send(source.Event{State: &done})
	send(source.Event{Done: true, Err: err})
	return err
}

// fixtureHooks are what a fixture's run tells as it goes. onQueue and
// onCycle are called in order, one at a time.
type fixtureHooks struct {
	onEngine func(*engine.Engine)
	onHeader func(recorder.Header)
	onQueue  func(*recorder.QueueEvent)
	onCycle  func(*recorder.Cycle)
	// onPodGroup, if set, is told each pod-group cycle as it ends.
	onPodGroup func(*recorder.PodGroupCycle)
	// onProblem is told what upstream code logged as an error, after the
	// header.
	onProblem func(error)
	// onEnd, if set, is told what the controllers left once the run has
	// settled.
	onEnd func(*recorder.ClusterState)
}

// run loads the inputs and schedules the fixture, setting s.fx.
func (s *fixtureSource) run(ctx context.Context, h fixtureHooks) (recorder.Header, error) {
	o := s.o
	silenceKlog()
	mode, err := engine.ParseDiagnosticMode(o.Diagnostic)
	if err != nil {
		return recorder.Header{}, err
	}
	if err := o.checkArrival(); err != nil {
		return recorder.Header{}, err
	}
	fx, err := o.loadFixture()
	if err != nil {
		return recorder.Header{}, err
	}
	s.fx = fx
	cfg, err := engine.LoadConfigFile(o.Config)
	if err != nil {
		return recorder.Header{}, err
	}
	if o.serialFilter {
		cfg.Parallelism = 1
	}
	var mu sync.Mutex
	serial := func(f func()) {
		mu.Lock()
		defer mu.Unlock()
		f()
	}
	opts := engine.Options{
		Config: cfg, ConfigPath: o.Config, Diagnostic: mode, ArrivalInterval: o.ArrivalInterval, Story: o.story,
		FeatureGates: featuregates.NonDefault(),
		OnQueue:      func(ev *recorder.QueueEvent) { serial(func() { h.onQueue(ev) }) },
		OnCycle:      func(c *recorder.Cycle) { serial(func() { h.onCycle(c) }) },
	}
	if h.onPodGroup != nil {
		opts.OnPodGroup = func(g *recorder.PodGroupCycle) { serial(func() { h.onPodGroup(g) }) }
	}
	if s.ctl != nil {
		opts.Gate = s.ctl.Gate
	}
	// Upstream's error lines become problems, once the header is out.
	var early []error
	headerSent := false
	stop := engine.RouteUpstreamLogs(func(err error) {
		serial(func() {
			if !headerSent {
				early = append(early, err)
			} else if h.onProblem != nil {
				h.onProblem(err)
			}
		})
	})
	defer stop()
	e, err := engine.New(ctx, fx, opts)
	if err != nil {
		return recorder.Header{}, err
	}
	h.onEngine(e)
	// What nothing in the run acts on is told, never dropped.
	unread, err := e.Unread(fx)
	if err != nil {
		return recorder.Header{}, err
	}
	for _, u := range unread {
		early = append(early, &unusedProblem{*u})
	}
	hdr := e.Header()
	if err := o.describe(&hdr.Source, fx); err != nil {
		return recorder.Header{}, err
	}
	serial(func() {
		h.onHeader(hdr)
		headerSent = true
		for _, p := range early {
			if h.onProblem != nil {
				h.onProblem(p)
			}
		}
	})
	run := e.Run
	if o.Arrival == arrivalBurst {
		run = e.RunBurst
	}
	res, err := run(ctx)
	if err == nil && res.Stopped > 0 {
		// The run stopped once the story asked for was told: what the
		// controllers left then is not the end of the fixture.
		s.stopped = res.Stopped
		return hdr, nil
	}
	if err == nil && h.onEnd != nil {
		h.onEnd(e.ClusterState())
	}
	return hdr, err
}

// simulate runs the fixture headlessly, handing each cycle to onCycle in
// order, and returns the fixture.
func (o *simOptions) simulate(ctx context.Context, onCycle func(*recorder.Cycle)) (*fixture.Fixture, error) {
	src := &fixtureSource{o: o}
	err := consume(ctx, src, func(ev source.Event) error {
		if ev.Cycle != nil {
			onCycle(ev.Cycle)
		}
		return nil
	})
	return src.fx, err
}

// unusedProblem is a kind of object the run leaves unused, sent as a
// problem (the TUI lists it); explain prints it among the warnings.
type unusedProblem struct{ recorder.Unused }

func (u *unusedProblem) Error() string { return narrate.Unused(u.Unused) }
