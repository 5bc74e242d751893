package e2e

import (
	"context"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// A pod on a cluster without nodes: the real kube-scheduler retries it
// after backoff and keeps its PodScheduled condition at Unschedulable with
// its message; schedscope's run ends with the pod in Backoff, after its
// attempts, with the same reason and message.
func TestPodInBackoffMatchesRealScheduler(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	const manifest = `apiVersion: v1
kind: Pod
metadata: {name: lonely, namespace: default}
spec: {containers: [{name: c, image: nginx}]}
`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	objs, err := fixture.DecodeManifest("no-nodes.yaml", []byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	cp := startControlPlane(t)
	pending := applyObjects(t, ctx, cp, objs)
	cp.startScheduler(t, ctx)
	real, _ := scheduleOneByOne(t, ctx, cp, pending)
	// The real scheduler keeps retrying it: its condition stays as it was
	// after a later attempt too.
	var cond v1.PodCondition
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		p, err := cp.client.CoreV1().Pods("default").Get(ctx, "lonely", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, c := range p.Status.Conditions {
			if c.Type == v1.PodScheduled {
				cond = c
			}
		}
		return cond.Status == v1.ConditionFalse && cond.Reason != "", nil
	}); err != nil {
		t.Fatalf("no PodScheduled condition on the real cluster: %v", err)
	}

	fx, err := fixture.Load("no-nodes.yaml", []byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var cycles []*recorder.Cycle
	var queue []*recorder.QueueEvent
	e, err := engine.New(ctx, fx, engine.Options{
		OnCycle: func(c *recorder.Cycle) { mu.Lock(); cycles = append(cycles, c); mu.Unlock() },
		OnQueue: func(ev *recorder.QueueEvent) { mu.Lock(); queue = append(queue, ev); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	states := recorder.PodStates(cycles, nil, queue)
	mu.Unlock()
	if len(states) != 1 {
		t.Fatalf("states %+v, want one pod", states)
	}
	st := states[0]
	if st.State != recorder.PodBackoff || st.Attempts != len(st.Seqs) || st.BackoffUntil.IsZero() {
		t.Errorf("schedscope: %+v, want Backoff after its attempts", st)
	}
	if st.Reason != cond.Reason || st.Message != cond.Message || st.Message != real["default/lonely"].message {
		t.Errorf("PodScheduled: schedscope %s %q, kube-scheduler %s %q", st.Reason, st.Message, cond.Reason, cond.Message)
	}
}
