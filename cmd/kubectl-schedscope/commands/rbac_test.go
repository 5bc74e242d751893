package commands

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/featuregates"
)

// TestClusterRoleGrantsWhatIsRead: the ClusterRole grants get, list and
// watch on what live reads (the scheduler's informers) and what snapshot
// reads besides (the classes and limits admission applied), and nothing
// else.
func TestClusterRoleGrantsWhatIsRead(t *testing.T) {
	ctx := context.Background()
	role, err := clusterRole(ctx, &engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var granted []string
	for _, r := range role.Rules {
		if !slices.Equal(r.Verbs, []string{"get", "list", "watch"}) {
			t.Errorf("rule %v grants %v, want get, list and watch", r.Resources, r.Verbs)
		}
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				granted = append(granted, g+"/"+res)
			}
		}
	}
	var read []string
	live, err := engine.ReadResources(ctx, &engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	snapshot, err := engine.SnapshotResources(ctx, &engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, gvr := range append(live, snapshot...) {
		if s := gvr.Group + "/" + gvr.Resource; !slices.Contains(read, s) {
			read = append(read, s)
		}
	}
	slices.Sort(granted)
	slices.Sort(read)
	if diff := cmp.Diff(read, granted); diff != "" {
		t.Errorf("resources granted (-read by live or snapshot +granted):\n%s", diff)
	}
}

// TestClusterRoleOptions: --metrics adds the GET of /metrics live reads
// the cluster's feature gates with; --feature-gates=GenericWorkload=true
// grants the pod groups the scheduler then reads.
func TestClusterRoleOptions(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	out, errOut, code := run(t, "rbac", "--metrics")
	if code != 0 || !strings.Contains(out, "nonResourceURLs:\n  - /metrics\n  verbs:\n  - get\n") {
		t.Errorf("rbac --metrics: exit %d (%s):\n%s", code, errOut, out)
	}
	if strings.Contains(out, "podgroups") {
		t.Errorf("rbac grants podgroups with GenericWorkload off:\n%s", out)
	}
	out, errOut, code = run(t, "rbac", "--feature-gates=GenericWorkload=true")
	if code != 0 || !strings.Contains(out, "podgroups") || strings.Contains(out, "/metrics") {
		t.Errorf("rbac --feature-gates=GenericWorkload=true: exit %d (%s), want podgroups and no /metrics:\n%s", code, errOut, out)
	}
}
