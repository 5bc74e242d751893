package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/engine/fixture"
)

// TestCapacityScalesUntilAReplicaIsLeft: two nodes of 2 CPUs hold two
// replicas of 900m each, so a Deployment of one has room for three more;
// the fourth more is left pending for want of CPU.
func TestCapacityScalesUntilAReplicaIsLeft(t *testing.T) {
	fx, err := fixture.Load("cap.yaml", []byte(`apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 900m}}}]
`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Capacity(ctx, fx, Options{}, "Deployment", "default", "web")
	if err != nil {
		t.Fatal(err)
	}
	if res.Replicas != 1 || res.Placed != 1 || res.More != 3 || res.Limit != 0 {
		t.Errorf("want 1 asked, 1 placed, 3 more; got %+v", res)
	}
	if !strings.Contains(res.Stopped, "2 Insufficient cpu") {
		t.Errorf("the replica left should be stopped by CPU, got %q", res.Stopped)
	}
	if _, err := Capacity(ctx, fx, Options{}, "Deployment", "default", "api"); err == nil || !strings.Contains(err.Error(), "no Deployment default/api") {
		t.Errorf("an unknown workload: want an error naming it, got %v", err)
	}
}

// TestNextReplicaSuggests forks at the replica capacity found left pending
// and asks suggest what would let it fit: the fork is that replica's
// Unschedulable cycle, with capacity's message, and a confirmed change.
func TestNextReplicaSuggests(t *testing.T) {
	fx := loadEmbedded(t, "workloads")
	ctx := context.Background()
	res, err := Capacity(ctx, fx, Options{}, "Deployment", "default", "web")
	if err != nil {
		t.Fatal(err)
	}
	f, err := NextReplica(ctx, fx, Options{}, res)
	if err != nil {
		t.Fatal(err)
	}
	if f.Recorded.Outcome.Message != res.Stopped {
		t.Errorf("the fork's cycle says %q; capacity said %q", f.Recorded.Outcome.Message, res.Stopped)
	}
	if !strings.HasPrefix(f.Pod.Name, "web-") {
		t.Errorf("forked at pod %s, not a replica of web", f.Pod.Name)
	}
	sg, err := Suggest(ctx, f, SuggestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sg.Suggestions) == 0 {
		t.Fatalf("no confirmed change for replica %d: %+v", res.Replicas+res.More+1, sg)
	}
	t.Logf("%d more fit; replica %d: %s", res.More, res.Replicas+res.More+1, sg.Suggestions[0].Text)
}
