package e2e

import (
	"context"
	"slices"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	sclib "github.com/schedscope/schedscope/engine/scenario"
)

// TestLibrarySnapshotOfARealCluster: the library's scenario.Snapshot reads a
// real API server as the user schedscope's documented ClusterRole grants,
// only reading, and the scenario it makes schedules the cluster's pending
// pods where the cluster's free room sends them.
func TestLibrarySnapshotOfARealCluster(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cp := startControlPlane(t)
	grantReader(t, ctx, cp)
	for _, n := range []*v1.Node{makeNode("alpha", "zone-a", "4", "8Gi"), makeNode("beta", "zone-b", "8", "16Gi")} {
		if _, err := cp.client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	running := makePod(podSpec{name: "db", cpu: "3", mem: "1Gi"})
	running.Spec.NodeName = "alpha"
	big := makePod(podSpec{name: "big", cpu: "6", mem: "1Gi"})
	huge := makePod(podSpec{name: "huge", cpu: "12", mem: "1Gi"})
	for _, p := range []*v1.Pod{running, big, huge} {
		if _, err := cp.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	sc, err := sclib.Snapshot(ctx, cp.userConfig(schedscopeToken, ""), sclib.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sc.Run(ctx, sclib.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Node("big"); got != "beta" {
		t.Errorf("big (6 cpu; alpha has 1 free, beta 8) went to %q, want beta", got)
	}
	st, err := res.Pod("huge")
	if err != nil {
		t.Fatal(err)
	}
	if st.State != "Unschedulable" || res.Node("huge") != "" {
		t.Errorf("huge (12 cpu, no node has it) is %s on %q, want Unschedulable on none", st.State, res.Node("huge"))
	}
	if got := res.Node("db"); got != "alpha" {
		t.Errorf("db was running on alpha when the snapshot was taken; the run has it on %q", got)
	}

	reqs := cp.requestsBy(t, schedscopeUser)
	if len(reqs) == 0 {
		t.Fatal("the audit log has no request from the library at all; the check would prove nothing")
	}
	for _, r := range reqs {
		if !slices.Contains([]string{"get", "list", "watch"}, r.Verb) {
			t.Errorf("the library sent %s %s", r.Verb, r.RequestURI)
		}
	}
}
