package recorder

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClusterStateLost(t *testing.T) {
	problems := []string{
		`sync "shop/web-5d8f" failed with pods "web-5d8f-abcde" is forbidden: maximum cpu usage per Container is 500m, but limit is 1`,
		`failed to provision volume for claim "data/pg-db-0": no capacity`,
	}
	st := &ClusterState{
		Workloads: []WorkloadState{
			{Kind: "Deployment", Namespace: "shop", Name: "web", Desired: 3},
			{Kind: "StatefulSet", Namespace: "data", Name: "db", Desired: 3, Pods: []WorkloadPod{{Name: "db-0", Node: "n1"}, {Name: "db-1"}}},
			{Kind: "DaemonSet", Namespace: "data", Name: "agent", Desired: 2, Pods: []WorkloadPod{{Name: "agent-x", Node: "n1"}}},
			{Kind: "Job", Namespace: "data", Name: "ok", Desired: 1, Pods: []WorkloadPod{{Name: "ok-0", Node: "n1"}}},
		},
		Budgets: []BudgetState{{Namespace: "shop", Name: "web", Error: "found no controllers for pod \"x\""}, {Namespace: "shop", Name: "fine"}},
		Claims: []ClaimState{
			{Namespace: "data", Name: "pg-db-0", Phase: "Pending", SelectedNode: "n1"},
			{Namespace: "data", Name: "waits", Phase: "Pending"},
			{Namespace: "data", Name: "bound", Phase: "Bound", SelectedNode: "n1"},
		},
	}
	want := []Lost{
		{Kind: "Deployment", Namespace: "shop", Name: "web", What: "3 of 3 pod(s) not made", Cause: problems[0]},
		{Kind: "DaemonSet", Namespace: "data", Name: "agent", What: "1 of 2 pod(s) not made"},
		{Kind: "PodDisruptionBudget", Namespace: "shop", Name: "web", What: "not computed", Cause: `found no controllers for pod "x"`},
		{Kind: "PersistentVolumeClaim", Namespace: "data", Name: "pg-db-0", What: "not provisioned on n1", Cause: problems[1]},
	}
	if diff := cmp.Diff(want, st.Lost(problems)); diff != "" {
		t.Errorf("Lost (-want +got):\n%s", diff)
	}
	if got := (*ClusterState)(nil).Lost(problems); got != nil {
		t.Errorf("live mode (no cluster state): %v", got)
	}
}
