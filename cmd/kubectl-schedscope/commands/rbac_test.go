package commands

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/engine"
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
