package engine

import (
	"github.com/schedscope/schedscope/engine/featuregates"
)

// Pod groups (Workload, PodGroup, a pod's spec.schedulingGroup) belong to the
// GenericWorkload feature gate, off by default in kube-scheduler v1.37.1. With
// it off, the engine does what kube-apiserver and kube-scheduler do: a pod's
// schedulingGroup is dropped on create (the pod strategy's
// dropDisabledFields), the pod is scheduled alone, and the pod group kinds
// are not served (engine/fixture refuses them in a fixture).
//
// With it on (--feature-gates, engine/featuregates), the engine starts and
// the scheduler runs as kube-scheduler does: a pod in no group is scheduled
// and recorded exactly as with the gate off; a pod group is scheduled in a
// cycle of its own (PlacementGenerate, PlacementScore, PlacementFeasible,
// then each member on one snapshot), which the engine records as a
// recorder.PodGroupCycle linked to its members' own cycles
// (pod_group_cycle.go). With CompositePodGroup on as well (Alpha; it needs
// TopologyAwareWorkloadScheduling), a CompositePodGroup's hierarchy is
// scheduled from its root in one such cycle (composite_pod_group.go).

// checkFeatureGates refuses to build a scheduler under other feature gates
// than the run was set up with (Options.FeatureGates): they are process-wide.
func checkFeatureGates(opts Options) error {
	if opts.FeatureGates == nil {
		return nil
	}
	return featuregates.Check(opts.FeatureGates)
}

// nonNil is gates, or no gate: a recorded header omits gates all default.
func nonNil(gates map[string]bool) map[string]bool {
	if gates == nil {
		return map[string]bool{}
	}
	return gates
}
