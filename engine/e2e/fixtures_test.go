package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

// outcome is where a pod ended up after its first settled decision.
type outcome struct {
	node    string // bound node, "" if unschedulable
	message string // PodScheduled message when unschedulable
	ties    []string
	// partial is set when the search stopped after percentageOfNodesToScore of
	// the nodes; rejected holds the nodes the filters rejected.
	partial  bool
	rejected map[string]bool
}

func (o outcome) String() string {
	if o.node != "" {
		return "bound to " + o.node
	}
	return "unschedulable: " + o.message
}

// applyObjects creates objects as a client would: namespaces and
// CustomResourceDefinitions first, then other non-pod objects (with their
// status, which a create ignores; a custom resource once its definition is
// served), then running pods.
func applyObjects(t testing.TB, ctx context.Context, cp *controlPlane, objs []runtime.Object) (pending []*v1.Pod) {
	t.Helper()
	dyn, err := dynamic.NewForConfig(cp.admin)
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(cp.client.Discovery()))
	rank := func(o runtime.Object) int {
		switch p := o.(type) {
		case *v1.Namespace, *apiextensionsv1.CustomResourceDefinition:
			return 0
		case *v1.Pod:
			if p.Spec.NodeName == "" {
				return 3
			}
			return 2
		}
		return 1
	}
	sort.SliceStable(objs, func(i, j int) bool { return rank(objs[i]) < rank(objs[j]) })
	for _, obj := range objs {
		if p, ok := obj.(*v1.Pod); ok && p.Spec.NodeName == "" {
			if p.Namespace == "" {
				p.Namespace = "default"
			}
			pending = append(pending, p)
			continue
		}
		gvks, _, err := fixture.Scheme.ObjectKinds(obj)
		if err != nil {
			t.Fatal(err)
		}
		mapping, err := served(ctx, mapper, gvks[0])
		if err != nil {
			t.Fatalf("%T: %v", obj, err)
		}
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			t.Fatal(err)
		}
		un := &unstructured.Unstructured{Object: u}
		un.SetGroupVersionKind(gvks[0])
		var ri dynamic.ResourceInterface = dyn.Resource(mapping.Resource)
		if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
			if un.GetNamespace() == "" {
				un.SetNamespace("default")
			}
			ri = dyn.Resource(mapping.Resource).Namespace(un.GetNamespace())
		}
		if gvks[0].Kind == "Namespace" && slices.Contains([]string{"default", "kube-system", "kube-public"}, un.GetName()) {
			continue
		}
		var created *unstructured.Unstructured
		err = admitted(ctx, func() (err error) {
			created, err = ri.Create(ctx, un, metav1.CreateOptions{})
			return err
		})
		if err != nil {
			t.Fatalf("creating %s %s: %v", gvks[0].Kind, un.GetName(), err)
		}
		// A pod's status is its kubelet's, and no kubelet runs here; a
		// pod that ran to the end is stated as its kubelet left it. A
		// CustomResourceDefinition's is the API server's own.
		finished := false
		if p, ok := obj.(*v1.Pod); ok {
			finished = p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed
		}
		if status, ok := u["status"].(map[string]any); ok && len(status) > 0 && gvks[0].Kind != "CustomResourceDefinition" && (gvks[0].Kind != "Pod" || finished) {
			created.Object["status"] = status
			if _, err := ri.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
				t.Fatalf("setting the status of %s %s: %v", gvks[0].Kind, un.GetName(), err)
			}
		}
	}
	return pending
}

// served maps a kind to its resource, waiting up to ten seconds for the
// kind of a CustomResourceDefinition just created to be served.
func served(ctx context.Context, mapper *restmapper.DeferredDiscoveryRESTMapper, gvk schema.GroupVersionKind) (*meta.RESTMapping, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err == nil || !meta.IsNoMatchError(err) || time.Now().After(deadline) {
			return mapping, err
		}
		mapper.Reset()
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// admitted runs create until the API server admits it. The admission plugins
// that look objects up (Priority finds a pod's PriorityClass, RuntimeClass its
// class) read them from informers, which lag the create that put the object
// there by a few milliseconds: a pod created right after its PriorityClass can
// be refused as "no PriorityClass with name … was found". Such a refusal is
// retried for up to ten seconds; any other error returns at once.
func admitted(ctx context.Context, create func() error) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := create()
		if err == nil || !apierrors.IsForbidden(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// scheduleOneByOne creates each pending pod after the previous one settled
// with the real scheduler, and returns each pod's outcome. Victims of
// preemption are deleted at once, as a kubelet would finish them.
func scheduleOneByOne(t *testing.T, ctx context.Context, cp *controlPlane, pending []*v1.Pod) (map[string]outcome, []map[string]string) {
	t.Helper()
	out := map[string]outcome{}
	var before []map[string]string
	for _, p := range pending {
		before = append(before, podPlacements(t, ctx, cp))
		p = p.DeepCopy()
		if err := admitted(ctx, func() error {
			_, err := cp.client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{})
			return err
		}); err != nil {
			t.Fatalf("creating pod %s/%s: %v", p.Namespace, p.Name, err)
		}
		key := p.Namespace + "/" + p.Name
		var got outcome
		err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
			cur, err := cp.client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			if cur.Spec.NodeName != "" {
				got = outcome{node: cur.Spec.NodeName}
				return true, nil
			}
			if cur.Status.NominatedNodeName != "" {
				finishVictims(t, ctx, cp)
				return false, nil
			}
			for _, c := range cur.Status.Conditions {
				if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse && c.Reason == v1.PodReasonUnschedulable {
					got = outcome{message: c.Message}
					return true, nil
				}
			}
			return false, nil
		})
		if err != nil {
			t.Fatalf("the real kube-scheduler did not settle %s: %v", key, err)
		}
		out[key] = got
	}
	return out, before
}

// podPlacements maps every pod that exists (and is not being deleted) to its node.
func podPlacements(t *testing.T, ctx context.Context, cp *controlPlane) map[string]string {
	t.Helper()
	pods, err := cp.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil {
			m[p.Namespace+"/"+p.Name] = p.Spec.NodeName
		}
	}
	return m
}

// simulateEach runs schedscope once per pending pod, on the cluster exactly as
// the real scheduler had left it when that pod arrived (earlier pods where the
// real scheduler put them, preemption victims gone), so an earlier tie broken
// differently cannot change later decisions.
func simulateEach(t *testing.T, name string, objs []runtime.Object, pending []*v1.Pod, before []map[string]string) map[string]outcome {
	t.Helper()
	return simulateEachWith(t, name, objs, pending, before, engine.Options{})
}

// simulateEachWith is simulateEach with the engine built with opts (its
// configuration).
func simulateEachWith(t *testing.T, name string, objs []runtime.Object, pending []*v1.Pod, before []map[string]string, opts engine.Options) map[string]outcome {
	t.Helper()
	out := map[string]outcome{}
	for k, p := range pending {
		state := before[k]
		var fixtureObjs []runtime.Object
		for _, o := range objs {
			q, ok := o.(*v1.Pod)
			if !ok {
				fixtureObjs = append(fixtureObjs, o.DeepCopyObject())
				continue
			}
			ns := q.Namespace
			if ns == "" {
				ns = "default"
			}
			node, exists := state[ns+"/"+q.Name]
			if !exists || node == "" {
				continue
			}
			q = q.DeepCopy()
			q.Spec.NodeName = node
			fixtureObjs = append(fixtureObjs, q)
		}
		fixtureObjs = append(fixtureObjs, p.DeepCopy())
		fx, err := fixture.New(name, fixtureObjs)
		if err != nil {
			t.Fatal(err)
		}
		for key, o := range simulateFixtureWith(t, fx, opts) {
			out[key] = o
		}
	}
	return out
}

// finishVictims deletes pods being gracefully deleted, as their kubelet would.
func finishVictims(t testing.TB, ctx context.Context, cp *controlPlane) {
	pods, err := cp.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	zero := int64(0)
	for _, p := range pods.Items {
		if p.DeletionTimestamp != nil {
			_ = cp.client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
		}
	}
}

// simulate runs schedscope's engine on the same manifest and returns each
// pod's outcome, with the tie set of the deciding cycle.
func simulate(t *testing.T, name string, data []byte) map[string]outcome {
	t.Helper()
	fx, err := fixture.Load(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return simulateFixture(t, fx)
}

// runFixture runs schedscope's engine on fx and returns its cycles in order.
func runFixture(t *testing.T, fx *fixture.Fixture) []*recorder.Cycle {
	t.Helper()
	_, cycles := runFixtureArriving(t, fx, false)
	return cycles
}

// runFixtureArriving runs schedscope's engine on fx with its pending pods
// arriving at once (burst) or one by one, and returns its result and its
// cycles in order.
func runFixtureArriving(t *testing.T, fx *fixture.Fixture, burst bool) (*engine.Result, []*recorder.Cycle) {
	t.Helper()
	return runFixtureWith(t, fx, burst, engine.Options{})
}

// runFixtureWith is runFixtureArriving with the engine built with opts (its
// OnCycle is the run's).
func runFixtureWith(t *testing.T, fx *fixture.Fixture, burst bool, opts engine.Options) (*engine.Result, []*recorder.Cycle) {
	t.Helper()
	var mu sync.Mutex
	var cycles []*recorder.Cycle
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts.OnCycle = func(c *recorder.Cycle) {
		mu.Lock()
		cycles = append(cycles, c)
		mu.Unlock()
	}
	e, err := engine.New(ctx, fx, opts)
	if err != nil {
		t.Fatal(err)
	}
	run := e.Run
	if burst {
		run = e.RunBurst
	}
	res, err := run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	sort.Slice(cycles, func(i, j int) bool { return cycles[i].Seq < cycles[j].Seq })
	return res, cycles
}

func simulateFixture(t *testing.T, fx *fixture.Fixture) map[string]outcome {
	t.Helper()
	return simulateFixtureWith(t, fx, engine.Options{})
}

// simulateFixtureWith is simulateFixture with the engine built with opts.
func simulateFixtureWith(t *testing.T, fx *fixture.Fixture, opts engine.Options) map[string]outcome {
	t.Helper()
	_, cycles := runFixtureWith(t, fx, false, opts)
	out := map[string]outcome{}
	for _, c := range cycles {
		key := c.Pod.Key()
		if prev, ok := out[key]; ok && prev.node != "" {
			continue
		}
		switch c.Outcome.Result {
		case recorder.ResultBound:
			o := outcome{node: c.Outcome.Node, partial: c.NodesToFind < c.NumNodes(), rejected: map[string]bool{}}
			if c.Filter != nil {
				for _, r := range c.Filter.Rejected {
					o.rejected[c.NodeName(r.Node)] = true
				}
			}
			if c.Selection != nil {
				for _, i := range c.Selection.Top {
					o.ties = append(o.ties, c.NodeName(i))
				}
			}
			out[key] = o
		case recorder.ResultUnschedulable:
			if c.Outcome.NominatedNode == "" {
				if _, ok := out[key]; !ok {
					out[key] = outcome{message: c.Outcome.Message}
				}
			}
		}
	}
	// A pod with no outcome kept: say what its cycles were, for a flake
	// seen once (no cycle, or an Error cycle taken as settled).
	for _, p := range fx.Pending {
		key := p.Namespace + "/" + p.Name
		if _, ok := out[key]; ok {
			continue
		}
		var seen []string
		for _, c := range cycles {
			if c.Pod.Key() == key {
				seen = append(seen, fmt.Sprintf("cycle %d: %s %q", c.Seq, c.Outcome.Result, c.Outcome.Message))
			}
		}
		t.Logf("schedscope kept no outcome for %s; of %d cycles in all, its own: %v", key, len(cycles), seen)
	}
	return out
}

// compare reports every pod whose outcome differs between the real scheduler
// and schedscope; a real node in schedscope's tie set is a tie-break, not a
// difference.
func compare(t *testing.T, real, ours map[string]outcome) {
	t.Helper()
	partial := 0
	defer func() {
		if partial > 0 {
			t.Logf("%d pods placed by a partial search: checked only that kube-scheduler's node passes schedscope's filters", partial)
		}
	}()
	var keys []string
	for k := range real {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r, o := real[k], ours[k]
		switch {
		case r.node != "" && (r.node == o.node || slices.Contains(o.ties, r.node)):
		case r.node != "" && o.partial && o.node != "" && !o.rejected[r.node]:
			// kube-scheduler's cache takes nodes in the order its informer
			// delivers them, which is random, so a partial search visits other
			// nodes than schedscope's (name order); all one can ask is that the
			// real choice is not a node schedscope's filters rejected.
			partial++
		case r.node == "" && o.node == "" && r.message == o.message:
		default:
			ties := o.ties
			if len(ties) > 8 {
				ties = append(ties[:8:8], fmt.Sprintf("… %d more", len(o.ties)-8))
			}
			t.Errorf("%s:\n  kube-scheduler: %s\n  schedscope:     %s (ties %v)", k, r, o, ties)
		}
	}
	if len(ours) != len(real) {
		t.Errorf("schedscope decided %d pods, kube-scheduler %d", len(ours), len(real))
	}
}

// TestFixturesMatchRealScheduler applies each fixture to a real API server
// with the real kube-scheduler and checks schedscope's engine makes the same
// decisions with the same messages. It covers the embedded fixtures and the
// extra scenarios under testdata/.
func TestFixturesMatchRealScheduler(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	scenarios := loadScenarios(t, func(*fixture.Fixture) bool { return true }, "testdata/*.yaml")
	for _, sc := range scenarios {
		t.Run(strings.TrimSuffix(filepath.Base(sc.name), ".yaml"), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if fx, err := fixture.Load(sc.name, sc.data); err == nil && len(fx.Steps) > 0 {
				t.Skip("a timeline: TestTimelinesMatchRealScheduler plays it")
			} else if err == nil && holdsWorkloads(fx) {
				t.Skip("workloads: TestWorkloadsMatchRealCluster plays it, with kube-controller-manager")
			}
			objs, err := fixture.DecodeManifest(sc.name, sc.data)
			if err != nil {
				t.Fatal(err)
			}
			cp := startControlPlane(t)
			pending := applyObjects(t, ctx, cp, objs)
			cp.startScheduler(t, ctx)
			real, before := scheduleOneByOne(t, ctx, cp, pending)
			ours := simulateEach(t, sc.name, objs, pending, before)
			compare(t, real, ours)
			t.Logf("%d pods compared", len(real))
		})
	}
}

// A scenario is a manifest an end-to-end test applies to a real cluster and
// gives schedscope.
type scenario struct {
	name string
	data []byte
}

// loadScenarios lists the embedded fixtures that want says a test plays,
// then every manifest matching glob under testdata/.
func loadScenarios(t *testing.T, want func(*fixture.Fixture) bool, glob string) []scenario {
	t.Helper()
	var out []scenario
	for _, n := range fixtures.Names() {
		data, err := fixtures.Read(n)
		if err != nil {
			t.Fatal(err)
		}
		fx, err := fixture.Load(n, data)
		if err != nil {
			t.Fatal(err)
		}
		if want(fx) {
			out = append(out, scenario{"fixtures/" + n, data})
		}
	}
	paths, _ := filepath.Glob(glob)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, scenario{p, data})
	}
	return out
}
