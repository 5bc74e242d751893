package engine

import (
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

// TestPodGroupGateStarts: with GenericWorkload on, the engine starts and a
// pod in no group is scheduled and recorded as with the gate off; a fixture
// with a pod group loads (scheduling.k8s.io/v1beta1 is served), says in one
// warning that pod-group cycles are not recorded as such yet, and the run
// ends.
func TestPodGroupGateStarts(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	res, cycles := runFixture(t, "one.yaml", []byte(podGroupNode+"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: pause}]\n"), Options{})
	if len(cycles) != 1 || res.Bindings["default/p"] != "n1" {
		t.Errorf("got %d cycles and bindings %v, want one cycle binding p to n1", len(cycles), res.Bindings)
	}
	data := []byte(podGroupNode + `apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: g}
spec:
  schedulingPolicy: {gang: {minCount: 2}}
---
apiVersion: v1
kind: Pod
metadata: {name: alone}
spec:
  containers: [{name: c, image: pause}]
---
apiVersion: v1
kind: Pod
metadata: {name: m1}
spec:
  schedulingGroup: {podGroupName: g}
  containers: [{name: c, image: pause}]
---
apiVersion: v1
kind: Pod
metadata: {name: m2}
spec:
  schedulingGroup: {podGroupName: g}
  containers: [{name: c, image: pause}]
`)
	fx, err := fixture.Load("group.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	for _, w := range fx.Warnings {
		if strings.Contains(w, "pod-group cycle") {
			warned = append(warned, w)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "GenericWorkload") {
		t.Errorf("warnings %q, want one naming GenericWorkload and pod-group cycles", fx.Warnings)
	}
	if _, err := fixture.Load("alpha.yaml", []byte(podGroupNode+"apiVersion: scheduling.k8s.io/v1alpha3\nkind: PodGroup\nmetadata: {name: g}\n")); err == nil || !strings.Contains(err.Error(), "scheduling.k8s.io/v1beta1 only") {
		t.Errorf("a v1alpha3 PodGroup with the gate on: %v, want refused (an Alpha API schedscope does not serve)", err)
	}
	res, _ = runFixture(t, "group.yaml", data, Options{})
	if res.Bindings["default/alone"] != "n1" {
		t.Errorf("bindings %v, want alone on n1", res.Bindings)
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
