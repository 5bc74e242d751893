package engine

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
)

const admissionNode = "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n---\n"

// The loader admits objects with kube-apiserver's own admission plugins,
// in its order, each object seeing only what was created before it.
func TestUpstreamAdmission(t *testing.T) {
	// Upstream's LimitRanger applies each LimitRange of the namespace in
	// turn, in its informer cache's order, and a default fills only what is
	// still missing: two ranges defaulting different resources both apply.
	// (Two defaulting the same resource race on that order, upstream too.)
	limitRange := func(name, resource, value string) string {
		return "apiVersion: v1\nkind: LimitRange\nmetadata: {name: " + name + "}\nspec:\n  limits:\n  - type: Container\n    defaultRequest: {" + resource + ": " + value + "}\n---\n"
	}
	class := func(name, value string, global bool, policy string) string {
		s := "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: " + name + "}\nvalue: " + value + "\n"
		if global {
			s += "globalDefault: true\n"
		}
		if policy != "" {
			s += "preemptionPolicy: " + policy + "\n"
		}
		return s + "---\n"
	}
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n"
	tests := []struct {
		name    string
		fixture string
		check   func(t *testing.T, p *v1.Pod)
		wantErr string
	}{
		{name: "two LimitRanges both apply",
			fixture: admissionNode + limitRange("first", "cpu", "100m") + limitRange("second", "memory", "64Mi") + pod,
			check: func(t *testing.T, p *v1.Pod) {
				r := p.Spec.Containers[0].Resources.Requests
				if r.Cpu().String() != "100m" || r.Memory().String() != "64Mi" {
					t.Errorf("requests %v, want cpu 100m and memory 64Mi", r)
				}
				if p.Annotations["kubernetes.io/limit-ranger"] == "" {
					t.Errorf("no limit-ranger annotation: %v", p.Annotations)
				}
			}},
		{name: "a global default class sets the priority",
			fixture: admissionNode + class("batch", "1000", true, "") + pod,
			check: func(t *testing.T, p *v1.Pod) {
				if p.Spec.PriorityClassName != "batch" || p.Spec.Priority == nil || *p.Spec.Priority != 1000 {
					t.Errorf("class %q priority %v", p.Spec.PriorityClassName, p.Spec.Priority)
				}
			}},
		{name: "two global defaults are refused",
			fixture: admissionNode + class("a", "10", true, "") + class("b", "20", true, "") + pod,
			wantErr: `"b" is forbidden: PriorityClass a is already marked as default`},
		{name: "the class's preemption policy",
			fixture: admissionNode + class("polite", "10", false, "Never") + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: polite\n  containers: [{name: c, image: i}]\n",
			check: func(t *testing.T, p *v1.Pod) {
				if p.Spec.PreemptionPolicy == nil || *p.Spec.PreemptionPolicy != v1.PreemptNever {
					t.Errorf("preemptionPolicy %v, want Never", p.Spec.PreemptionPolicy)
				}
			}},
		{name: "a pod's preemption policy conflicting with its class is refused",
			fixture: admissionNode + class("polite", "10", false, "Never") + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: polite\n  preemptionPolicy: PreemptLowerPriority\n  containers: [{name: c, image: i}]\n",
			wantErr: "PreemptionPolicy (PreemptLowerPriority) must not be provided"},
		{name: "default toleration seconds",
			fixture: admissionNode + pod,
			check: func(t *testing.T, p *v1.Pod) {
				n := 0
				for _, tol := range p.Spec.Tolerations {
					if (tol.Key == v1.TaintNodeNotReady || tol.Key == v1.TaintNodeUnreachable) && tol.TolerationSeconds != nil && *tol.TolerationSeconds == 300 {
						n++
					}
				}
				if n != 2 {
					t.Errorf("tolerations %v: want not-ready and unreachable for 300s", p.Spec.Tolerations)
				}
			}},
		{name: "runtime class overhead and scheduling",
			fixture: admissionNode + "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: kata}\nhandler: kata\noverhead: {podFixed: {cpu: 250m}}\nscheduling:\n  nodeSelector: {sandbox: 'true'}\n  tolerations: [{key: sandbox, operator: Exists}]\n---\n" +
				"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  runtimeClassName: kata\n  containers: [{name: c, image: i}]\n",
			check: func(t *testing.T, p *v1.Pod) {
				if p.Spec.Overhead.Cpu().String() != "250m" || p.Spec.NodeSelector["sandbox"] != "true" {
					t.Errorf("overhead %v, nodeSelector %v", p.Spec.Overhead, p.Spec.NodeSelector)
				}
			}},
		{name: "a pod's overhead conflicting with its runtime class is refused",
			fixture: admissionNode + "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: kata}\nhandler: kata\noverhead: {podFixed: {cpu: 250m}}\n---\n" +
				"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  runtimeClassName: kata\n  overhead: {cpu: 1}\n  containers: [{name: c, image: i}]\n",
			wantErr: "Overhead doesn't match RuntimeClass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx, err := LoadFixture("f.yaml", []byte(tt.fixture))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %v, want one line containing %q", err, tt.wantErr)
				}
				t.Logf("error: %v", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(fx.Pending) != 1 {
				t.Fatalf("%d pending pods", len(fx.Pending))
			}
			tt.check(t, fx.Pending[0])
		})
	}
}
