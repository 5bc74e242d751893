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
