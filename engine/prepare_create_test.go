package engine

import (
	"os"
	"testing"

	v1 "k8s.io/api/core/v1"
)

// The loader keeps what the API server's create path does to an object: the
// pod strategy merges matchLabelKeys into the term's selector and marks a
// gated pod; the identity, creation time and running status the fixture
// gives are kept.
func TestLoaderKeepsTheCreatePath(t *testing.T) {
	data, err := os.ReadFile("e2e/testdata/match-label-keys.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, []byte(`
---
apiVersion: v1
kind: Pod
metadata: {name: gated, namespace: default}
spec:
  schedulingGates: [{name: example.com/quota}]
  containers: [{name: c, image: nginx}]
`)...)
	fx, err := LoadFixture("match-label-keys.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	var newPod, gated *v1.Pod
	for _, p := range fx.Pending {
		switch p.Name {
		case "web-v2-new":
			newPod = p
		case "gated":
			gated = p
		}
	}
	if newPod == nil || gated == nil {
		t.Fatalf("pending pods: %v", fx.Pending)
	}
	sel := newPod.Spec.Affinity.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.LabelSelector
	if len(sel.MatchExpressions) != 1 || sel.MatchExpressions[0].Key != "pod-template-hash" || sel.MatchExpressions[0].Values[0] != "v2" {
		t.Errorf("the term's selector is %v; want pod-template-hash In (v2) merged in", sel)
	}
	if newPod.UID == "" || newPod.CreationTimestamp != fixtureEpoch || newPod.Status.Phase != v1.PodPending || newPod.Status.QOSClass != v1.PodQOSBurstable {
		t.Errorf("pending pod: uid %q, created %v, status %+v", newPod.UID, newPod.CreationTimestamp, newPod.Status)
	}
	var cond *v1.PodCondition
	for i := range gated.Status.Conditions {
		if gated.Status.Conditions[i].Type == v1.PodScheduled {
			cond = &gated.Status.Conditions[i]
		}
	}
	if cond == nil || cond.Reason != v1.PodReasonSchedulingGated || cond.Message != "Scheduling is blocked due to non-empty scheduling gates" {
		t.Errorf("gated pod's PodScheduled condition: %+v", cond)
	}
	for _, o := range fx.Objects {
		switch o := o.(type) {
		case *v1.Pod:
			if o.Status.Phase != v1.PodRunning {
				t.Errorf("bound pod %s: phase %q, want Running", o.Name, o.Status.Phase)
			}
		case *v1.Node:
			if o.Status.Allocatable.Cpu().String() != "8" {
				t.Errorf("node %s lost its allocatable: %v", o.Name, o.Status.Allocatable)
			}
		}
	}
}
