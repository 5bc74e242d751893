package scenario

import (
	"context"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/engine/scenario/scenariohook"
	"github.com/schedscope/schedscope/recorder"
)

// A Fork is the state one recorded cycle of a run started from (nodes,
// placed and nominated pods, the profile, where the node search began):
// WhatIf schedules the pod again on a changed copy of it, with the real
// scheduler.
type Fork struct {
	f *engine.Fork
}

// At names the cycle a fork starts from: the cycle numbered Cycle (as
// explain numbers them), which must be Pod's when Pod is given too;
// without Cycle, Pod's first cycle, or with Last its last (where it stands
// at the end of the run). Pod is a name, namespace/name or a handle
// (deploy/web#2).
type At struct {
	Pod   string
	Cycle int
	Last  bool
}

// Fork runs the scenario up to the cycle at names and forks there (whatif
// and suggest do), without a whole run first.
func (s *Scenario) Fork(ctx context.Context, opts Options, at At) (*Fork, error) {
	fx, eopts, err := s.engineOptions(ctx, opts)
	if err != nil {
		return nil, err
	}
	return forkAt(ctx, fx, eopts, opts.Burst, at)
}

// Fork runs the scenario again, as the result's run did, up to the pod's
// first cycle (whatif --pod's) and forks there; pod is a name,
// namespace/name or a handle (deploy/web#2).
func (r *Result) Fork(ctx context.Context, pod string) (*Fork, error) {
	return forkAt(ctx, r.fx, r.opts, r.burst, At{Pod: pod})
}

// ForkCycle forks at the run's cycle seq (Cycle.Seq, as explain numbers it).
func (r *Result) ForkCycle(ctx context.Context, seq int) (*Fork, error) {
	return forkAt(ctx, r.fx, r.opts, r.burst, At{Cycle: seq})
}

// forkAt forks at the cycle at names on a run that filters nodes with one
// goroutine, as the re-run of a change does, so that a sampled search
// (percentageOfNodesToScore) visits the same nodes in both and the
// recorded cycle is the baseline as it is (whatif's rule). Filtered in
// parallel, the baseline had to be re-run on a scheduler of its own: at
// 40 000 pods that was a third of whatif's time.
func forkAt(ctx context.Context, fx *fixture.Fixture, opts engine.Options, burst bool, at At) (*Fork, error) {
	opts.Config = opts.Config.DeepCopy()
	opts.Config.Parallelism = 1
	opts.OnCycle, opts.OnQueue, opts.OnPodGroup, opts.Gate, opts.Story = nil, nil, nil, nil, nil
	target := engine.ForkTarget{Pod: at.Pod, Seq: at.Cycle, Last: at.Last && at.Cycle == 0, Burst: burst}
	if target.Pod != "" {
		// A handle (deploy/web#2) is resolved on a run of its own: a run
		// is a function of its inputs, so the fork's run is the same.
		var err error
		if target.Pod, err = engine.ResolvePodHandle(ctx, fx, opts, target.Pod); err != nil {
			return nil, err
		}
	}
	f, err := engine.ForkAt(ctx, fx, opts, target)
	if err != nil {
		return nil, err
	}
	if h := scenariohook.From(ctx); h != nil && h.Forked != nil {
		h.Forked(f)
	}
	return &Fork{f: f}, nil
}

// Cycle is the cycle forked at, as the run recorded it.
func (f *Fork) Cycle() *recorder.Cycle { return f.f.Recorded }

// Header describes the scheduler of the run forked.
func (f *Fork) Header() recorder.Header { return f.f.Header }

// A WhatIf is a forked cycle run again with changes: recorder's plain
// data, so that every output renders it without importing the engine.
type WhatIf = recorder.WhatIf

// WhatIf applies the changes (each a recorder.Change, as whatif's flags,
// the debugger's keys and suggest make them) to a copy of the fork's
// state and schedules the pod again.
func (f *Fork) WhatIf(ctx context.Context, changes ...recorder.Change) (*WhatIf, error) {
	changed, err := f.f.With(changes...)
	if err != nil {
		return nil, err
	}
	w := &WhatIf{Changes: changed.Changes, Recorded: f.f.Recorded, Before: f.f.Recorded, Sampled: f.f.Sampled(), SearchStart: f.f.SearchStart}
	// A change to the pod alone re-runs on the scheduler the baseline
	// runs on: it is built once. Any other change gets a scheduler of its
	// own, built while the baseline runs: building one over a large
	// cluster is mostly one core's work.
	runner := f.f.NewRunner()
	defer runner.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type run struct {
		res *engine.RunResult
		err error
	}
	var own chan run
	w.BeforeRerun = f.f.BaselineIsRerun()
	if w.BeforeRerun && !runner.Takes(changed) {
		own = make(chan run, 1)
		go func() {
			res, err := changed.Run(ctx)
			own <- run{res, err}
		}()
	}
	if w.BeforeRerun {
		base, err := runner.Run(ctx, f.f)
		if err != nil {
			return nil, err
		}
		w.RecordedSampleDiffers = recorder.DiffCycles(f.f.Recorded, base.Cycle).Sampling != nil
		w.Before = base.Cycle
	}
	var after *engine.RunResult
	if own != nil {
		r := <-own
		after, err = r.res, r.err
	} else {
		after, err = runner.Run(ctx, changed)
	}
	if err != nil {
		return nil, err
	}
	w.After, w.Later = after.Cycle, after.Later
	w.Diff = recorder.DiffCycles(w.Before, after.Cycle)
	w.Landing, w.ViaPreemption = after.Landing()
	return w, nil
}

// Suggest searches single changes that make the fork's pod schedulable
// (or, with opts.Node, put it on that node), each confirmed by a re-run,
// smallest first.
func (f *Fork) Suggest(ctx context.Context, opts engine.SuggestOptions) (*engine.SuggestResult, error) {
	return engine.Suggest(ctx, f.f, opts)
}

// Suggest is suggest --pod: the search on the pod's last cycle of the run.
func (r *Result) Suggest(ctx context.Context, pod string, opts engine.SuggestOptions) (*engine.SuggestResult, error) {
	f, err := forkAt(ctx, r.fx, r.opts, r.burst, At{Pod: pod, Last: true})
	if err != nil {
		return nil, err
	}
	return f.Suggest(ctx, opts)
}
