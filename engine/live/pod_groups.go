package live

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/features"
)

// podGroupNote says when the cluster serves pod group resources, which it
// does only with GenericWorkload on: its scheduler may then place pods of a
// group together, while the engine, which refuses the gate
// (engine/pod_groups.go), schedules each alone.
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
	return fmt.Sprintf("the cluster serves %s, so it runs with the %s feature gate: schedscope predicts each pod of a pod group alone, as kube-scheduler does with the gate off, and the cluster's scheduler may place a pod group otherwise", strings.Join(found, ", "), features.GenericWorkload)
}
