package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/klog/v2"
	kcmtesting "k8s.io/kubernetes/cmd/kube-controller-manager/app/testing"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/controllers"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/engine/live"
	"github.com/schedscope/schedscope/recorder"
)

// kcmControllers are the controllers a fixture run has beside the
// scheduler, by kube-controller-manager's names.
var kcmControllers = []string{
	"deployment-controller", "replicaset-controller", "replicationcontroller-controller",
	"statefulset-controller", "job-controller", "daemonset-controller", "disruption-controller",
	"pod-garbage-collector-controller", "persistentvolume-binder-controller", "garbage-collector-controller",
}

// startControllerManager runs the real kube-controller-manager in this
// process against the control plane, with just those controllers, until
// the test ends; and the simulated kubelet over the real API server, as
// the test's kubelet.
func (cp *controlPlane) startControllerManager(t *testing.T, ctx context.Context) {
	t.Helper()
	kc := cp.kubeconfig(t, "controller-manager", cp.admin)
	srv, err := kcmtesting.StartTestServer(t, ctx, []string{
		"--kubeconfig=" + kc, "--leader-elect=false", "--controllers=" + strings.Join(kcmControllers, ","),
	})
	if err != nil {
		t.Fatalf("kube-controller-manager did not start: %v", err)
	}
	t.Cleanup(srv.TearDownFn)
	factory := informers.NewSharedInformerFactory(cp.client, 0)
	kctx, cancel := context.WithCancel(ctx)
	kubelet, err := controllers.New(kctx, controllers.Deps{Client: cp.client, Informers: factory, Changed: func() {}, Run: controllers.Kubelet | controllers.Provisioner})
	if err != nil {
		t.Fatal(err)
	}
	factory.Start(kctx.Done())
	factory.WaitForCacheSync(kctx.Done())
	kubelet.Run(kctx)
	t.Cleanup(func() { cancel(); kubelet.Wait() })
}

// ownerState is where one owner's pods are: the nodes of those bound, and
// the scheduler's messages for those pending, each sorted.
type ownerState struct {
	Nodes   []string
	Pending []string
	// Names are its pods' names without the random suffix generateName
	// adds: web-<pod-template-hash>, db-0, crunch-<index>, as the
	// controllers name them (a template hashed differently shows here).
	Names []string
}

// stem is a pod's name without the 5-character suffix generateName adds.
func stem(name string) string {
	i := strings.LastIndex(name, "-")
	if i < 0 || len(name)-i-1 != 5 {
		return name
	}
	return name[:i]
}

// clusterOutcome is what a run of workloads ends with, as both sides can
// tell it: by owner (Deployment/default/web, Pod/default/loner), each
// budget's allowed disruptions, each claim's phase.
type clusterOutcome struct {
	Owners  map[string]ownerState
	Budgets map[string]int32
	Claims  map[string]string
}

// realOutcome reads the outcome from the real cluster; undecided counts
// pods neither bound nor marked unschedulable. Pods being deleted are
// finished, as their kubelet would.
func realOutcome(t *testing.T, ctx context.Context, cp *controlPlane) (clusterOutcome, int) {
	t.Helper()
	finishVictims(t, ctx, cp)
	out := clusterOutcome{Owners: map[string]ownerState{}, Budgets: map[string]int32{}, Claims: map[string]string{}}
	pods, err := cp.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	undecided := 0
	for _, p := range pods.Items {
		if p.DeletionTimestamp != nil {
			continue
		}
		key := "Pod/" + p.Namespace + "/" + p.Name
		if c := metav1.GetControllerOf(&p); c != nil {
			key = c.Kind + "/" + p.Namespace + "/" + c.Name
			if c.Kind == "ReplicaSet" {
				if rs, err := cp.client.AppsV1().ReplicaSets(p.Namespace).Get(ctx, c.Name, metav1.GetOptions{}); err == nil {
					if d := metav1.GetControllerOf(rs); d != nil {
						key = d.Kind + "/" + p.Namespace + "/" + d.Name
					}
				}
			}
		}
		st := out.Owners[key]
		st.Names = append(st.Names, stem(p.Name))
		switch msg := unschedulableMessage(&p); {
		case p.Spec.NodeName != "":
			st.Nodes = append(st.Nodes, p.Spec.NodeName)
		case msg != "":
			st.Pending = append(st.Pending, msg)
		default:
			undecided++
		}
		out.Owners[key] = st
	}
	budgets, err := cp.client.PolicyV1().PodDisruptionBudgets("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range budgets.Items {
		out.Budgets[b.Namespace+"/"+b.Name] = b.Status.DisruptionsAllowed
	}
	claims, err := cp.client.CoreV1().PersistentVolumeClaims("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range claims.Items {
		out.Claims[c.Namespace+"/"+c.Name] = string(c.Status.Phase)
	}
	return out.sorted(), undecided
}

func unschedulableMessage(p *v1.Pod) string {
	for _, c := range p.Status.Conditions {
		if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse && c.Reason == v1.PodReasonUnschedulable {
			return c.Message
		}
	}
	return ""
}

func (o clusterOutcome) sorted() clusterOutcome {
	for k, st := range o.Owners {
		slices.Sort(st.Nodes)
		slices.Sort(st.Pending)
		slices.Sort(st.Names)
		o.Owners[k] = st
	}
	return o
}

// waitClusterSettled polls the real cluster until every pod is decided and the
// outcome has not changed for 3 s.
func waitClusterSettled(t *testing.T, ctx context.Context, cp *controlPlane) clusterOutcome {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	var last clusterOutcome
	stableSince := time.Now()
	for time.Now().Before(deadline) {
		cur, undecided := realOutcome(t, ctx, cp)
		if !reflect.DeepEqual(cur, last) || undecided > 0 {
			last, stableSince = cur, time.Now()
		} else if time.Since(stableSince) >= 3*time.Second {
			return cur
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("the real cluster did not settle within 2m; last: %+v", last)
	return last
}

// engineOutcome runs schedscope's engine on the fixture and tells its outcome.
func engineOutcome(t *testing.T, fx *fixture.Fixture) clusterOutcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var mu sync.Mutex
	last := map[string]*recorder.Cycle{} // by pod key
	e, err := engine.New(ctx, fx, engine.Options{OnCycle: func(c *recorder.Cycle) {
		mu.Lock()
		if prev := last[c.Pod.Key()]; prev == nil || prev.Seq < c.Seq {
			last[c.Pod.Key()] = c
		}
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	out := clusterOutcome{Owners: map[string]ownerState{}, Budgets: map[string]int32{}, Claims: map[string]string{}}
	st := e.ClusterState()
	pending := func(ns, name string) string {
		if c := last[ns+"/"+name]; c != nil && c.Outcome.Result == recorder.ResultUnschedulable {
			return c.Outcome.Message
		}
		return "(no unschedulable cycle)"
	}
	for _, w := range st.Workloads {
		key := w.Kind + "/" + w.Namespace + "/" + w.Name
		var s ownerState
		for _, p := range w.Pods {
			s.Names = append(s.Names, stem(p.Name))
			if p.Node != "" {
				s.Nodes = append(s.Nodes, p.Node)
			} else {
				s.Pending = append(s.Pending, pending(w.Namespace, p.Name))
			}
		}
		if len(w.Pods) > 0 {
			out.Owners[key] = s
		}
	}
	for _, p := range fx.Pending {
		key := "Pod/" + p.Namespace + "/" + p.Name
		c := last[p.Namespace+"/"+p.Name]
		switch {
		case c != nil && c.Outcome.Result == recorder.ResultBound:
			out.Owners[key] = ownerState{Nodes: []string{c.Outcome.Node}, Names: []string{p.Name}}
		default:
			out.Owners[key] = ownerState{Pending: []string{pending(p.Namespace, p.Name)}, Names: []string{p.Name}}
		}
	}
	for _, b := range st.Budgets {
		out.Budgets[b.Namespace+"/"+b.Name] = b.DisruptionsAllowed
	}
	for _, c := range st.Claims {
		out.Claims[c.Namespace+"/"+c.Name] = c.Phase
	}
	return out.sorted()
}

// TestWorkloadsMatchRealCluster applies each workload scenario to a real
// API server running kube-scheduler and kube-controller-manager (with the
// controllers a fixture run has, and the simulated kubelet as its kubelet),
// and checks schedscope's run of the same manifest ends the same: per owner
// its pods' names as the controllers make them (the pod-template hash,
// the ordinal, the completion index), the nodes of its pods and the
// messages of those pending, each budget's allowed disruptions, each
// claim's phase. The fixture's bare pending pods
// arrive, on both sides, one by one once the workloads have settled.
func TestWorkloadsMatchRealCluster(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	scenarios := loadScenarios(t, holdsWorkloads, "testdata/workloads/*.yaml")
	if len(scenarios) < 3 {
		t.Fatalf("want the embedded workload fixtures and the scenarios under testdata/workloads, got %d", len(scenarios))
	}
	for _, sc := range scenarios {
		t.Run(strings.TrimSuffix(filepath.Base(sc.name), ".yaml"), func(t *testing.T) {
			playWorkloads(t, sc.name, sc.data)
		})
	}
}

// playWorkloads applies a manifest to a real API server, starts
// kube-scheduler and kube-controller-manager, creates its pending pods one
// by one once the cluster has settled, and checks schedscope's run of the
// same manifest ends the same; it returns that outcome.
func playWorkloads(t *testing.T, path string, data []byte) clusterOutcome {
	t.Helper()
	fx, err := fixture.Load(path, data)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := fixture.DecodeManifest(path, data)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cp := startControlPlane(t)
	// The objects first, with the status they state: a controller
	// would write its own between a create and a status update.
	pending := applyObjects(t, ctx, cp, objs)
	cp.startScheduler(t, ctx)
	cp.startControllerManager(t, ctx)
	real := waitClusterSettled(t, ctx, cp)
	for _, p := range pending {
		if _, err := cp.client.CoreV1().Pods(p.Namespace).Create(ctx, p.DeepCopy(), metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating pod %s/%s: %v", p.Namespace, p.Name, err)
		}
		real = waitClusterSettled(t, ctx, cp)
	}
	ours := engineOutcome(t, fx)
	if !reflect.DeepEqual(real, ours) {
		t.Errorf("outcomes differ\n  kube-scheduler + kube-controller-manager: %s\n  schedscope:                               %s", describe(real), describe(ours))
	}
	t.Logf("%s", describe(ours))
	return ours
}

// TestWorkloadTimelinesMatchRealCluster plays each timeline of workloads
// (testdata/workload-timelines) on a real API server with kube-scheduler
// and kube-controller-manager: the initial cluster, then each later
// document once the cluster has settled (a Deployment deleted, another
// created, a pod), and checks that schedscope's run ends the same, per
// owner, budget and claim. The garbage collector decides these: a deleted
// Deployment's pods leave the room a later one needs.
func TestWorkloadTimelinesMatchRealCluster(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	scenarios := loadScenarios(t, func(fx *fixture.Fixture) bool { return holdsWorkloads(fx) && len(fx.Steps) > 0 }, "testdata/workload-timelines/*.yaml")
	if len(scenarios) < 1 {
		t.Fatal("want the scenarios under testdata/workload-timelines")
	}
	for _, sc := range scenarios {
		t.Run(strings.TrimSuffix(filepath.Base(sc.name), ".yaml"), func(t *testing.T) {
			fx, err := fixture.Load(sc.name, sc.data)
			if err != nil {
				t.Fatal(err)
			}
			objs, err := fixture.DecodeManifest(sc.name, sc.data)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cp := startControlPlane(t)
			initial, later := splitTimeline(objs)
			if pending := applyObjects(t, ctx, cp, initial); len(pending) != 0 {
				t.Fatalf("%d pending pods in the initial cluster", len(pending))
			}
			cp.startScheduler(t, ctx)
			cp.startControllerManager(t, ctx)
			waitClusterSettled(t, ctx, cp)
			r := newResources(t, cp)
			for _, o := range later {
				r.apply(t, ctx, o)
				waitClusterSettled(t, ctx, cp)
			}
			real := waitClusterSettled(t, ctx, cp)
			ours := engineOutcome(t, fx)
			if !reflect.DeepEqual(real, ours) {
				t.Errorf("outcomes differ\n  kube-scheduler + kube-controller-manager: %s\n  schedscope:                               %s", describe(real), describe(ours))
			}
			t.Logf("%s", describe(ours))
		})
	}
}

func describe(o clusterOutcome) string {
	var parts []string
	for _, k := range sortedKeys(o.Owners) {
		st := o.Owners[k]
		parts = append(parts, fmt.Sprintf("%s %v on %v pending %q", k, st.Names, st.Nodes, st.Pending))
	}
	for _, k := range sortedKeys(o.Budgets) {
		parts = append(parts, fmt.Sprintf("budget %s allows %d", k, o.Budgets[k]))
	}
	for _, k := range sortedKeys(o.Claims) {
		parts = append(parts, fmt.Sprintf("claim %s %s", k, o.Claims[k]))
	}
	return strings.Join(parts, "; ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestLiveMirrorsADeployment runs live mode over a cluster whose
// kube-controller-manager makes a Deployment's pods: schedscope runs no
// controller of its own there (the cluster has exactly the replicas asked
// for) and predicts each replica's binding.
func TestLiveMirrorsADeployment(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cp := startControlPlane(t)
	for _, n := range []*v1.Node{makeNode("a", "zone-a", "4", "8Gi"), makeNode("b", "zone-b", "8", "16Gi")} {
		if _, err := cp.client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	grantReader(t, ctx, cp)
	cp.startScheduler(t, ctx)
	cp.startControllerManager(t, ctx)
	s := newSession()
	opts := live.Options{Cluster: cp.reader(t, schedscopeToken, "", "e2e"), SyncTimeout: 30 * time.Second}
	s.options(&opts)
	session, err := live.New(ctx, opts)
	if err != nil {
		t.Fatalf("starting live mode: %v", err)
	}
	runDone := make(chan error, 1)
	go func() { runDone <- session.Run(ctx) }()

	objs, err := fixture.DecodeManifest("web.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, resources: {requests: {cpu: 500m, memory: 256Mi}}}]
`))
	if err != nil {
		t.Fatal(err)
	}
	applyObjects(t, ctx, cp, objs)
	s.waitFor(t, "the cluster's decision on 4 replicas", 60*time.Second, func() bool {
		n := 0
		for k := range s.observed {
			if strings.HasPrefix(k, "default/web-") {
				n++
			}
		}
		return n == 4
	})
	pods, err := cp.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pods.Items) != 4 {
		t.Errorf("want the Deployment's 4 pods in the cluster, got %d", len(pods.Items))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, o := range s.observed {
		if !o.Agrees() {
			t.Errorf("%s: schedscope predicted %q (tie set %v), the real kube-scheduler chose %q", k, o.Predicted, o.TieSet, o.Node)
		}
		if c := s.cyclesFor(k); len(c) == 0 || c[0].Pod.Owner.String() != "Deployment/web" {
			t.Errorf("%s: want a cycle naming its owner Deployment/web, got %d cycles", k, len(c))
		}
	}
	cancel()
	<-runDone
}

// holdsWorkloads says whether a fixture holds an object a controller makes
// pods for, which only a cluster running kube-controller-manager plays.
func holdsWorkloads(fx *fixture.Fixture) bool {
	for _, d := range fx.Documents {
		if fixture.IsWorkload(fixture.KindName(d.Object)) {
			return true
		}
	}
	return false
}

// TestCapacityConfirmedByScaling asks schedscope how many more replicas of
// a Deployment fit, then scales the Deployment in a real cluster (with
// kube-controller-manager) to that many: all are placed; one more is left
// pending with the message capacity gave.
func TestCapacityConfirmedByScaling(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	const path = "testdata/workloads/zone-spread.yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load(path, data)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := engine.Capacity(ctx, fx, engine.Options{}, "Deployment", "default", "web")
	if err != nil {
		t.Fatal(err)
	}
	if res.More == 0 || res.Stopped == "" || res.Limit > 0 {
		t.Fatalf("want a number of replicas that fit and a message for the next: %+v", res)
	}
	t.Logf("schedscope: %d more fit beside the %d asked; the next: %s", res.More, res.Replicas, res.Stopped)
	objs, err := fixture.DecodeManifest(path, data)
	if err != nil {
		t.Fatal(err)
	}
	cp := startControlPlane(t)
	applyObjects(t, ctx, cp, objs)
	cp.startScheduler(t, ctx)
	cp.startControllerManager(t, ctx)
	waitClusterSettled(t, ctx, cp)
	scale := func(n int) ownerState {
		d, err := cp.client.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r := int32(n)
		d.Spec.Replicas = &r
		if _, err := cp.client.AppsV1().Deployments("default").Update(ctx, d, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		return waitClusterSettled(t, ctx, cp).Owners["Deployment/default/web"]
	}
	all := res.Replicas + res.More
	if st := scale(all); len(st.Nodes) != all || len(st.Pending) != 0 {
		t.Errorf("scaled to %d in the real cluster: %d placed, %d pending (%q)", all, len(st.Nodes), len(st.Pending), st.Pending)
	}
	st := scale(all + 1)
	if len(st.Nodes) != all || len(st.Pending) != 1 || st.Pending[0] != res.Stopped {
		t.Errorf("scaled to %d in the real cluster: want %d placed and one pending with\n  %s\ngot %d placed, pending %q", all+1, all, res.Stopped, len(st.Nodes), st.Pending)
	}
}
