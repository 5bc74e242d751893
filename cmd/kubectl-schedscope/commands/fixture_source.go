package commands

import (
	"context"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/engine/scenario/scenariohook"
	"github.com/schedscope/schedscope/recorder"
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
	err := s.run(ctx, &scenariohook.Hooks{
		Started: func(e *engine.Engine) {
			counts = e.QueueCounts
			if s.ctl != nil {
				s.ctl.setCounts(e.QueueCounts)
			}
		},
		Header: func(h recorder.Header) {
			send(source.Event{Header: &h})
			// The controller's own state: the user may have paused already.
			if s.ctl != nil {
				s.ctl.Refresh()
			}
		},
		Queue:    func(ev *recorder.QueueEvent) { send(source.Event{Queue: ev}) },
		PodGroup: func(g *recorder.PodGroupCycle) { send(source.Event{PodGroup: g}) },
		Problem:  func(err error) { send(source.Event{Problem: err}) },
		Cycle: func(c *recorder.Cycle) {
			send(source.Event{Cycle: c})
			if s.ctl != nil {
				s.ctl.Observe(c)
			}
		},
		// Every cycle has been sent: the pods that never had one are
		// known. Asked for one story (explain --pod), only its pods are
		// told.
		End: func(never []recorder.PodState, cluster *recorder.ClusterState, stopped int) {
			s.stopped = stopped
			if ctx.Err() != nil {
				return
			}
			send(source.Event{NeverAttempted: never})
			if cluster != nil {
				send(source.Event{Cluster: cluster})
			}
		},
	})
	if ctx.Err() != nil {
		return err
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

// run loads the inputs and schedules the fixture through the library
// (engine/scenario), setting s.fx; h hears the run as it goes.
func (s *fixtureSource) run(ctx context.Context, h *scenariohook.Hooks) error {
	o := s.o
	silenceKlog()
	if _, err := engine.ParseDiagnosticMode(o.Diagnostic); err != nil {
		return err
	}
	if err := o.checkArrival(); err != nil {
		return err
	}
	fx, err := o.loadFixture()
	if err != nil {
		return err
	}
	s.fx = fx
	h.Engine = func(opts *engine.Options) {
		if o.serialFilter {
			opts.Config.Parallelism = 1
		}
		opts.Story = o.story
		if s.ctl != nil {
			opts.Gate = s.ctl.Gate
		}
	}
	_, err = scenario.FromFixture(fx).Run(scenariohook.With(ctx, h), o.scenarioOptions())
	return err
}

// scenarioOptions are the library's options of the flags.
func (o *simOptions) scenarioOptions() scenario.Options {
	return scenario.Options{ConfigPath: o.Config, Diagnostic: o.Diagnostic, Burst: o.Arrival == arrivalBurst, ArrivalInterval: o.ArrivalInterval}
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
type unusedProblem = scenariohook.Unused
