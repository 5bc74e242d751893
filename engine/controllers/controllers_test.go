package controllers

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/util/workqueue"
)

// TestEveryControllerQueueIsCounted constructs the whole set on the pinned
// Kubernetes: each upstream controller's work queues are found and swapped
// for counted ones (a renamed or retyped field fails here, naming it).
func TestEveryControllerQueueIsCounted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := fake.NewSimpleClientset()
	s, err := New(ctx, Deps{Client: client, Informers: informers.NewSharedInformerFactory(client, 0), Changed: func() {}, Run: All})
	if err != nil {
		t.Fatal(err)
	}
	want := 2 // the simulated kubelet's and provisioner's
	for _, fields := range controllerQueues {
		want += len(fields)
	}
	if len(s.queues) != want {
		t.Fatalf("want %d counted queues, got %d", want, len(s.queues))
	}
	if b := s.Busy(); b != "" {
		t.Errorf("a set with nothing to do says %q", b)
	}
	s.queues[0].Add("default/web")
	if b := s.Busy(); !strings.Contains(b, "1 queued") {
		t.Errorf("a queued item: Busy says %q", b)
	}
}

// TestCountedQueueErrsTowardBusy follows one item through a counted queue:
// queued, in progress, added again while in progress, done, due again soon.
func TestCountedQueueErrsTowardBusy(t *testing.T) {
	kicks := 0
	q := newCountedQueue("q", workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()), func() { kicks++ })
	defer q.ShutDown()
	now := time.Now()
	if b := q.busy(now); b != "" {
		t.Fatalf("empty queue busy: %q", b)
	}
	q.Add("a")
	if b := q.busy(now); b != "q: 1 queued" {
		t.Errorf("after Add: %q", b)
	}
	item, _ := q.Get()
	if b := q.busy(now); b != "q: 1 in progress" {
		t.Errorf("after Get: %q", b)
	}
	q.Add(item) // changed while being worked on: the queue holds it back
	q.Done(item)
	if b := q.busy(now); b != "q: 1 queued" {
		t.Errorf("after Done of an item added meanwhile: %q", b)
	}
	item, _ = q.Get()
	q.Done(item)
	if b := q.busy(time.Now()); b != "" {
		t.Errorf("after the second Done: %q", b)
	}
	q.AddAfter("b", 50*time.Millisecond)
	if b := q.busy(time.Now()); !strings.Contains(b, "1 due again") {
		t.Errorf("after AddAfter within the window: %q", b)
	}
	q.AddAfter("c", time.Minute)
	item, _ = q.Get() // b, once due
	q.Done(item)
	if b := q.busy(time.Now()); b != "" {
		t.Errorf("a minute-long delay holds nothing: %q", b)
	}
	if kicks == 0 {
		t.Error("the queue never woke the run")
	}
}

// TestREADMEListsEveryPart: the fixtures help page's "What runs beside the scheduler"
// names each upstream package and each simulated part a run has.
func TestREADMEListsEveryPart(t *testing.T) {
	data, err := os.ReadFile("../../cmd/kubectl-schedscope/commands/help/fixtures.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	for _, p := range Parts {
		want := p.Name
		if p.Upstream != "" {
			want = strings.TrimPrefix(p.Upstream, "k8s.io/kubernetes/")
		}
		if !strings.Contains(readme, want) {
			t.Errorf("README does not name %s (%q)", p.Name, want)
		}
	}
}

// A run starts the workload controllers that have objects to sync, and pod
// garbage collection always; a Deployment brings the ReplicaSet controller.
func TestWorkloadsForKinds(t *testing.T) {
	for _, c := range []struct {
		kinds []string
		want  Which
	}{
		{[]string{"Node", "Pod", "Namespace"}, PodGC},
		{[]string{"Node", "Deployment"}, PodGC | DeploymentController | ReplicaSetController},
		{[]string{"ReplicaSet"}, PodGC | ReplicaSetController},
		{[]string{"StatefulSet", "PodDisruptionBudget"}, PodGC | StatefulSetController | DisruptionController},
		{[]string{"Job", "DaemonSet", "ReplicationController"}, PodGC | JobController | DaemonSetController | ReplicationManager},
	} {
		kinds := map[string]bool{}
		for _, k := range c.kinds {
			kinds[k] = true
		}
		if got := WorkloadsFor(kinds); got != c.want {
			t.Errorf("WorkloadsFor(%v) = %b, want %b", c.kinds, got, c.want)
		}
	}
	// Every workload controller is named by some kind.
	all := map[string]bool{}
	for _, ks := range syncs {
		for _, k := range ks {
			all[k] = true
		}
	}
	if got := WorkloadsFor(all); got != Workloads {
		t.Errorf("every kind starts %b, want every workload controller %b", got, Workloads)
	}
}
