package live

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
)

// podGroupNote says when the cluster serves pod group resources, which it
// does only with GenericWorkload on: with the gate off here, the engine
// schedules each pod of a group alone, where the cluster's scheduler may
// place the group otherwise; with it on, the mirror holds the cluster's
// PodGroups and the engine runs each group's cycle as kube-scheduler does
// (engine/pod_group_cycle.go, Options.OnPodGroup), each member's
// prediction checked against its binding as any pod's.
func podGroupNote(served map[schema.GroupVersionResource]bool) string {
	var found []string
	for gvr := range served {
		if gvr.Group == "scheduling.k8s.io" && (gvr.Resource == "podgroups" || gvr.Resource == "workloads") {
			found = append(found, gvr.Resource+"."+gvr.Group+"/"+gvr.Version)
		}
	}
	if len(found) == 0 {
		return ""
	}
	sort.Strings(found)
	if utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload) {
		return fmt.Sprintf("the cluster serves %s, so it runs with the %s feature gate, as schedscope does: each pod group is predicted in a pod-group cycle, as kube-scheduler places it", strings.Join(found, ", "), features.GenericWorkload)
	}
	return fmt.Sprintf("the cluster serves %s, so it runs with the %s feature gate: schedscope, with it off, predicts each pod of a pod group alone, and the cluster's scheduler may place a pod group otherwise (--feature-gates=%s=true runs as it does)", strings.Join(found, ", "), features.GenericWorkload, features.GenericWorkload)
}
