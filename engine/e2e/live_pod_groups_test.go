package e2e

import (
	"context"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/utils/ptr"

	"github.com/schedscope/schedscope/engine/live"
	"github.com/schedscope/schedscope/recorder"
)

// TestLiveWithPodGroups runs schedscope live next to the real
// kube-scheduler on a control plane with GenericWorkload on: live mirrors
// the PodGroups, predicts each gang in a pod-group cycle, as kube-scheduler
// places it, and each member's prediction agrees with what the cluster
// did: a gang that binds (each member on the node kube-scheduler bound it
// to), and a gang that fails though two of its members fit (no member
// bound, the same message).
func TestLiveWithPodGroups(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cp := startControlPlane(t, podGroupAPIServerFlags...)
	// The printed ClusterRole under the gate names pod groups; the command
	// sets the process's gates as its flag says, and the test keeps them so.
	grantReader(t, ctx, cp, "--feature-gates=GenericWorkload=true")
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	for _, n := range []*v1.Node{makeNode("s1", "zone-a", "4", "8Gi"), makeNode("s2", "zone-b", "3", "8Gi")} {
		if _, err := cp.client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for name, min := range map[string]int32{"train": 2, "infer": 3} {
		pg := &schedulingv1beta1.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
			Spec: schedulingv1beta1.PodGroupSpec{SchedulingPolicy: schedulingv1beta1.PodGroupSchedulingPolicy{Gang: &schedulingv1beta1.GangSchedulingPolicy{MinCount: min}}}}
		if _, err := cp.client.SchedulingV1beta1().PodGroups("default").Create(ctx, pg, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	cp.startScheduler(t, ctx, podGroupSchedulerFlags...)

	s := newSession()
	var gmu sync.Mutex
	var groups []*recorder.PodGroupCycle
	opts := live.Options{Cluster: cp.reader(t, schedscopeToken, "", "e2e"), SyncTimeout: 30 * time.Second}
	s.options(&opts)
	opts.OnPodGroup = func(g *recorder.PodGroupCycle) {
		gmu.Lock()
		groups = append(groups, g)
		gmu.Unlock()
		s.poke()
	}
	session, err := live.New(ctx, opts)
	if err != nil {
		t.Fatalf("starting live mode: %v", err)
	}
	mirrored := false
	for _, r := range session.Resources() {
		mirrored = mirrored || r.Resource == "podgroups"
	}
	if !mirrored {
		t.Fatalf("live mirrors %v, without podgroups", session.Resources())
	}
	runDone := make(chan error, 1)
	go func() { runDone <- session.Run(ctx) }()

	member := func(name, group, cpu string) *v1.Pod {
		p := makePod(podSpec{name: name, cpu: cpu, mem: "256Mi"})
		p.Spec.SchedulingGroup = &v1.PodSchedulingGroup{PodGroupName: ptr.To(group)}
		return p
	}
	// groupCycle waits for live's last pod-group cycle of group that took
	// all of want, and returns it.
	groupCycle := func(group string, want int) *recorder.PodGroupCycle {
		var got *recorder.PodGroupCycle
		s.waitFor(t, "live's pod-group cycle of "+group, 60*time.Second, func() bool {
			gmu.Lock()
			defer gmu.Unlock()
			for _, g := range groups {
				if g.Group.Name == group && len(g.Members) == want {
					got = g
				}
			}
			return got != nil
		})
		return got
	}
	check := func(t *testing.T, name string) *recorder.Observed {
		t.Helper()
		key := "default/" + name
		s.waitFor(t, "the cluster's decision on "+key, 60*time.Second, func() bool { return s.observed[key] != nil })
		s.mu.Lock()
		o := s.observed[key]
		cycles := s.cyclesFor(key)
		s.mu.Unlock()
		if len(cycles) == 0 || o.Seq == 0 {
			t.Fatalf("%s: schedscope ran no cycle before the cluster decided (observed %+v)", key, o)
		}
		t.Logf("%s: schedscope predicted %q, the real kube-scheduler chose %q %s", key, o.Predicted, o.Node, o.Message)
		if !o.Agrees() {
			t.Errorf("%s: schedscope predicted %q (tie set %v), the real kube-scheduler chose %q", key, o.Predicted, o.TieSet, o.Node)
		}
		if o.Node == "" {
			if last := cycles[len(cycles)-1]; last.Outcome.Message != o.Message {
				t.Errorf("%s: unschedulable message differs\nschedscope: %s\ncluster:    %s", key, last.Outcome.Message, o.Message)
			}
		}
		return o
	}

	t.Run("a gang that binds", func(t *testing.T) {
		for _, n := range []string{"train-0", "train-1"} {
			if _, err := cp.client.CoreV1().Pods("default").Create(ctx, member(n, "train", "500m"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		observed := map[string]string{}
		for _, n := range []string{"train-0", "train-1"} {
			observed[n] = check(t, n).Node
		}
		g := groupCycle("train", 2)
		if g.Outcome.Result != recorder.ResultBound {
			t.Errorf("live's pod-group cycle of train: %s %q, want Bound", g.Outcome.Result, g.Outcome.Message)
		}
		for _, m := range g.Members {
			if m.Node != observed[m.Pod.Name] {
				t.Errorf("train member %s: live's group cycle placed it on %q, kube-scheduler bound it to %q", m.Pod.Name, m.Node, observed[m.Pod.Name])
			}
		}
	})

	t.Run("a gang that fails with members that fit", func(t *testing.T) {
		names := []string{"infer-0", "infer-1", "infer-2"}
		for _, n := range names {
			if _, err := cp.client.CoreV1().Pods("default").Create(ctx, member(n, "infer", "2500m"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		for _, n := range names {
			if o := check(t, n); o.Node != "" {
				t.Errorf("%s: bound to %s by kube-scheduler, want no member bound", n, o.Node)
			}
		}
		g := groupCycle("infer", 3)
		placed := 0
		for _, m := range g.Members {
			if m.Node != "" {
				placed++
			}
		}
		if g.Outcome.Result != recorder.ResultUnschedulable || placed != 2 {
			t.Errorf("live's pod-group cycle of infer: %s with %d members placed, want Unschedulable with two placed and reverted", g.Outcome.Result, placed)
		}
		// kube-scheduler patches the PodGroup after its members.
		var pg *schedulingv1beta1.PodGroup
		if err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
			var err error
			pg, err = cp.client.SchedulingV1beta1().PodGroups("default").Get(ctx, "infer", metav1.GetOptions{})
			return err == nil && len(pg.Status.Conditions) > 0, err
		}); err != nil {
			t.Fatalf("kube-scheduler set no condition on infer: %v", err)
		}
		if c := g.Condition; c == nil || len(pg.Status.Conditions) == 0 || c.Message != pg.Status.Conditions[0].Message || c.Status != string(pg.Status.Conditions[0].Status) {
			t.Errorf("infer's condition: live's group cycle %+v, the API server %+v", c, pg.Status.Conditions)
		}
	})

	cancel()
	if err := <-runDone; err != nil {
		t.Errorf("session.Run: %v", err)
	}
}
