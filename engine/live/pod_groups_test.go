package live

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestPodGroupNote: live mode says when the cluster serves pod groups.
func TestPodGroupNote(t *testing.T) {
	plain := map[schema.GroupVersionResource]bool{{Group: "scheduling.k8s.io", Version: "v1", Resource: "priorityclasses"}: true, {Version: "v1", Resource: "pods"}: true}
	if n := podGroupNote(plain); n != "" {
		t.Errorf("a cluster without pod groups got the note %q", n)
	}
	withGroups := map[schema.GroupVersionResource]bool{{Group: "scheduling.k8s.io", Version: "v1beta1", Resource: "podgroups"}: true, {Group: "scheduling.k8s.io", Version: "v1beta1", Resource: "workloads"}: true}
	want := "the cluster serves podgroups.scheduling.k8s.io/v1beta1, workloads.scheduling.k8s.io/v1beta1, so it runs with the GenericWorkload feature gate"
	if n := podGroupNote(withGroups); !strings.HasPrefix(n, want) {
		t.Errorf("note %q, want it to start %q", n, want)
	}
}
