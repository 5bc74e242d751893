package engine

import (
	"context"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedscope/schedscope/recorder"
)

// mirroredPod is a pod as a mirror copies it from an API server: defaulted
// (scheduler name), versioned, with a UID.
func mirroredPod(name, node string, priority int32) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), ResourceVersion: "1"},
		Spec: v1.PodSpec{NodeName: node, SchedulerName: v1.DefaultSchedulerName, Priority: &priority,
			Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{
				Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("800m")}}}}},
	}
}

// TestMirroredPreemptionLeavesMirroredPods: in a mirrored engine (live mode)
// a preemption nominates the node but its victim stays, since it runs in the
// cluster until the cluster evicts it; each finished cycle reaches
// OnDecided; and the marks only a settling fixture run reads are not kept.
func TestMirroredPreemptionLeavesMirroredPods(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	decided := make(chan *recorder.Cycle, 64)
	src := recorder.Source{Kind: "cluster", Name: "mirror-test"}
	e, err := NewMirrored(ctx, src, Options{OnDecided: func(c *recorder.Cycle) {
		select {
		case decided <- c:
		default:
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Header().Source; got != src {
		t.Errorf("header source %+v, want %+v", got, src)
	}
	alloc := v1.ResourceList{v1.ResourceCPU: resource.MustParse("1"), v1.ResourcePods: resource.MustParse("110")}
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", ResourceVersion: "1"},
		Status: v1.NodeStatus{Allocatable: alloc, Capacity: alloc}}
	victim, preemptor := mirroredPod("victim", "n1", 0), mirroredPod("preemptor", "", 1000)
	pods := v1.SchemeGroupVersion.WithResource("pods")
	tr := e.Tracker()
	if err := tr.Create(v1.SchemeGroupVersion.WithResource("nodes"), node, ""); err != nil {
		t.Fatal(err)
	}
	if err := tr.Create(pods, victim, victim.Namespace); err != nil {
		t.Fatal(err)
	}
	// The mirror's objects are stored as given, never copied.
	if got, err := tr.Get(pods, victim.Namespace, victim.Name); err != nil || got != victim {
		t.Fatalf("the tracker holds %p (%v), not the pod written, %p", got, err, victim)
	}
	if err := e.Start(ctx); err != nil {
		t.Fatal(err)
	}
	go e.Schedule(ctx)
	unlock := e.LockPods()
	err = tr.Create(pods, preemptor, preemptor.Namespace)
	unlock()
	if err != nil {
		t.Fatal(err)
	}

	var c *recorder.Cycle
	for c == nil {
		select {
		case got := <-decided:
			if got.Pod.Name == preemptor.Name && got.Outcome.NominatedNode != "" {
				c = got
			}
		case <-ctx.Done():
			t.Fatal("the preemptor's cycle never nominated a node")
		}
	}
	if c.Outcome.NominatedNode != "n1" {
		t.Fatalf("the preemptor was nominated to %q, want n1", c.Outcome.NominatedNode)
	}
	// Preemption evicts on a goroutine of its own: wait until it has tried.
	for running := true; running; {
		running = false
		for _, x := range e.executors {
			running = running || x.IsPodRunningPreemption(preemptor.UID)
		}
		select {
		case <-ctx.Done():
			t.Fatal("the preemption never ended")
		case <-time.After(time.Millisecond):
		}
	}
	if _, err := tr.Get(pods, victim.Namespace, victim.Name); err != nil {
		t.Errorf("the victim was deleted from the mirror (%v); it runs in the cluster until the cluster evicts it", err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.timeOnly) != 0 || len(e.nominated) != 0 {
		t.Errorf("a mirrored engine kept fixture-run marks: timeOnly %v, nominated %v", e.timeOnly, e.nominated)
	}
}
