package scenario

import (
	"context"
	"fmt"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder"
)

// Capacity is capacity's answer: how many more replicas of the workload
// (deploy/web, sts/prod/db, rs/…, rc/…, job/… for a Job's parallelism) fit,
// found by whole runs of the scenario with it scaled up (1, 2, 4, … more)
// until one leaves a replica pending; never by arithmetic.
func (s *Scenario) Capacity(ctx context.Context, opts Options, workload string) (*engine.CapacityResult, error) {
	kind, ns, name, ok := recorder.ParseWorkload(workload)
	if !ok {
		return nil, fmt.Errorf("want the workload as KIND/NAME or KIND/NAMESPACE/NAME (deploy/web, sts/prod/db), not %q", workload)
	}
	fx, eopts, err := s.engineOptions(ctx, opts)
	if err != nil {
		return nil, err
	}
	return engine.Capacity(ctx, fx, eopts, kind, ns, name)
}

// NextReplica forks at the last cycle of the first replica that did not
// fit in capacity's answer res, for Suggest (what would let it fit).
func (s *Scenario) NextReplica(ctx context.Context, opts Options, res *engine.CapacityResult) (*Fork, error) {
	fx, eopts, err := s.engineOptions(ctx, opts)
	if err != nil {
		return nil, err
	}
	f, err := engine.NextReplica(ctx, fx, eopts, res)
	if err != nil {
		return nil, err
	}
	return &Fork{f: f}, nil
}

// Scale runs the whole scenario with the workload (as Capacity names it)
// asking for replicas pods, its controller making them, and tells where
// they went and why those left pending are; a negative replicas runs it as
// written (whatif --scale runs both).
func (s *Scenario) Scale(ctx context.Context, opts Options, workload string, replicas int) (*engine.ScaledRun, error) {
	kind, ns, name, ok := recorder.ParseWorkload(workload)
	if !ok {
		return nil, fmt.Errorf("want the workload as KIND/NAME or KIND/NAMESPACE/NAME (deploy/web, sts/prod/db), not %q", workload)
	}
	fx, eopts, err := s.engineOptions(ctx, opts)
	if err != nil {
		return nil, err
	}
	return engine.RunScaled(ctx, fx, eopts, kind, ns, name, replicas)
}
