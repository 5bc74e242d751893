package e2e

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
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
// bound, the same message); then a Basic-policy group whose two members
// that fit bind and whose third is unschedulable with its own message, and
// a gang that binds only by preempting lower-priority pods (live's first
// cycle of it waits on its PostFilter's victims, its retry binds each
// member where kube-scheduler did).
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
	for name, min := range map[string]int32{"train": 2, "infer": 3, "hi": 2, "web": 0} {
		policy := schedulingv1beta1.PodGroupSchedulingPolicy{Gang: &schedulingv1beta1.GangSchedulingPolicy{MinCount: min}}
		if min == 0 {
			policy = schedulingv1beta1.PodGroupSchedulingPolicy{Basic: &schedulingv1beta1.BasicSchedulingPolicy{}}
		}
		pg := &schedulingv1beta1.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: schedulingv1beta1.PodGroupSpec{SchedulingPolicy: policy}}
		if _, err := cp.client.SchedulingV1beta1().PodGroups("default").Create(ctx, pg, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	low := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "low"}, Value: -10}
	if _, err := cp.client.SchedulingV1().PriorityClasses().Create(ctx, low, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
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

	// removeAll deletes pods at once (no kubelet finishes them) and waits
	// until the cluster has none of them.
	removeAll := func(t *testing.T, names ...string) {
		t.Helper()
		zero := int64(0)
		for _, n := range names {
			if err := cp.client.CoreV1().Pods("default").Delete(ctx, n, metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
				t.Fatal(err)
			}
		}
		if err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
			for _, n := range names {
				if _, err := cp.client.CoreV1().Pods("default").Get(ctx, n, metav1.GetOptions{}); err == nil {
					return false, nil
				}
			}
			return true, nil
		}); err != nil {
			t.Fatalf("deleting %v: %v", names, err)
		}
	}

	t.Run("a Basic group", func(t *testing.T) {
		// infer, retried for ever, is out of the way; s1 has 3500m free
		// and s2 2500m beside train: two members of 2 cpu fit, the third
		// does not, and a Basic group binds the two.
		removeAll(t, "infer-0", "infer-1", "infer-2")
		names := []string{"web-0", "web-1", "web-2"}
		for _, n := range names {
			if _, err := cp.client.CoreV1().Pods("default").Create(ctx, member(n, "web", "2"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		observed := map[string]string{}
		bound := 0
		for _, n := range names {
			o := check(t, n)
			observed[n] = o.Node
			if o.Node != "" {
				bound++
			}
		}
		if bound != 2 {
			t.Errorf("kube-scheduler bound %d of web's members (%v), want 2", bound, observed)
		}
		// The members were created one by one, and a Basic group waits for
		// no minCount: a cycle may take some of them. Each member's last
		// pod-group cycle placed it where kube-scheduler bound it.
		last := map[string]recorder.GroupMember{}
		gmu.Lock()
		var seen []string
		for _, g := range groups {
			if g.Group.Name != "web" {
				continue
			}
			seen = append(seen, fmt.Sprintf("%s with %d member(s): %s", g.Policy, len(g.Members), g.Outcome.Result))
			if g.Policy != recorder.PolicyBasic {
				t.Errorf("live's pod-group cycle of web has policy %q, want %s", g.Policy, recorder.PolicyBasic)
			}
			for _, m := range g.Members {
				last[m.Pod.Name] = m
			}
		}
		gmu.Unlock()
		t.Logf("live's pod-group cycles of web: %q", seen)
		for _, n := range names {
			m, ok := last[n]
			if !ok {
				t.Errorf("web member %s: in none of live's pod-group cycles", n)
			} else if m.Node != observed[n] {
				t.Errorf("web member %s: live's last group cycle of it placed it on %q, kube-scheduler bound it to %q", n, m.Node, observed[n])
			}
		}
		removeAll(t, names...)
	})

	t.Run("a gang that binds by preempting", func(t *testing.T) {
		// Low-priority pods fill s1 and s2 to 500m free beside train; hi's
		// members (2 cpu, priority 0) fit only once both are preempted, one
		// on each node (s1 would have 3500m free, s2 2500m).
		for _, v := range []struct{ name, node, cpu string }{{"low-1", "s1", "3"}, {"low-2", "s2", "2"}} {
			p := makePod(podSpec{name: v.name, cpu: v.cpu, mem: "256Mi"})
			p.Spec.NodeName, p.Spec.PriorityClassName = v.node, "low"
			if _, err := cp.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		names := []string{"hi-0", "hi-1"}
		for _, n := range names {
			if _, err := cp.client.CoreV1().Pods("default").Create(ctx, member(n, "hi", "2"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		// The victims are deleted gracefully and no kubelet finishes them:
		// finish them, as one would, until both members are bound.
		if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 90*time.Second, true, func(ctx context.Context) (bool, error) {
			finishVictims(t, ctx, cp)
			s.mu.Lock()
			defer s.mu.Unlock()
			for _, n := range names {
				if o := s.observed["default/"+n]; o == nil || o.Node == "" {
					return false, nil
				}
			}
			return true, nil
		}); err != nil {
			t.Fatalf("hi's members were not both bound: %v", err)
		}
		observed := map[string]string{}
		for _, n := range names {
			o := check(t, n)
			observed[n] = o.Node
		}
		if observed["hi-0"] == observed["hi-1"] {
			t.Errorf("hi's members both bound to %q, want one on each node", observed["hi-0"])
		}
		for _, v := range []string{"low-1", "low-2"} {
			if _, err := cp.client.CoreV1().Pods("default").Get(ctx, v, metav1.GetOptions{}); err == nil {
				t.Errorf("%s is still there: kube-scheduler did not preempt it", v)
			}
		}
		// live retries hi when the mirror sees the victims go, as
		// kube-scheduler does; under load kube-scheduler's bindings can
		// reach the mirror first, and then no pending member is left for
		// live to retry. Its first cycle (waiting on its victims) is checked
		// either way; where it ran a retry, the retry's placements are.
		var first, last *recorder.PodGroupCycle
		groupCycles := func() {
			gmu.Lock()
			defer gmu.Unlock()
			first, last = nil, nil
			for _, g := range groups {
				if g.Group.Name == "hi" {
					if first == nil {
						first = g
					}
					last = g
				}
			}
		}
		_ = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(context.Context) (bool, error) {
			groupCycles()
			return last != nil && last.Outcome.Result == recorder.ResultBound, nil
		})
		if first == nil {
			t.Fatal("live ran no pod-group cycle of hi")
		}
		if last.Outcome.Result != recorder.ResultBound {
			t.Logf("live's last pod-group cycle of hi is %s: kube-scheduler's bindings reached the mirror before live's retry; its placements are not checked", last.Outcome.Result)
			last = &recorder.PodGroupCycle{}
		}
		if first.Outcome.Result != recorder.ResultUnschedulable || !first.Outcome.WaitingOnPreemption {
			t.Errorf("live's first pod-group cycle of hi: %s %q (waiting on preemption %v), want Unschedulable, waiting on its PostFilter's victims",
				first.Outcome.Result, first.Outcome.Message, first.Outcome.WaitingOnPreemption)
		}
		for _, m := range last.Members {
			if m.Node != observed[m.Pod.Name] {
				t.Errorf("hi member %s: live's group cycle placed it on %q, kube-scheduler bound it to %q", m.Pod.Name, m.Node, observed[m.Pod.Name])
			}
		}
	})

	cancel()
	if err := <-runDone; err != nil {
		t.Errorf("session.Run: %v", err)
	}
}
