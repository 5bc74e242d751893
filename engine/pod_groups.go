package engine

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
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
// and the pod is scheduled alone, and the pod group kinds are not served.

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

// podGroupKinds are the scheduling.k8s.io kinds served only with GenericWorkload.
var podGroupKinds = map[string]bool{"Workload": true, "PodGroup": true, "CompositePodGroup": true}

// checkPodGroupKind refuses a fixture object of a pod group kind, as
// kube-apiserver (which serves them only with the gate on) refuses its create.
func checkPodGroupKind(o runtime.Object) error {
	gvks, _, err := clientgoscheme.Scheme.ObjectKinds(o)
	if err != nil || len(gvks) == 0 {
		return nil
	}
	gvk := gvks[0]
	if gvk.Group != "scheduling.k8s.io" || !podGroupKinds[gvk.Kind] {
		return nil
	}
	return fmt.Errorf("no matches for kind %q in version %q: kube-apiserver serves it only with the %s feature gate, off by default in v1.37.1 and not supported by schedscope (pod groups are scheduled in cycles it does not record)", gvk.Kind, gvk.GroupVersion(), features.GenericWorkload)
}
