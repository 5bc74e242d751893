package e2e

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/restmapper"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// TestTimelinesMatchRealScheduler plays each timeline fixture (the embedded
// ones with steps, and testdata/timeline/) on a real API server with the real
// kube-scheduler: the initial cluster first, then each later document in
// order once the scheduler has settled (a pod created, an object created,
// replaced or deleted), and checks that schedscope's run of the same fixture
// gives each pod the same node, or the same PodScheduled reason and message,
// when it arrived and at the end.
func TestTimelinesMatchRealScheduler(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	scenarios := loadScenarios(t, func(fx *fixture.Fixture) bool { return len(fx.Steps) > 0 }, "testdata/timeline/*.yaml")
	if len(scenarios) < 2 {
		t.Fatalf("found %d timeline scenarios, want the embedded autoscaler.yaml and testdata/timeline/", len(scenarios))
	}
	for _, sc := range scenarios {
		t.Run(strings.TrimSuffix(filepath.Base(sc.name), ".yaml"), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			objs, err := fixture.DecodeManifest(sc.name, sc.data)
			if err != nil {
				t.Fatal(err)
			}
			cp := startControlPlane(t)
			realArrival, realEnd, deleted := playTimeline(t, ctx, cp, objs)
			oursArrival, oursEnd := simulateTimeline(t, sc.name, sc.data)
			for k := range deleted {
				delete(oursEnd, k)
			}
			t.Run("on arrival", func(t *testing.T) { compare(t, realArrival, oursArrival) })
			t.Run("at the end", func(t *testing.T) { compare(t, realEnd, oursEnd) })
			t.Logf("%d pods compared on arrival, %d at the end", len(realArrival), len(realEnd))
		})
	}
}

// playTimeline applies a fixture's documents to the control plane as the
// engine runs them: the documents before the first pending pod and every
// bound pod as the initial cluster, then the real kube-scheduler starts and
// each later document follows on a settled scheduler. It returns each pod's
// outcome when it had arrived and settled, each remaining pod's outcome at
// the end, and the pods the timeline deleted.
func playTimeline(t *testing.T, ctx context.Context, cp *controlPlane, objs []runtime.Object) (arrival, end map[string]outcome, deleted map[string]bool) {
	t.Helper()
	initial, later := splitTimeline(objs)
	if pending := applyObjects(t, ctx, cp, initial); len(pending) != 0 {
		t.Fatalf("%d pending pods in the initial cluster", len(pending))
	}
	cp.startScheduler(t, ctx)
	r := newResources(t, cp)
	arrival, deleted = map[string]outcome{}, map[string]bool{}
	var pods []string
	for _, o := range later {
		key := r.apply(t, ctx, o)
		_, isPod := o.(*v1.Pod)
		switch {
		case isPod && isDeleteDoc(o):
			deleted[key] = true
		case isPod:
			pods = append(pods, key)
			ns, name, _ := strings.Cut(key, "/")
			waitDecided(t, ctx, cp, name, ns)
		}
		waitRealSettled(t, ctx, cp)
		if isPod && !isDeleteDoc(o) {
			ns, name, _ := strings.Cut(key, "/")
			arrival[key] = podOutcome(t, ctx, cp, ns, name)
		}
	}
	end = map[string]outcome{}
	for _, key := range pods {
		if !deleted[key] {
			ns, name, _ := strings.Cut(key, "/")
			end[key] = podOutcome(t, ctx, cp, ns, name)
		}
	}
	return arrival, end, deleted
}

// isDeleteDoc reports whether a document is a timeline's deletion.
func isDeleteDoc(o runtime.Object) bool {
	m, err := meta.Accessor(o)
	return err == nil && m.GetAnnotations()[fixture.DeleteAnnotation] == "true"
}

// splitTimeline splits a fixture's documents as the engine runs them: the
// documents before the first pending pod and every bound pod are the
// initial cluster; the rest follow in order.
func splitTimeline(objs []runtime.Object) (initial, later []runtime.Object) {
	split := len(objs)
	for i, o := range objs {
		if p, ok := o.(*v1.Pod); ok && p.Spec.NodeName == "" && !isDeleteDoc(o) {
			split = i
			break
		}
	}
	for i, o := range objs {
		if p, ok := o.(*v1.Pod); i < split || ok && p.Spec.NodeName != "" && !isDeleteDoc(o) {
			initial = append(initial, o)
		} else {
			later = append(later, o)
		}
	}
	return initial, later
}

// apply makes one later document's write, as kubectl would, and returns
// the object's key (namespace/name, or name): a deletion deletes it with
// its dependents in the background, as kubectl delete does (a Job's API
// default would orphan its pods), with no grace period (the test's kubelet
// has nothing to stop); a pod is created; another object replaces the
// stored one or is created, with the status the document states, as its
// kubelet or controller would write it.
func (r *resources) apply(t *testing.T, ctx context.Context, o runtime.Object) string {
	t.Helper()
	ri, u := r.of(t, o)
	key := u.GetNamespace() + "/" + u.GetName()
	if u.GetNamespace() == "" {
		key = u.GetName()
	}
	_, isPod := o.(*v1.Pod)
	switch current, err := ri.Get(ctx, u.GetName(), metav1.GetOptions{}); {
	case isDeleteDoc(o):
		zero := int64(0)
		background := metav1.DeletePropagationBackground
		if err := ri.Delete(ctx, u.GetName(), metav1.DeleteOptions{GracePeriodSeconds: &zero, PropagationPolicy: &background}); err != nil {
			t.Fatalf("deleting %s %s: %v", u.GetKind(), key, err)
		}
	case isPod:
		if err := admitted(ctx, func() error {
			_, err := ri.Create(ctx, u, metav1.CreateOptions{})
			return err
		}); err != nil {
			t.Fatalf("creating pod %s: %v", key, err)
		}
	case err == nil:
		u.SetResourceVersion(current.GetResourceVersion())
		updated, err := ri.Update(ctx, u, metav1.UpdateOptions{})
		if err != nil {
			t.Fatalf("replacing %s %s: %v", u.GetKind(), key, err)
		}
		setStatus(t, ctx, ri, updated, u, statesStatus(o))
	case apierrors.IsNotFound(err):
		var created *unstructured.Unstructured
		err := admitted(ctx, func() (err error) {
			created, err = ri.Create(ctx, u, metav1.CreateOptions{})
			return err
		})
		if err != nil {
			t.Fatalf("creating %s %s: %v", u.GetKind(), key, err)
		}
		setStatus(t, ctx, ri, created, u, statesStatus(o))
	default:
		t.Fatal(err)
	}
	return key
}

// resources maps objects to the dynamic client's resources.
type resources struct {
	dyn    dynamic.Interface
	mapper meta.RESTMapper
}

func newResources(t *testing.T, cp *controlPlane) *resources {
	dyn, err := dynamic.NewForConfig(cp.admin)
	if err != nil {
		t.Fatal(err)
	}
	groups, err := restmapper.GetAPIGroupResources(cp.client.Discovery())
	if err != nil {
		t.Fatal(err)
	}
	return &resources{dyn, restmapper.NewDiscoveryRESTMapper(groups)}
}

// of returns the resource o belongs to and o as unstructured, in the
// default namespace if it is namespaced and names none.
func (r *resources) of(t *testing.T, o runtime.Object) (dynamic.ResourceInterface, *unstructured.Unstructured) {
	t.Helper()
	gvks, _, err := clientgoscheme.Scheme.ObjectKinds(o)
	if err != nil {
		t.Fatal(err)
	}
	mapping, err := r.mapper.RESTMapping(gvks[0].GroupKind(), gvks[0].Version)
	if err != nil {
		t.Fatalf("%T: %v", o, err)
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetGroupVersionKind(gvks[0])
	if mapping.Scope.Name() != meta.RESTScopeNameNamespace {
		return r.dyn.Resource(mapping.Resource), u
	}
	if u.GetNamespace() == "" {
		u.SetNamespace("default")
	}
	return r.dyn.Resource(mapping.Resource).Namespace(u.GetNamespace()), u
}

// statesStatus reports whether a document's object says anything in its
// status (its unstructured form holds zero-valued status structs either way).
func statesStatus(o runtime.Object) bool {
	st := reflect.ValueOf(o).Elem().FieldByName("Status")
	return st.IsValid() && !st.IsZero()
}

// setStatus writes the status doc states onto obj, if stated.
func setStatus(t *testing.T, ctx context.Context, ri dynamic.ResourceInterface, obj, doc *unstructured.Unstructured, stated bool) {
	t.Helper()
	status, ok := doc.Object["status"].(map[string]any)
	if !stated || !ok {
		return
	}
	obj.Object["status"] = status
	if _, err := ri.UpdateStatus(ctx, obj, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("setting the status of %s %s: %v", obj.GetKind(), obj.GetName(), err)
	}
}

// waitDecided waits until the real scheduler bound the pod or marked it
// Unschedulable.
func waitDecided(t *testing.T, ctx context.Context, cp *controlPlane, name, ns string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		cur, err := cp.client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if cur.Spec.NodeName != "" {
			return true, nil
		}
		for _, c := range cur.Status.Conditions {
			if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("the real kube-scheduler did not decide %s/%s: %v", ns, name, err)
	}
}

// waitRealSettled waits until the real scheduler's queue has nothing to do:
// no pod in activeQ or backoffQ or popped, for half a second in a row (long
// past the watch delivering a write made before the call).
func waitRealSettled(t *testing.T, ctx context.Context, cp *controlPlane) {
	t.Helper()
	q := cp.sched.SchedulingQueue
	quiet := 0
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 60*time.Second, true, func(context.Context) (bool, error) {
		if len(q.PodsInActiveQ())+len(q.PodsInBackoffQ())+len(q.InFlightPods()) > 0 {
			quiet = 0
			return false, nil
		}
		quiet++
		return quiet >= 10, nil
	})
	if err != nil {
		t.Fatalf("the real kube-scheduler did not settle: %v", err)
	}
}

// podOutcome is where the real scheduler has the pod: its node, or the
// reason and message of its PodScheduled condition.
func podOutcome(t *testing.T, ctx context.Context, cp *controlPlane, ns, name string) outcome {
	t.Helper()
	p, err := cp.client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Spec.NodeName != "" {
		return outcome{node: p.Spec.NodeName}
	}
	for _, c := range p.Status.Conditions {
		if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse {
			return outcome{message: c.Reason + ": " + c.Message}
		}
	}
	return outcome{message: "no PodScheduled condition"}
}

// simulateTimeline runs the fixture through schedscope's engine and returns
// each pod's outcome in its first cycle and in its last.
func simulateTimeline(t *testing.T, name string, data []byte) (first, last map[string]outcome) {
	t.Helper()
	fx, err := fixture.Load(name, data)
	if err != nil {
		t.Fatal(err)
	}
	cycles := runFixture(t, fx)
	first, last = map[string]outcome{}, map[string]outcome{}
	for _, c := range cycles {
		o := outcome{node: c.Outcome.Node}
		if c.Outcome.Result == recorder.ResultBound && c.Selection != nil {
			for _, i := range c.Selection.Top {
				o.ties = append(o.ties, c.NodeName(i))
			}
		}
		if c.Outcome.Result != recorder.ResultBound {
			o = outcome{message: c.Outcome.Reason + ": " + c.Outcome.Message}
		}
		key := c.Pod.Key()
		if _, ok := first[key]; !ok {
			first[key] = o
		}
		last[key] = o
	}
	// A pod that got no cycle (held by a scheduling gate) is compared by
	// the PodScheduled condition it was admitted with, as the real API
	// server wrote it.
	for _, p := range fx.Pending {
		key := p.Namespace + "/" + p.Name
		if _, ok := first[key]; ok {
			continue
		}
		for _, c := range p.Status.Conditions {
			if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse {
				first[key] = outcome{message: c.Reason + ": " + c.Message}
				last[key] = first[key]
			}
		}
	}
	return first, last
}
