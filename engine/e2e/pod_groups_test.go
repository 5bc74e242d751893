package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/schedscope/schedscope/engine/fixture"
)

// TestPodGroupsWithGateOff checks what kube-apiserver and kube-scheduler
// v1.37.1 do with pod groups while GenericWorkload is off (the default), and
// that schedscope does the same: a pod's spec.schedulingGroup is dropped on
// create and the pod is scheduled alone; a PodGroup is not served.
func TestPodGroupsWithGateOff(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const manifest = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: member}
spec:
  schedulingGroup: {podGroupName: g}
  containers: [{name: c, image: pause}]
`
	cp := startControlPlane(t)
	if _, err := cp.client.CoreV1().Nodes().Create(ctx, makeNode("n1", "z", "4", "8Gi"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cp.startScheduler(t, ctx)
	member := makePod(podSpec{name: "member", cpu: "100m", mem: "64Mi"})
	member.Spec.SchedulingGroup = &v1.PodSchedulingGroup{PodGroupName: ptr.To("g")}
	stored, err := cp.client.CoreV1().Pods("default").Create(ctx, member, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if stored.Spec.SchedulingGroup != nil {
		t.Fatalf("kube-apiserver kept spec.schedulingGroup %+v with GenericWorkload off; schedscope drops it", stored.Spec.SchedulingGroup)
	}
	var realNode string
	if err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		p, err := cp.client.CoreV1().Pods("default").Get(ctx, "member", metav1.GetOptions{})
		realNode = p.Spec.NodeName
		return realNode != "", err
	}); err != nil {
		t.Fatalf("kube-scheduler did not bind member: %v", err)
	}
	dyn, err := dynamic.NewForConfig(cp.admin)
	if err != nil {
		t.Fatal(err)
	}
	pg := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "metadata": map[string]any{"name": "g"}}}
	_, realErr := dyn.Resource(schema.GroupVersionResource{Group: "scheduling.k8s.io", Version: "v1beta1", Resource: "podgroups"}).Namespace("default").Create(ctx, pg, metav1.CreateOptions{})
	if !apierrors.IsNotFound(realErr) {
		t.Errorf("creating a PodGroup on kube-apiserver: %v, want NotFound (not served)", realErr)
	}

	fx, err := fixture.Load("member.yaml", []byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	if fx.Pending[0].Spec.SchedulingGroup != nil {
		t.Errorf("schedscope kept spec.schedulingGroup; kube-apiserver dropped it")
	}
	ours := simulateFixture(t, fx)
	if got := ours["default/member"].node; got != realNode {
		t.Errorf("member: kube-scheduler bound it to %q, schedscope to %q", realNode, got)
	}
	_, ourErr := fixture.Load("pg.yaml", []byte(manifest+"---\napiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n"))
	if ourErr == nil || !strings.Contains(ourErr.Error(), `no matches for kind "PodGroup"`) {
		t.Errorf("a fixture with a PodGroup: %v, want it refused as kube-apiserver refuses it (%v)", ourErr, realErr)
	}
}
