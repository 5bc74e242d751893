package engine

import (
	"context"
	"strings"
	"testing"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"

	"github.com/schedscope/schedscope/engine/fixture"
)

const podGroupNode = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
`

// TestPodGroupGateRefused: with GenericWorkload on, kube-scheduler schedules
// pod groups in cycles schedscope's hooks never see; the engine refuses to
// start rather than lose them, in one line naming the gate.
func TestPodGroupGateRefused(t *testing.T) {
	fx, err := fixture.Load("one.yaml", []byte(podGroupNode+"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: pause}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = New(ctx, fx, Options{})
	if err == nil {
		t.Fatal("the engine started with the GenericWorkload feature gate on")
	}
	if msg := err.Error(); !strings.Contains(msg, "the GenericWorkload feature gate is on") || strings.Contains(msg, "\n") {
		t.Errorf("error %q, want one line naming the GenericWorkload feature gate", msg)
	}
}

// TestPodGroupKindsRefused: kube-apiserver serves Workload, PodGroup and
// CompositePodGroup only with GenericWorkload on; a fixture holding one is
// refused with its line, as a create would be.
func TestPodGroupKindsRefused(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"podgroup v1beta1", "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n",
			`pg.yaml:6: no matches for kind "PodGroup" in version "scheduling.k8s.io/v1beta1": kube-apiserver serves it only with the GenericWorkload feature gate`},
		{"workload v1alpha3", "apiVersion: scheduling.k8s.io/v1alpha3\nkind: Workload\nmetadata: {name: w}\n",
			`pg.yaml:6: no matches for kind "Workload" in version "scheduling.k8s.io/v1alpha3"`},
		{"priority class is served", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 10\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fixture.Load("pg.yaml", []byte(podGroupNode+tt.doc))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("fixture.Load: %v", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n")):
				t.Errorf("fixture.Load error %v, want one line starting %q", err, tt.want)
			}
		})
	}
}

// TestSchedulingGroupDroppedAsUpstream: with GenericWorkload off,
// kube-apiserver drops a pod's spec.schedulingGroup on create, and the pod is
// scheduled alone in an ordinary cycle.
func TestSchedulingGroupDroppedAsUpstream(t *testing.T) {
	data := []byte(podGroupNode + "apiVersion: v1\nkind: Pod\nmetadata: {name: member}\nspec:\n  schedulingGroup: {podGroupName: g}\n  containers: [{name: c, image: pause}]\n")
	fx, err := fixture.Load("member.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(fx.Pending) != 1 || fx.Pending[0].Spec.SchedulingGroup != nil {
		t.Fatalf("pending pods %v: want member without spec.schedulingGroup", fx.Pending)
	}
	res, cycles := runFixture(t, "member.yaml", data, Options{})
	if len(cycles) != 1 || res.Bindings["default/member"] != "n1" {
		t.Errorf("got %d cycles and bindings %v, want one cycle binding member to n1", len(cycles), res.Bindings)
	}
}
