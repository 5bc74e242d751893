package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/engine/fixture"
)

// TestAdmissionMatchesAPIServer loads a fixture with two LimitRanges
// (defaulting different resources: with the same one, upstream's result
// depends on its cache's order), a
// global default PriorityClass and a RuntimeClass, and creates the same
// objects on a real kube-apiserver: the pod the scheduler sees must be the
// one the API server stored (requests, priority, preemption policy,
// tolerations, overhead, node selector, affinity). A second global default
// is refused by both.
func TestAdmissionMatchesAPIServer(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const manifest = `apiVersion: v1
kind: Namespace
metadata: {name: adm}
---
apiVersion: v1
kind: Node
metadata: {name: node-1, labels: {sandbox: "true"}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: LimitRange
metadata: {name: first, namespace: adm}
spec:
  limits:
  - type: Container
    defaultRequest: {cpu: 100m}
    default: {cpu: 500m}
---
apiVersion: v1
kind: LimitRange
metadata: {name: second, namespace: adm}
spec:
  limits:
  - type: Container
    defaultRequest: {memory: 64Mi}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: batch}
value: 1000
globalDefault: true
preemptionPolicy: Never
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: 250m}}
scheduling:
  nodeSelector: {sandbox: "true"}
  tolerations: [{key: sandbox, operator: Exists, effect: NoSchedule}]
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: adm, labels: {app: web, rev: r2}}
spec:
  runtimeClassName: kata
  affinity:
    podAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 10
        podAffinityTerm:
          labelSelector: {matchLabels: {app: web}}
          matchLabelKeys: [rev]
          topologyKey: kubernetes.io/hostname
  containers: [{name: c, image: nginx}, {name: d, image: nginx, resources: {requests: {cpu: 50m}}}]
`
	fx, err := fixture.Load("admission.yaml", []byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	if len(fx.Pending) != 1 {
		t.Fatalf("%d pending pods", len(fx.Pending))
	}
	ours := fx.Pending[0]

	cp := startControlPlane(t)
	objs, err := fixture.DecodeManifest("admission.yaml", []byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	pending := applyObjects(t, ctx, cp, objs)
	if _, err := cp.client.CoreV1().Pods("adm").Create(ctx, pending[0], metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	real, err := cp.client.CoreV1().Pods("adm").Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// What the scheduler reads of a pod.
	type seen struct {
		Containers       []v1.ResourceRequirements
		Priority         *int32
		PriorityClass    string
		PreemptionPolicy *v1.PreemptionPolicy
		Tolerations      []v1.Toleration
		Overhead         v1.ResourceList
		NodeSelector     map[string]string
		Affinity         *v1.Affinity
	}
	view := func(p *v1.Pod) seen {
		s := seen{Priority: p.Spec.Priority, PriorityClass: p.Spec.PriorityClassName, PreemptionPolicy: p.Spec.PreemptionPolicy,
			Tolerations: p.Spec.Tolerations, Overhead: p.Spec.Overhead, NodeSelector: p.Spec.NodeSelector, Affinity: p.Spec.Affinity}
		for _, c := range p.Spec.Containers {
			s.Containers = append(s.Containers, c.Resources)
		}
		return s
	}
	if diff := cmp.Diff(view(real), view(ours)); diff != "" {
		t.Errorf("the pod the scheduler sees differs from the API server's (-api server +schedscope):\n%s", diff)
	}
	if r := ours.Spec.Containers[0].Resources.Requests; r.Cpu().String() != "100m" || r.Memory().String() != "64Mi" {
		t.Errorf("both LimitRanges' defaults should apply: requests %v", r)
	}

	// A second global default: the API server refuses it, and so does the loader.
	const second = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: other}\nvalue: 5\nglobalDefault: true\n"
	dyn, err := dynamic.NewForConfig(cp.admin)
	if err != nil {
		t.Fatal(err)
	}
	extra, err := fixture.DecodeManifest("second.yaml", []byte(second))
	if err != nil {
		t.Fatal(err)
	}
	realErr := create(ctx, dyn, extra[0])
	_, ourErr := fixture.Load("admission.yaml", []byte(manifest+"---\n"+second))
	if realErr == nil || ourErr == nil {
		t.Fatalf("a second global default: the API server says %v, schedscope says %v; both must refuse it", realErr, ourErr)
	}
	if want := "PriorityClass batch is already marked as default"; !strings.Contains(realErr.Error(), want) || !strings.Contains(ourErr.Error(), want) {
		t.Errorf("refusals differ:\n  API server: %v\n  schedscope: %v", realErr, ourErr)
	}
}
