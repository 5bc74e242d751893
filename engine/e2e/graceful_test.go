package e2e

import (
	"context"
	"os"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/engine/fixture"
)

// A preemption whose victim takes its grace period to terminate, against the
// real kube-scheduler: while the victim terminates (no kubelet finishes it
// until the test does), the preemptor stays nominated and unbound, and a
// lower-priority pod arriving meanwhile is rejected with the message
// schedscope records, although it would fit beside the victim alone; once
// the victim is gone, the preemptor is bound to the nominated node.
// schedscope runs the same fixture with both pods arriving at once (the
// preemptor first, by priority) and the victim's 30 s on its clock.
func TestGracefulVictimMatchesRealScheduler(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	data, err := os.ReadFile("../testdata/graceful-victim.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	objs, err := fixture.DecodeManifest("graceful-victim.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	cp := startControlPlane(t)
	pending := applyObjects(t, ctx, cp, objs)
	if len(pending) != 2 || pending[0].Name != "urgent" || pending[1].Name != "small" {
		t.Fatalf("pending pods %v, want urgent then small", pending)
	}
	cp.startScheduler(t, ctx)
	pods := cp.client.CoreV1().Pods("default")
	poll := func(what string, done func() (bool, error)) {
		t.Helper()
		if err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 60*time.Second, true, func(context.Context) (bool, error) { return done() }); err != nil {
			t.Fatalf("the real kube-scheduler: %s: %v", what, err)
		}
	}
	get := func(name string) *v1.Pod {
		t.Helper()
		p, err := pods.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	if _, err := pods.Create(ctx, pending[0].DeepCopy(), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	poll("urgent nominated to node-1 with its victim terminating", func() (bool, error) {
		return get("urgent").Status.NominatedNodeName == "node-1" && get("victim").DeletionTimestamp != nil, nil
	})
	if _, err := pods.Create(ctx, pending[1].DeepCopy(), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var realSmall string
	poll("small unschedulable", func() (bool, error) {
		for _, c := range get("small").Status.Conditions {
			if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse && c.Reason == v1.PodReasonUnschedulable {
				realSmall = c.Message
				return true, nil
			}
		}
		return false, nil
	})
	if u := get("urgent"); u.Spec.NodeName != "" || u.Status.NominatedNodeName != "node-1" {
		t.Fatalf("the real kube-scheduler: urgent on %q nominated %q while its victim terminates, want unbound and nominated to node-1", u.Spec.NodeName, u.Status.NominatedNodeName)
	}
	finishVictims(t, ctx, cp)
	poll("urgent bound", func() (bool, error) { return get("urgent").Spec.NodeName != "", nil })
	realUrgent := get("urgent").Spec.NodeName
	if n := get("small").Spec.NodeName; n != "" {
		t.Fatalf("the real kube-scheduler bound small to %s", n)
	}

	fx, err := fixture.Load("graceful-victim.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	res, cycles := runFixtureArriving(t, fx, true)
	if len(cycles) < 3 || cycles[0].Pod.Name != "urgent" || cycles[1].Pod.Name != "small" {
		t.Fatalf("schedscope: %d cycles, want urgent's preemption and then small's", len(cycles))
	}
	if n := cycles[0].Outcome.NominatedNode; n != "node-1" {
		t.Errorf("schedscope nominated %q, kube-scheduler node-1", n)
	}
	if got := cycles[1].Outcome.Message; got != realSmall {
		t.Errorf("small meanwhile: schedscope %q, kube-scheduler %q", got, realSmall)
	}
	if got := res.Bindings["default/urgent"]; got != realUrgent {
		t.Errorf("urgent: schedscope bound it to %q, kube-scheduler to %q", got, realUrgent)
	}
	if got := res.Bindings["default/small"]; got != "" {
		t.Errorf("small: schedscope bound it to %q, kube-scheduler left it pending", got)
	}
}
