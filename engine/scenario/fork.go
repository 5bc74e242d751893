package scenario

import (
	"context"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder"
)

// A Fork is the state one recorded cycle of a run started from (nodes,
// placed and nominated pods, the profile, where the node search began):
// WhatIf schedules the pod again on a changed copy of it, with the real
// scheduler.
type Fork struct {
	f *engine.Fork
}

// Fork runs the scenario again, as the result's run did, up to the pod's
// first cycle (whatif --pod's) and forks there; pod is a name,
// namespace/name or a handle (deploy/web#2).
func (r *Result) Fork(ctx context.Context, pod string) (*Fork, error) {
	return r.forkAt(ctx, engine.ForkTarget{Pod: pod})
}

// ForkCycle forks at the run's cycle seq (Cycle.Seq, as explain numbers it).
func (r *Result) ForkCycle(ctx context.Context, seq int) (*Fork, error) {
	return r.forkAt(ctx, engine.ForkTarget{Seq: seq})
}

// forkAt forks at target on a run that filters nodes with one goroutine,
// as the re-run of a change does, so that a sampled search
// (percentageOfNodesToScore) visits the same nodes in both and the
// recorded cycle is the baseline as it is (whatif's rule).
func (r *Result) forkAt(ctx context.Context, target engine.ForkTarget) (*Fork, error) {
	opts := r.opts
	opts.Config = opts.Config.DeepCopy()
	opts.Config.Parallelism = 1
	opts.OnCycle, opts.OnQueue = nil, nil
	target.Burst = r.burst
	if target.Pod != "" {
		var err error
		if target.Pod, err = engine.ResolvePodHandle(ctx, r.fx, opts, target.Pod); err != nil {
			return nil, err
		}
	}
	f, err := engine.ForkAt(ctx, r.fx, opts, target)
	if err != nil {
		return nil, err
	}
	return &Fork{f: f}, nil
}

// Cycle is the cycle forked at, as the run recorded it.
func (f *Fork) Cycle() *recorder.Cycle { return f.f.Recorded }

// A WhatIf is a forked cycle run again with changes.
type WhatIf struct {
	// Changes says each change in words.
	Changes []string
	// Before is the cycle the changes apply to: as recorded, or an
	// unchanged re-run when a re-run may not give the recorded cycle.
	Before *recorder.Cycle
	// After is the pod's cycle on the changed state; Later its further
	// cycles there (after a preemption, the retry that binds it).
	After *recorder.Cycle
	Later []*recorder.Cycle
	// Diff is what differs between Before and After: nodes that became
	// feasible or infeasible and why, score deltas, the new winner.
	Diff *recorder.CycleDiff
	// Landing is where the pod would go ("" nowhere); ViaPreemption is
	// set when it gets there by preempting other pods.
	Landing       string
	ViaPreemption bool
}

// WhatIf applies the changes (each a recorder.Change, as whatif's flags,
// the debugger's keys and suggest make them) to a copy of the fork's
// state and schedules the pod again.
func (f *Fork) WhatIf(ctx context.Context, changes ...recorder.Change) (*WhatIf, error) {
	changed, err := f.f.With(changes...)
	if err != nil {
		return nil, err
	}
	runner := f.f.NewRunner()
	defer runner.Close()
	before := f.f.Recorded
	if f.f.BaselineIsRerun() {
		base, err := runner.Run(ctx, f.f)
		if err != nil {
			return nil, err
		}
		before = base.Cycle
	}
	after, err := runner.Run(ctx, changed)
	if err != nil {
		return nil, err
	}
	w := &WhatIf{Changes: changed.Changes, Before: before, After: after.Cycle, Later: after.Later,
		Diff: recorder.DiffCycles(before, after.Cycle)}
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
	f, err := r.forkAt(ctx, engine.ForkTarget{Pod: pod, Last: true})
	if err != nil {
		return nil, err
	}
	return f.Suggest(ctx, opts)
}
