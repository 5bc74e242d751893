package engine

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/schedscope/schedscope/recorder"
)

// Each touch of upstream internals in upstream.go, exercised on the pinned
// versions. After a Kubernetes bump, a failure here names what changed.
func TestUpstreamSeam(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e, err := New(ctx, loadEmbedded(t, "default.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("Scheduler.nextStartNodeIndex", func(t *testing.T) {
		*e.nextStart = 3
		got := reflect.ValueOf(e.sched).Elem().FieldByName("nextStartNodeIndex").Int()
		if got != 3 {
			t.Errorf("writing through the pointer gave the field %d, want 3", got)
		}
		*e.nextStart = 0
	})

	t.Run("frameworkImpl plugin slices", func(t *testing.T) {
		for name, fw := range e.sched.Profiles {
			v, err := frameworkStruct(unwrap(fw))
			if err != nil {
				t.Fatal(err)
			}
			check := func(field string, err error, n int) {
				if err != nil {
					t.Errorf("profile %s: %v", name, err)
				} else if n == 0 && (field == "filterPlugins" || field == "scorePlugins" || field == "bindPlugins") {
					t.Errorf("profile %s: %s is empty; the default profile has some", name, field)
				}
			}
			for _, f := range frameworkPluginFields {
				count, ok := pluginFieldLens[f]
				if !ok {
					t.Fatalf("no check for field %s", f)
				}
				n, err := count(v, f)
				check(f, err, n)
			}
		}
	})

	t.Run("sharedInformerFactory.informers", func(t *testing.T) {
		objs, err := informerTypes(e.informers)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, o := range objs {
			kinds = append(kinds, reflect.TypeOf(o).Elem().Name())
		}
		for _, want := range []string{reflect.TypeFor[v1.Pod]().Name(), reflect.TypeFor[v1.Node]().Name(), "PersistentVolumeClaim"} {
			if !slices.Contains(kinds, want) {
				t.Errorf("the scheduler's informers lack %s: %v", want, kinds)
			}
		}
	})

	t.Run("runtime.nanotime", func(t *testing.T) {
		// A sleep lasts at least its duration on the monotonic clock.
		start := nanotime()
		time.Sleep(2 * time.Millisecond)
		if d := time.Duration(nanotime() - start); d < 2*time.Millisecond {
			t.Errorf("nanotime advanced %v over a 2ms sleep", d)
		}
	})
}

// pluginFieldLens reads each plugin slice of frameworkPluginFields with
// the element type the engine expects there, returning its length.
var pluginFieldLens = map[string]func(reflect.Value, string) (int, error){
	"preFilterPlugins":         fieldLen[fwk.PreFilterPlugin],
	"filterPlugins":            fieldLen[fwk.FilterPlugin],
	"postFilterPlugins":        fieldLen[fwk.PostFilterPlugin],
	"preScorePlugins":          fieldLen[fwk.PreScorePlugin],
	"scorePlugins":             fieldLen[fwk.ScorePlugin],
	"reservePlugins":           fieldLen[fwk.ReservePlugin],
	"permitPlugins":            fieldLen[fwk.PermitPlugin],
	"preBindPlugins":           fieldLen[fwk.PreBindPlugin],
	"bindPlugins":              fieldLen[fwk.BindPlugin],
	"postBindPlugins":          fieldLen[fwk.PostBindPlugin],
	"placementGeneratePlugins": fieldLen[fwk.PlacementGeneratePlugin],
	"placementScorePlugins":    fieldLen[fwk.PlacementScorePlugin],
}

func fieldLen[T any](v reflect.Value, name string) (int, error) {
	p, err := pluginSlice[T](v, name)
	if err != nil {
		return 0, err
	}
	return len(*p), nil
}

// The copy of numFeasibleNodesToFind says what the scheduler does: on the
// 1 000-node fixture the search stops after exactly that many feasible nodes.
func TestNumFeasibleNodesToFindMatchesTheScheduler(t *testing.T) {
	tests := []struct {
		all  int
		pct  int32
		want int
	}{
		{50, 0, 50}, {100, 0, 100}, {1000, 0, 420}, {5000, 0, 500}, {20000, 0, 1000}, {1000, 10, 100}, {1000, 5, 100}, {1000, 100, 1000},
	}
	for _, tt := range tests {
		if got := numFeasibleNodesToFind(tt.all, tt.pct); got != tt.want {
			t.Errorf("numFeasibleNodesToFind(%d, %d) = %d, want %d", tt.all, tt.pct, got, tt.want)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var first *recorder.Cycle
	e, err := New(ctx, loadEmbedded(t, "large-cluster.yaml"), Options{OnCycle: func(c *recorder.Cycle) {
		if c.Seq == 1 {
			first = c
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if first == nil || first.Filter == nil {
		t.Fatal("no first cycle with a filter phase")
	}
	if n := first.NumNodes(); first.NodesToFind != numFeasibleNodesToFind(n, 0) || len(first.Filter.Feasible) != first.NodesToFind {
		t.Errorf("%d nodes: recorded NodesToFind %d, the scheduler kept %d feasible nodes", n, first.NodesToFind, len(first.Filter.Feasible))
	}
}

// The scheduling queue's hint map is reached and its functions are wrapped
// in place: the queue calls the wrapper, which answers as the plugin did.
func TestQueueingHintMapSeam(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e, err := New(ctx, loadEmbedded(t, "default.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, ok := e.sched.SchedulingQueue.(*queueWrapper)
	if !ok {
		t.Fatalf("the scheduler's queue is %T, not the engine's wrapper", e.sched.SchedulingQueue)
	}
	m, err := queueingHintMap(w.SchedulingQueue)
	if err != nil {
		t.Fatal(err)
	}
	var fit *internalqueue.QueueingHintFunction
	for ev, fns := range m["default-scheduler"] {
		for _, f := range fns {
			if f.PluginName == "NodeResourcesFit" && ev.Resource == fwk.Node {
				fit = f
			}
		}
	}
	if fit == nil {
		t.Fatalf("no NodeResourcesFit hint for Node events in the queue's map %v", m)
	}
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "p", UID: "u"},
		Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")}}}}}}
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourcePods: resource.MustParse("10")}}}
	hint, err := fit.QueueingHintFn(klog.Background(), pod, nil, node)
	if err != nil || hint != fwk.Queue {
		t.Fatalf("NodeResourcesFit's hint for a new node that fits: %v, %v; want Queue", hint, err)
	}
	w.o.mu.Lock()
	got := w.o.hints[nil]["default/p"] // asked with a logger not the engine's
	w.o.mu.Unlock()
	if diff := cmp.Diff([]recorder.QueueHint{{Plugin: "NodeResourcesFit", Hint: recorder.HintQueue}}, got); diff != "" {
		t.Errorf("recorded hints (-want +got):\n%s", diff)
	}
}

// The queue's log lines the engine reads, from a real PriorityQueue: two
// pods added, tried, requeued as unschedulable and moved to backoffQ by an
// event. Their recorded backoff is the queue's own.
func TestQueueLogLinesSeam(t *testing.T) {
	metrics.Register() // as scheduler.New does; the queue records into them
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 300_000_000, time.UTC))
	less := func(a, b fwk.QueuedEntityInfo) bool { return a.GetTimestamp().Before(b.GetTimestamp()) }
	q := internalqueue.NewTestQueue(ctx, less, internalqueue.WithClock(clk),
		internalqueue.WithPodInitialBackoffDuration(time.Second), internalqueue.WithPodMaxBackoffDuration(10*time.Second))
	var mu sync.Mutex
	var events []*recorder.QueueEvent
	o := newQueueObserver(clk.Now, func(ev *recorder.QueueEvent) { mu.Lock(); events = append(events, ev); mu.Unlock() })
	logger := func(event string) klog.Logger { return o.logger(klog.Background(), &queueCall{event: event}) }
	names := []string{"a", "b"}
	for _, n := range names {
		q.Add(klog.NewContext(ctx, logger("")), &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: n, UID: types.UID(n)}})
		clk.Step(100 * time.Millisecond)
	}
	var popped []*framework.QueuedPodInfo
	for range names {
		ent, err := q.Pop(logger(""))
		if err != nil {
			t.Fatal(err)
		}
		pi := ent.(*framework.QueuedPodInfo)
		o.popped(pi)
		pi.UnschedulablePlugins = sets.New("NodeResourcesFit")
		popped = append(popped, pi)
	}
	for _, pi := range popped {
		if err := q.AddUnschedulablePodIfNotPresent(logger(""), pi, q.SchedulingCycle()); err != nil {
			t.Fatal(err)
		}
		clk.Step(100 * time.Millisecond)
	}
	q.MoveAllToActiveOrBackoffQueue(logger(framework.EventUnschedulableTimeout.Label()), framework.EventUnschedulableTimeout, nil, nil, nil)

	mu.Lock()
	defer mu.Unlock()
	var got []string
	for _, ev := range events {
		got = append(got, ev.Pod.Name+" "+ev.Op+" "+ev.From+"→"+ev.To+" "+ev.Event)
	}
	// A move of every unschedulable pod walks the queue's map: any order.
	if len(got) > 4 {
		slices.Sort(got[4:])
	}
	want := []string{
		"a Add →Active UnscheduledPodAdd", "b Add →Active UnscheduledPodAdd",
		"a Move →Unschedulable ScheduleAttemptFailure", "b Move →Unschedulable ScheduleAttemptFailure",
		"a Move Unschedulable→Backoff UnschedulableTimeout", "b Move Unschedulable→Backoff UnschedulableTimeout",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	for _, ev := range events[4:] {
		pi, ok := q.GetPod(ev.Pod.Name, ev.Pod.Namespace, nil)
		if !ok || pi.BackoffExpiration.IsZero() {
			t.Fatalf("%s: the queue has no backoff expiry for it (%v)", ev.Pod.Name, ok)
		}
		// The 1s backoff of a first failure, from the requeue, aligned down
		// to the queue's one-second window (SchedulerPopFromBackoffQ).
		wantUntil := pi.Timestamp.Add(time.Second).Truncate(time.Second)
		if !ev.BackoffUntil.Equal(pi.BackoffExpiration) || !ev.BackoffUntil.Equal(wantUntil) || time.Duration(ev.Backoff) != wantUntil.Sub(pi.Timestamp) || ev.Attempts != 1 {
			t.Errorf("%s: recorded backoff %v until %v after %d attempt(s); the queue's ends %v, requeued at %v",
				ev.Pod.Name, time.Duration(ev.Backoff), ev.BackoffUntil, ev.Attempts, pi.BackoffExpiration, pi.Timestamp)
		}
	}
	mu.Unlock()

	// The queue's own flush, on the goroutines Run starts with the logger
	// the engine's wrapper gives it: once the backoff is over, both pods
	// move to activeQ, marked as flushBackoffQCompleted's.
	w := &queueWrapper{SchedulingQueue: q, o: o}
	w.Run(klog.Background())
	defer q.Close()
	var flushed []string
	if err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		clk.Step(500 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		flushed = nil
		for _, ev := range events[6:] {
			flushed = append(flushed, ev.Pod.Name+" "+ev.From+"→"+ev.To+" "+ev.Event+" "+ev.Flush)
		}
		return len(flushed) >= 2, nil
	}); err != nil {
		t.Fatalf("no flush recorded: %v", flushed)
	}
	mu.Lock()
	want = []string{"a Backoff→Active BackoffComplete flushBackoffQCompleted", "b Backoff→Active BackoffComplete flushBackoffQCompleted"}
	if diff := cmp.Diff(want, flushed); diff != "" {
		t.Errorf("flush (-want +got):\n%s", diff)
	}
}

// The scheduler's pod informer (newInformerFactory) holds what upstream's
// (scheduler.NewInformerFactory) holds, over the same in-memory API server:
// the same pods, managedFields dropped. Its initial list hands the stored
// pods themselves to the informer, and drops managedFields without
// touching the stored pod; a write reaches both informers alike.
func TestPodInformerIsTheSchedulers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := newStore()
	pods := v1.SchemeGroupVersion.WithResource("pods")
	plain := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns", ResourceVersion: "1"}, Spec: v1.PodSpec{NodeName: "n1"}}
	managed := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "ns", ResourceVersion: "1",
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply}}}}
	done := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "other", ResourceVersion: "1"}, Status: v1.PodStatus{Phase: v1.PodSucceeded}}
	if err := s.adopt([]runtime.Object{plain, managed, done}); err != nil {
		t.Fatal(err)
	}
	client := fake.NewSimpleClientset()
	client.PrependReactor("*", "*", clienttesting.ObjectReaction(s))
	client.PrependWatchReactor("*", s.watchReaction)

	ours := newInformerFactory(client, s.podList)
	upstream := scheduler.NewInformerFactory(client, 0, nil)
	oursInf, upInf := ours.Core().V1().Pods().Informer(), upstream.Core().V1().Pods().Informer()
	ours.Start(ctx.Done())
	upstream.Start(ctx.Done())
	ours.WaitForCacheSync(ctx.Done())
	upstream.WaitForCacheSync(ctx.Done())

	byKey := func(inf cache.SharedIndexInformer) map[string]*v1.Pod {
		out := map[string]*v1.Pod{}
		for _, o := range inf.GetStore().List() {
			p := o.(*v1.Pod)
			out[p.Namespace+"/"+p.Name] = p
		}
		return out
	}
	got, want := byKey(oursInf), byKey(upInf)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the engine's pod informer holds other pods than kube-scheduler's (-upstream +engine):\n%s", diff)
	}
	if len(got) != 3 {
		t.Errorf("informer holds %d pods, want all 3 (the in-memory API server applies no field selector; settle.go's unfinished does)", len(got))
	}
	if got["ns/a"] != plain {
		t.Error("the initial list handed the informer a copy of the stored pod, not the pod itself")
	}
	if got["ns/b"] == nil || got["ns/b"].ManagedFields != nil {
		t.Error("a pod with managedFields kept them in the informer")
	}
	if managed.ManagedFields == nil {
		t.Error("dropping managedFields changed the stored pod")
	}
	// The watch after the list is upstream's own path.
	upd := plain.DeepCopy()
	upd.Labels = map[string]string{"app": "web"}
	if err := s.Update(pods, upd, "ns"); err != nil {
		t.Fatal(err)
	}
	err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		o, _, _ := oursInf.GetStore().GetByKey("ns/a")
		u, _, _ := upInf.GetStore().GetByKey("ns/a")
		return o != nil && u != nil && o.(*v1.Pod).Labels["app"] == "web" && u.(*v1.Pod).Labels["app"] == "web", nil
	})
	if err != nil {
		t.Errorf("an update did not reach both informers: %v", err)
	}
	// A list other than the informer's first goes through the client, as
	// upstream's does, and holds copies.
	l, err := client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil || len(l.Items) != 3 {
		t.Fatalf("a client list gave %v, %v", l, err)
	}
}

// The scheduling queue's PreEnqueue plugins are reached and wrapped in
// place: the queue runs the wrapper, and a gated pod's move names the plugin
// that held it with the plugin's own reasons (queue.yaml's batch, held by
// its scheduling gate).
func TestPreEnqueuePluginsSeam(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var mu sync.Mutex
	var queue []*recorder.QueueEvent
	e, err := New(ctx, loadEmbedded(t, "queue.yaml"), Options{OnQueue: func(ev *recorder.QueueEvent) {
		mu.Lock()
		defer mu.Unlock()
		queue = append(queue, ev)
	}})
	if err != nil {
		t.Fatal(err)
	}
	w, ok := e.sched.SchedulingQueue.(*queueWrapper)
	if !ok {
		t.Fatalf("the scheduler's queue is %T, not the engine's wrapper", e.sched.SchedulingQueue)
	}
	m, err := preEnqueuePlugins(w.SchedulingQueue)
	if err != nil {
		t.Fatal(err)
	}
	if _, wrapped := m["default-scheduler"]["SchedulingGates"].(*preEnqueueWrapper); !wrapped {
		t.Fatalf("the queue's SchedulingGates PreEnqueue plugin is %T, not the engine's wrapper (map %v)", m["default-scheduler"]["SchedulingGates"], m)
	}
	if _, err := e.Run(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var gated []string
	for _, ev := range queue {
		if ev.Gated {
			gated = append(gated, ev.Pod.Name+" by "+ev.GatedBy+": "+strings.Join(ev.GateReasons, "; "))
		} else if ev.GatedBy != "" {
			t.Errorf("%s's move to %s was not gated, yet names %s", ev.Pod.Name, ev.To, ev.GatedBy)
		}
	}
	if len(gated) == 0 || !strings.HasPrefix(gated[0], "batch by SchedulingGates: ") || !strings.Contains(gated[0], "example.com/quota") {
		t.Errorf("gated moves %q; want batch held by SchedulingGates, its reason naming example.com/quota", gated)
	}
}
