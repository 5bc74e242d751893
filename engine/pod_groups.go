package engine

import (
	"fmt"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
)

// Pod groups (Workload, PodGroup, a pod's spec.schedulingGroup) belong to the
// GenericWorkload feature gate, off by default in kube-scheduler v1.37.1. With
// it on, kube-scheduler schedules a pod group in a cycle of its own
// (PlacementGenerate, PlacementScore, PlacementFeasible, then each pod within
// the chosen placement), which never passes the hooks schedscope records
// through: its cycles would vanish. schedscope refuses the gate instead, and
// with it off does what kube-apiserver and kube-scheduler do: a pod's
// schedulingGroup is dropped on create (the pod strategy's dropDisabledFields)
// and the pod is scheduled alone, and the pod group kinds are not served
// (engine/fixture refuses them in a fixture).

// checkPodGroupGate refuses to build a scheduler when the process has the
// GenericWorkload feature gate on. schedscope has no flag that sets feature
// gates; a program embedding the engine (or kube-scheduler's --feature-gates
// parsed in the same process) sets them in DefaultFeatureGate.
func checkPodGroupGate() error {
	if utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload) {
		return fmt.Errorf("the %s feature gate is on in this process (k8s.io/apiserver/pkg/util/feature.DefaultFeatureGate, as kube-scheduler's --feature-gates sets it): kube-scheduler would schedule pod groups in cycles schedscope does not record; turn it off", features.GenericWorkload)
	}
	return nil
}
