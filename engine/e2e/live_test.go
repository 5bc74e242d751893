package e2e

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"
	"sigs.k8s.io/yaml"

	"github.com/schedscope/schedscope/cmd/kubectl-schedscope/commands"
	"github.com/schedscope/schedscope/engine/live"
	"github.com/schedscope/schedscope/recorder"
)

var hold = flag.Duration("e2e.hold", 0, "keep the live test's control plane up this long after its checks, to try the CLI against it")

// session collects what a live session reports.
type session struct {
	mu        sync.Mutex
	cycles    []*recorder.Cycle
	observed  map[string]*recorder.Observed // by namespace/name
	lost, got int
	changed   chan struct{}
}

func newSession() *session {
	return &session{observed: map[string]*recorder.Observed{}, changed: make(chan struct{}, 1)}
}

func (s *session) poke() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

func (s *session) options(cfg *live.Options) {
	cfg.OnCycle = func(c *recorder.Cycle) {
		s.mu.Lock()
		s.cycles = append(s.cycles, c)
		s.mu.Unlock()
		s.poke()
	}
	cfg.OnObserved = func(o *recorder.Observed) {
		s.mu.Lock()
		s.observed[o.Pod.Key()] = o
		s.mu.Unlock()
		s.poke()
	}
	cfg.OnConnection = func(err error) {
		s.mu.Lock()
		if err != nil {
			s.lost++
		} else {
			s.got++
		}
		s.mu.Unlock()
		s.poke()
	}
}

// waitFor polls cond (under the session lock) until it holds.
func (s *session) waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		ok := cond()
		s.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-s.changed:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
	}
}

func (s *session) cyclesFor(key string) []*recorder.Cycle {
	var out []*recorder.Cycle
	for _, c := range s.cycles {
		if c.Pod.Key() == key {
			out = append(out, c)
		}
	}
	return out
}

func makeNode(name, zone, cpu, mem string, taints ...v1.Taint) *v1.Node {
	res := v1.ResourceList{
		v1.ResourceCPU:    resource.MustParse(cpu),
		v1.ResourceMemory: resource.MustParse(mem),
		v1.ResourcePods:   resource.MustParse("110"),
	}
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
			"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": zone}},
		Spec:   v1.NodeSpec{Taints: taints},
		Status: v1.NodeStatus{Capacity: res, Allocatable: res, Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}}},
	}
}

type podSpec struct {
	name, cpu, mem string
	labels         map[string]string
	spreadZone     bool
	preferZone     string
}

func makePod(p podSpec) *v1.Pod {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: p.name, Namespace: "default", Labels: p.labels},
		Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "registry.k8s.io/pause:3.10",
			Resources: v1.ResourceRequirements{Requests: v1.ResourceList{
				v1.ResourceCPU: resource.MustParse(p.cpu), v1.ResourceMemory: resource.MustParse(p.mem)}}}}},
	}
	if p.spreadZone {
		pod.Spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone",
			WhenUnsatisfiable: v1.ScheduleAnyway, LabelSelector: &metav1.LabelSelector{MatchLabels: p.labels}}}
	}
	if p.preferZone != "" {
		pod.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.PreferredSchedulingTerm{{
			Weight: 40, Preference: v1.NodeSelectorTerm{MatchExpressions: []v1.NodeSelectorRequirement{{
				Key: "topology.kubernetes.io/zone", Operator: v1.NodeSelectorOpIn, Values: []string{p.preferZone}}}}}}}}
	}
	return pod
}

// grantReader applies the ClusterRole `kubectl schedscope rbac` prints (with
// rbacFlags) and binds it to the schedscope user.
func grantReader(t *testing.T, ctx context.Context, cp *controlPlane, rbacFlags ...string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := commands.Execute(genericiooptions.IOStreams{Out: &out, ErrOut: &errOut}, append([]string{"rbac"}, rbacFlags...)); code != 0 {
		t.Fatalf("schedscope rbac: %s", errOut.String())
	}
	var role rbacv1.ClusterRole
	if err := yaml.UnmarshalStrict(out.Bytes(), &role); err != nil {
		t.Fatalf("decoding the printed ClusterRole: %v\n%s", err, out.String())
	}
	if _, err := cp.client.RbacV1().ClusterRoles().Create(ctx, &role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "schedscope"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.UserKind, APIGroup: "rbac.authorization.k8s.io", Name: schedscopeUser}},
	}
	if _, err := cp.client.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestLiveAgainstRealScheduler runs schedscope live next to the real
// kube-scheduler on one control plane: every pod's predicted node must be the
// node the real scheduler bound it to (or in schedscope's recorded tie set),
// unschedulable pods must get the same message, schedscope must send no write
// request, and a lost API server must be reported and recovered from.
func TestLiveAgainstRealScheduler(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cp := startControlPlane(t)

	nodes := []*v1.Node{
		makeNode("small-a", "zone-a", "2", "4Gi"),
		makeNode("medium-a", "zone-a", "4", "8Gi"),
		makeNode("large-b", "zone-b", "8", "16Gi"),
		makeNode("medium-b", "zone-b", "4", "12Gi"),
		makeNode("tainted-c", "zone-c", "16", "32Gi", v1.Taint{Key: "dedicated", Value: "gpu", Effect: v1.TaintEffectNoSchedule}),
	}
	for _, n := range nodes {
		if _, err := cp.client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	grantReader(t, ctx, cp)

	t.Run("missing permission names the resource and verb", func(t *testing.T) {
		opts := live.Options{Cluster: cp.reader(t, nobodyToken, "", ""), SyncTimeout: 20 * time.Second}
		_, err := live.New(ctx, opts)
		if err == nil || !strings.Contains(err.Error(), "cannot list nodes") || !strings.Contains(err.Error(), "get, list and watch") {
			t.Fatalf("want an error naming nodes and the verbs, got %v", err)
		}
	})

	cp.startScheduler(t, ctx)
	px := startProxy(t, strings.TrimPrefix(cp.admin.Host, "https://"))
	s := newSession()
	opts := live.Options{Cluster: cp.reader(t, schedscopeToken, "https://"+px.addr, "e2e"), SyncTimeout: 30 * time.Second}
	s.options(&opts)
	session, err := live.New(ctx, opts)
	if err != nil {
		t.Fatalf("starting live mode: %v", err)
	}
	runDone := make(chan error, 1)
	go func() { runDone <- session.Run(ctx) }()

	pods := []podSpec{
		{name: "web-1", cpu: "500m", mem: "512Mi", labels: map[string]string{"app": "web"}, spreadZone: true},
		{name: "web-2", cpu: "500m", mem: "512Mi", labels: map[string]string{"app": "web"}, spreadZone: true},
		{name: "api-1", cpu: "1", mem: "2Gi", preferZone: "zone-b"},
		{name: "batch-1", cpu: "3", mem: "6Gi"},
		{name: "batch-2", cpu: "3", mem: "6Gi"},
		{name: "web-3", cpu: "500m", mem: "512Mi", labels: map[string]string{"app": "web"}, spreadZone: true},
		{name: "huge", cpu: "12", mem: "8Gi"},
	}
	check := func(t *testing.T, p podSpec) {
		t.Helper()
		key := "default/" + p.name
		s.waitFor(t, "the cluster's decision on "+key, 60*time.Second, func() bool { return s.observed[key] != nil })
		s.mu.Lock()
		o := s.observed[key]
		cycles := s.cyclesFor(key)
		s.mu.Unlock()
		if len(cycles) == 0 || o.Seq == 0 {
			t.Fatalf("%s: schedscope ran no cycle before the cluster decided (observed %+v)", key, o)
		}
		got, err := cp.client.CoreV1().Pods("default").Get(ctx, p.name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Spec.NodeName != o.Node {
			t.Errorf("%s: observed node %q, the API server says %q", key, o.Node, got.Spec.NodeName)
		}
		t.Logf("%s: schedscope predicted %q (tie set %v), the real kube-scheduler chose %q", key, o.Predicted, o.TieSet, o.Node)
		if !o.Agrees() {
			t.Errorf("%s: schedscope predicted %q (tie set %v), the real kube-scheduler chose %q", key, o.Predicted, o.TieSet, o.Node)
		}
		if o.Node == "" {
			last := cycles[len(cycles)-1]
			if last.Outcome.Message != o.Message {
				t.Errorf("%s: unschedulable message differs\nschedscope: %s\ncluster:    %s", key, last.Outcome.Message, o.Message)
			}
		}
	}
	for _, p := range pods {
		if _, err := cp.client.CoreV1().Pods("default").Create(ctx, makePod(p), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		check(t, p)
	}

	t.Run("what-if forks the mirrored cluster and agrees with the real scheduler", func(t *testing.T) {
		s.mu.Lock()
		cycles := s.cyclesFor("default/huge")
		s.mu.Unlock()
		if len(cycles) == 0 {
			t.Fatal("no cycle for default/huge")
		}
		f, err := session.ForkAt(cycles[len(cycles)-1])
		if err != nil {
			t.Fatal(err)
		}
		g, err := f.With(recorder.PatchPod{Patch: `{"spec":{"tolerations":[{"key":"dedicated","operator":"Equal","value":"gpu","effect":"NoSchedule"}]}}`})
		if err != nil {
			t.Fatal(err)
		}
		res, err := g.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Cycle.Outcome.Node != "tainted-c" {
			t.Fatalf("the what-if put huge on %q (%s), want tainted-c", res.Cycle.Outcome.Node, res.Cycle.Outcome.Message)
		}
		// The same pod with the toleration, created for real.
		tolerating := podSpec{name: "huge-tolerating", cpu: "12", mem: "8Gi"}
		p := makePod(tolerating)
		p.Spec.Tolerations = []v1.Toleration{{Key: "dedicated", Operator: v1.TolerationOpEqual, Value: "gpu", Effect: v1.TaintEffectNoSchedule}}
		if _, err := cp.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		check(t, tolerating)
		got, err := cp.client.CoreV1().Pods("default").Get(ctx, tolerating.name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Spec.NodeName != res.Cycle.Outcome.Node {
			t.Errorf("what-if said %s, the real kube-scheduler bound the pod to %s", res.Cycle.Outcome.Node, got.Spec.NodeName)
		}
	})

	t.Run("losing the API server is reported and recovered from", func(t *testing.T) {
		px.cut()
		s.waitFor(t, "the lost connection to be reported", 60*time.Second, func() bool { return s.lost > 0 })
		gap := podSpec{name: "during-gap", cpu: "250m", mem: "256Mi"}
		if _, err := cp.client.CoreV1().Pods("default").Create(ctx, makePod(gap), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		px.restore()
		s.waitFor(t, "the connection to come back", 90*time.Second, func() bool { return s.got > 0 })
		after := podSpec{name: "after-gap", cpu: "250m", mem: "256Mi"}
		if _, err := cp.client.CoreV1().Pods("default").Create(ctx, makePod(after), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		check(t, after)
		// The pod created while schedscope was cut off was bound by the cluster
		// before schedscope could see it pending; after the relist it must be
		// in the mirror, where the next cycle counts it on its node.
		gapPod, err := cp.client.CoreV1().Pods("default").Get(ctx, gap.name, metav1.GetOptions{})
		if err != nil || gapPod.Spec.NodeName == "" {
			t.Fatalf("the real scheduler did not bind %s: %v", gap.name, err)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		idx := -1
		for i, c := range s.cycles {
			if c.Pod.Name == after.name {
				idx = i
			}
		}
		nu, _ := recorder.UsageAt(s.cycles, idx).Node(gapPod.Spec.NodeName)
		if !slices.ContainsFunc(nu.Pods, func(p recorder.PodRef) bool { return p.Name == gap.name }) {
			t.Errorf("after the gap, schedscope's cycle for %s did not see %s on %s (pods there: %v)", after.name, gap.name, gapPod.Spec.NodeName, nu.Pods)
		}
	})

	t.Run("no cycle is duplicated", func(t *testing.T) {
		s.mu.Lock()
		defer s.mu.Unlock()
		seen := map[int]bool{}
		perPod := map[string]int{}
		for _, c := range s.cycles {
			if seen[c.Seq] {
				t.Errorf("cycle %d reported twice", c.Seq)
			}
			seen[c.Seq] = true
			if c.Outcome.Result == recorder.ResultBound {
				perPod[c.Pod.Key()]++
			}
		}
		for pod, n := range perPod {
			if n > 1 {
				t.Errorf("%s bound %d times by schedscope", pod, n)
			}
		}
	})

	if *hold > 0 {
		// For trying the CLI by hand against this control plane.
		admin := cp.kubeconfig(t, "admin", cp.admin)
		user := cp.kubeconfig(t, "schedscope", cp.userConfig(schedscopeToken, ""))
		fmt.Printf("control plane up for %v\n  admin:      KUBECONFIG=%s\n  schedscope: KUBECONFIG=%s\n", *hold, admin, user)
		time.Sleep(*hold)
	}
	cancel()
	if err := <-runDone; err != nil {
		t.Errorf("session.Run: %v", err)
	}

	t.Run("schedscope sent no write request", func(t *testing.T) {
		reqs := cp.requestsBy(t, schedscopeUser)
		if len(reqs) == 0 {
			t.Fatal("the audit log has no request from schedscope at all; the check would prove nothing")
		}
		verbs := map[string]int{}
		for _, r := range reqs {
			verbs[r.Verb]++
			if !slices.Contains([]string{"get", "list", "watch"}, r.Verb) {
				t.Errorf("schedscope sent %s %s", r.Verb, r.RequestURI)
			}
		}
		t.Logf("schedscope's requests by verb: %v", verbs)
	})
}

type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
