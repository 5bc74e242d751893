package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// Documents for timeline tests; each starts with "---".
func nodeDoc(name, extra string) string {
	return fmt.Sprintf("---\napiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: {kubernetes.io/hostname: %s%s}}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"10\"}}\n", name, name, extra)
}

func podDoc(name, spec string) string {
	return fmt.Sprintf("---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n  containers: [{name: c, image: i}]\n%s", name, spec)
}

func deleteDoc(kind, name string) string {
	return fmt.Sprintf("---\napiVersion: v1\nkind: %s\nmetadata: {name: %s, annotations: {schedscope.io/delete: \"true\"}}\n", kind, name)
}

func TestLoadTimeline(t *testing.T) {
	data := nodeDoc("n1", "") + // content on line 2
		podDoc("first", "") + // line 7
		nodeDoc("n2", "") + // line 13
		"---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {kubernetes.io/hostname: n1, disk: ssd}}\nspec:\n  taints: [{key: k, value: v, effect: NoSchedule}]\n" + // line 18
		podDoc("second", "") + // line 24
		deleteDoc("Node", "n2") + // line 30
		podDoc("running", "  nodeName: n1\n") // line 34: a bound pod is initial
	fx, err := fixture.Load("t.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	var initial []string
	for _, o := range fx.Objects {
		m, _ := metaOf(o)
		initial = append(initial, fixture.KindName(o)+"/"+m.Name)
	}
	wantInitial := []string{"Node/n1", "Pod/running", "PriorityClass/system-node-critical", "PriorityClass/system-cluster-critical"}
	if diff := cmp.Diff(wantInitial, initial); diff != "" {
		t.Errorf("initial objects (-want +got):\n%s", diff)
	}
	var pending []string
	for _, p := range fx.Pending {
		pending = append(pending, p.Name)
	}
	if diff := cmp.Diff([]string{"first", "second"}, pending); diff != "" {
		t.Errorf("pending pods (-want +got):\n%s", diff)
	}
	type step struct {
		What   string
		After  int
		Source string
	}
	var got []step
	for _, s := range fx.Steps {
		got = append(got, step{s.String(), s.After, s.Source})
	}
	want := []step{
		{`create Node "n2"`, 1, "t.yaml:13"},
		{`replace Node "n1"`, 1, "t.yaml:18"},
		{`delete Node "n2"`, 2, "t.yaml:30"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	replaced := fx.Steps[1].Object.(*v1.Node)
	first := fx.Objects[0].(*v1.Node)
	if replaced.UID != first.UID || replaced.Labels["disk"] != "ssd" || len(replaced.Spec.Taints) != 1 {
		t.Errorf("replacement: uid %q (want %q), labels %v, taints %v", replaced.UID, first.UID, replaced.Labels, replaced.Spec.Taints)
	}
	// The replacement states no status: an update keeps the node's.
	if q := replaced.Status.Allocatable[v1.ResourceCPU]; q.String() != "4" {
		t.Errorf("replacement lost the node's status: allocatable cpu %q", q.String())
	}
	if len(first.Spec.Taints) != 0 || first.Labels["disk"] != "" {
		t.Errorf("the replacement changed the initial node: %v %v", first.Labels, first.Spec.Taints)
	}
}

// TestTimelineAdmission checks that each later document is admitted on the
// cluster as it stands at its point: a pod sees a PriorityClass created
// before it, not one created after.
func TestTimelineAdmission(t *testing.T) {
	gold := "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: gold}\nvalue: 1000\n"
	fx, err := fixture.Load("t.yaml", []byte(nodeDoc("n1", "")+podDoc("a", "")+gold+podDoc("b", "  priorityClassName: gold\n")))
	if err != nil {
		t.Fatal(err)
	}
	if p := fx.Pending[1]; p.Spec.Priority == nil || *p.Spec.Priority != 1000 {
		t.Errorf("pod b: priority %v, want 1000 from gold created before it", p.Spec.Priority)
	}
	if _, ok := fx.Steps[0].Object.(*schedulingv1.PriorityClass); !ok || fx.Steps[0].After != 1 {
		t.Errorf("step %v after %d, want gold created after pod a", fx.Steps[0], fx.Steps[0].After)
	}
	_, err = fixture.Load("t.yaml", []byte(nodeDoc("n1", "")+podDoc("b", "  priorityClassName: gold\n")+gold))
	if err == nil || !strings.Contains(err.Error(), "t.yaml:7: ") || !strings.Contains(err.Error(), "no PriorityClass with name gold was found") {
		t.Errorf("a pod before its PriorityClass: got %v", err)
	}
}

func TestLoadTimelineErrors(t *testing.T) {
	start := nodeDoc("n1", "") + podDoc("p", "") // lines 1-11; the next document's content is on line 13
	tests := []struct {
		name string
		data string
		want string
	}{
		{"delete of a missing object", start + deleteDoc("Node", "n9"),
			`bad.yaml:13: Node "n9": schedscope.io/delete: there is no Node "n9" at this point of the fixture`},
		{"delete twice", start + nodeDoc("n2", "") + deleteDoc("Node", "n2") + deleteDoc("Node", "n2"),
			`bad.yaml:22: Node "n2": schedscope.io/delete: there is no Node "n2" at this point`},
		{"delete before its create", start + deleteDoc("Node", "n2") + nodeDoc("n2", ""),
			`bad.yaml:13: Node "n2": schedscope.io/delete: there is no Node "n2"`},
		{"delete with a spec", start + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, annotations: {schedscope.io/delete: \"true\"}}\nspec: {unschedulable: true}\n",
			`bad.yaml:13: Node "n1": a deletion (schedscope.io/delete) names the object only, by kind, metadata.name and metadata.namespace; remove spec`},
		{"delete with labels", start + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {a: b}, annotations: {schedscope.io/delete: \"true\"}}\n",
			`bad.yaml:13: Node "n1": a deletion (schedscope.io/delete) names the object only, by kind, metadata.name and metadata.namespace; remove metadata.labels`},
		{"delete in the initial cluster", nodeDoc("n1", "") + deleteDoc("Node", "n1") + podDoc("p", ""),
			`bad.yaml:7: Node "n1": metadata.annotations[schedscope.io/delete]: a deletion must follow a pending pod`},
		{"delete not true", start + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, annotations: {schedscope.io/delete: \"yes\"}}\n",
			`bad.yaml:13: Node "n1": metadata.annotations[schedscope.io/delete]: want "true", got "yes"`},
		{"misspelt annotation", start + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, annotations: {schedscope.io/deleted: \"true\"}}\n",
			`bad.yaml:13: Node "n1": metadata.annotations[schedscope.io/deleted]: unknown schedscope annotation`},
		{"replace a pod", start + podDoc("p", "  tolerations: [{operator: Exists}]\n"),
			`bad.yaml:13: Pod "default/p" already exists: a pod's spec cannot be changed once created`},
		{"replace a bound pod", nodeDoc("n1", "") + podDoc("run", "  nodeName: n1\n") + podDoc("p", "") + podDoc("run", ""),
			`bad.yaml:20: Pod "default/run" already exists`},
		{"replace a kind that cannot be", "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n" + start + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {a: b}\n",
			`bad.yaml:17: ConfigMap "default/cm" cannot be replaced by a later document (kinds that can be: CSIDriver, `},
		{"replace refused by the update path", "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: gold}\nvalue: 10\n" + start +
			"---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: gold}\nvalue: 20\n",
			`bad.yaml:18: PriorityClass "gold" is invalid: value: Forbidden: may not be changed in an update`},
		{"replace with an invalid taint", start + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  taints: [{key: k, effect: Sometimes}]\n",
			`bad.yaml:13: Node "n1" is invalid: metadata.taints[0].effect: Unsupported value: "Sometimes"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fixture.Load("bad.yaml", []byte(tt.data))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line containing %q", err, tt.want)
			}
		})
	}
}

// TestAutoscalerFixture runs fixtures/autoscaler.yaml: big-job's first cycle
// is Unschedulable on the one small node; the node added next wakes it in
// the scheduling queue and a later cycle binds it there, before the pod that
// follows the node arrives.
func TestAutoscalerFixture(t *testing.T) {
	for _, burst := range []bool{false, true} {
		t.Run(fmt.Sprintf("burst=%v", burst), func(t *testing.T) {
			fx := loadEmbedded(t, "autoscaler.yaml")
			res, cycles := runLoaded(t, fx, burst)
			if diff := cmp.Diff(map[string]string{"default/big-job": "big-1", "default/small": "small-1"}, res.Bindings); diff != "" {
				t.Errorf("bindings (-want +got):\n%s", diff)
			}
			type cycle struct {
				Pod, Result, Node string
				Nodes             int
			}
			var got []cycle
			for _, c := range cycles {
				got = append(got, cycle{c.Pod.Key(), c.Outcome.Result, c.Outcome.Node, c.NumNodes()})
			}
			want := []cycle{
				{"default/big-job", recorder.ResultUnschedulable, "", 1},
				{"default/big-job", recorder.ResultBound, "big-1", 2},
				{"default/small", recorder.ResultBound, "small-1", 2},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("cycles (-want +got):\n%s", diff)
			}
			if len(cycles) > 1 && cycles[1].Attempt != 2 {
				t.Errorf("big-job's second cycle is attempt %d, want 2", cycles[1].Attempt)
			}
		})
	}
}

// runLoaded runs a loaded fixture and returns its result and cycles in order.
func runLoaded(t *testing.T, fx *fixture.Fixture, burst bool) (*Result, []*recorder.Cycle) {
	t.Helper()
	res, cycles, _ := runEngine(t, fx, burst)
	return res, cycles
}

// runEngine is runLoaded, with the engine the run had.
func runEngine(t *testing.T, fx *fixture.Fixture, burst bool) (*Result, []*recorder.Cycle, *Engine) {
	t.Helper()
	return runEngineWith(t, fx, Options{}, burst)
}

// runEngineWith runs fx with opts, its pending pods arriving at once
// (burst) or one by one, and returns its result, its cycles in order and
// the engine.
func runEngineWith(t *testing.T, fx *fixture.Fixture, opts Options, burst bool) (*Result, []*recorder.Cycle, *Engine) {
	t.Helper()
	var mu sync.Mutex
	var cycles []*recorder.Cycle
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	opts.OnCycle = func(c *recorder.Cycle) {
		mu.Lock()
		cycles = append(cycles, c)
		mu.Unlock()
	}
	e, err := New(ctx, fx, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	run := e.Run
	if burst {
		run = e.RunBurst
	}
	res, err := run(ctx)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(cycles, func(a, b *recorder.Cycle) int { return a.Seq - b.Seq })
	return res, cycles, e
}

func sizedNode(name, cpu, extra string) string {
	return fmt.Sprintf("---\napiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: {kubernetes.io/hostname: %s}}\n%sstatus: {allocatable: {cpu: %q, memory: 8Gi, pods: \"10\"}}\n", name, name, extra, cpu)
}

func cpuPod(name, cpu, spec string) string {
	return fmt.Sprintf("---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n  containers: [{name: c, image: i, resources: {requests: {cpu: %q}}}]\n%s", name, cpu, spec)
}

// TestTimelineChangesAffectLaterPods changes nodes mid-run and checks that
// each later pod is scheduled on the cluster as changed, and every pod
// before the change on the cluster as it was.
func TestTimelineChangesAffectLaterPods(t *testing.T) {
	ssd := "  nodeSelector: {disk: ssd}\n"
	// big has room to spare, so the scheduler prefers it when it may.
	initial := "---\napiVersion: v1\nkind: Node\nmetadata: {name: big, labels: {kubernetes.io/hostname: big, disk: ssd}}\nstatus: {allocatable: {cpu: \"8\", memory: 8Gi, pods: \"10\"}}\n" +
		sizedNode("small", "2", "")
	tests := []struct {
		name     string
		timeline string
		want     map[string]string
	}{
		{
			name: "label moved",
			timeline: cpuPod("before", "500m", ssd) +
				// The replacements state no status: the nodes keep theirs.
				"---\napiVersion: v1\nkind: Node\nmetadata: {name: big, labels: {kubernetes.io/hostname: big}}\n" +
				"---\napiVersion: v1\nkind: Node\nmetadata: {name: small, labels: {kubernetes.io/hostname: small, disk: ssd}}\n" +
				cpuPod("after", "500m", ssd),
			want: map[string]string{"default/before": "big", "default/after": "small"},
		},
		{
			name: "taint added",
			timeline: cpuPod("before", "500m", "") +
				"---\napiVersion: v1\nkind: Node\nmetadata: {name: big, labels: {kubernetes.io/hostname: big, disk: ssd}}\nspec:\n  taints: [{key: maintenance, effect: NoSchedule}]\n" +
				cpuPod("after", "500m", "") +
				cpuPod("tolerant", "500m", "  tolerations: [{key: maintenance, operator: Exists}]\n"),
			want: map[string]string{"default/before": "big", "default/after": "small", "default/tolerant": "big"},
		},
		{
			name: "node deleted",
			timeline: cpuPod("before", "500m", "") +
				deleteDoc("Node", "big") +
				cpuPod("after", "500m", ""),
			// Pod garbage collection deletes the pod left on the deleted node.
			want: map[string]string{"default/before": "", "default/after": "small"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx, err := fixture.Load(tt.name, []byte(initial+tt.timeline))
			if err != nil {
				t.Fatal(err)
			}
			res, _ := runLoaded(t, fx, false)
			if diff := cmp.Diff(tt.want, res.Bindings); diff != "" {
				t.Errorf("bindings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTimelineDeletePodWakesPending deletes a running pod mid-run: the pod
// that could not fit beside it is woken by the deletion and bound.
func TestTimelineDeletePodWakesPending(t *testing.T) {
	data := sizedNode("only", "2", "") +
		cpuPod("running", "2", "  nodeName: only\n") +
		cpuPod("waiting", "1", "") +
		deleteDoc("Pod", "running")
	fx, err := fixture.Load("delete.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	res, cycles := runLoaded(t, fx, false)
	if res.Bindings["default/waiting"] != "only" {
		t.Errorf("waiting: bound to %q, want only", res.Bindings["default/waiting"])
	}
	if len(cycles) != 2 || cycles[0].Outcome.Result != recorder.ResultUnschedulable || cycles[1].Outcome.Result != recorder.ResultBound {
		var got []string
		for _, c := range cycles {
			got = append(got, c.Pod.Key()+" "+c.Outcome.Result)
		}
		t.Errorf("cycles %v, want waiting Unschedulable, then bound", got)
	}
}

// TestForkSeesTheTimelineAsItStood forks autoscaler.yaml's cycles: the first
// sees the one node there was, the retry after the NodeAdd sees both and
// re-runs to the recorded binding; a fork after a node was deleted and
// another relabelled sees the cluster so changed.
func TestForkSeesTheTimelineAsItStood(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fx := loadEmbedded(t, "autoscaler.yaml")
	names := func(f *Fork) []string {
		var out []string
		for _, n := range f.Nodes {
			out = append(out, n.Name)
		}
		return out
	}
	tests := []struct {
		seq       int
		wantNodes []string
		wantNode  string
	}{
		{1, []string{"small-1"}, ""},
		{2, []string{"small-1", "big-1"}, "big-1"},
	}
	for _, tt := range tests {
		f, err := ForkAt(ctx, fx, Options{}, ForkTarget{Seq: tt.seq})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.wantNodes, names(f)); diff != "" {
			t.Errorf("cycle %d: fork's nodes (-want +got):\n%s", tt.seq, diff)
		}
		got, err := f.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cycle.Outcome.Node != tt.wantNode || got.Cycle.Outcome.Node != f.Recorded.Outcome.Node || got.Cycle.Outcome.Message != f.Recorded.Outcome.Message {
			t.Errorf("cycle %d: fork re-ran to %q %q, recorded %q %q, want node %q", tt.seq, got.Cycle.Outcome.Node, got.Cycle.Outcome.Message, f.Recorded.Outcome.Node, f.Recorded.Outcome.Message, tt.wantNode)
		}
	}

	data := sizedNode("a", "8", "") + sizedNode("b", "2", "") +
		cpuPod("first", "500m", "") +
		deleteDoc("Node", "a") +
		"---\napiVersion: v1\nkind: Node\nmetadata: {name: b, labels: {kubernetes.io/hostname: b, disk: ssd}}\n" +
		cpuPod("second", "500m", "  nodeSelector: {disk: ssd}\n")
	fx, err := fixture.Load("changed.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	f, err := ForkAt(ctx, fx, Options{}, ForkTarget{Pod: "second"})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Nodes) != 1 || f.Nodes[0].Name != "b" || f.Nodes[0].Labels["disk"] != "ssd" {
		t.Errorf("fork of second: nodes %v, want b labelled disk=ssd", names(f))
	}
	got, err := f.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Cycle.Outcome.Node != "b" || f.Recorded.Outcome.Node != "b" {
		t.Errorf("second: fork re-ran to %q, recorded %q, want b", got.Cycle.Outcome.Node, f.Recorded.Outcome.Node)
	}
}

// TestBurstTimeline checks that a step divides a burst: the pods before it
// arrive and settle (on-n2 is Unschedulable: n2 does not exist yet), then
// the node is added and wakes on-n2, and only then does the next burst
// arrive.
func TestBurstTimeline(t *testing.T) {
	onN2 := "  nodeSelector: {kubernetes.io/hostname: n2}\n"
	data := sizedNode("n1", "8", "") +
		cpuPod("anywhere", "100m", "") +
		cpuPod("on-n2", "100m", onN2) +
		sizedNode("n2", "8", "") +
		cpuPod("next", "100m", onN2) +
		cpuPod("last", "100m", onN2)
	fx, err := fixture.Load("burst.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	_, cycles := runLoaded(t, fx, true)
	type cycle struct {
		Pod, Node string
		Nodes     int
	}
	var got []cycle
	for _, c := range cycles {
		got = append(got, cycle{c.Pod.Name, c.Outcome.Node, c.NumNodes()})
	}
	// The first burst's two pods may be taken in either order.
	if len(got) > 1 && got[0].Pod == "on-n2" {
		got[0], got[1] = got[1], got[0]
	}
	// The second burst's, next and last, in the queue's order.
	if len(got) == 5 && got[3].Pod == "last" {
		got[3], got[4] = got[4], got[3]
	}
	want := []cycle{{"anywhere", "n1", 1}, {"on-n2", "", 1}, {"on-n2", "n2", 2}, {"next", "n2", 2}, {"last", "n2", 2}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
}

// TestSettleCountsEveryResource checks that the scheduler's event handlers
// of the kinds a timeline changes are counted, so a run waits until they
// have handled a step's write.
func TestSettleCountsEveryResource(t *testing.T) {
	fx, err := fixture.Load("one.yaml", []byte(sizedNode("n1", "1", "")+cpuPod("p", "100m", "")))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e, err := New(ctx, fx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	counted := map[string]bool{}
	e.events.mu.Lock()
	for _, h := range e.events.handlers {
		counted[h.resource] = true
	}
	e.events.mu.Unlock()
	for _, r := range []string{"pods", "nodes", "persistentvolumes", "persistentvolumeclaims", "storageclasses.storage.k8s.io", "csinodes.storage.k8s.io"} {
		if !counted[r] {
			t.Errorf("the scheduler's %s handlers are not counted (counted: %v)", r, counted)
		}
	}
	n2 := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n2"}}
	if err := e.apply(fixture.Step{Op: fixture.StepCreate, Object: n2, Source: "test"}); err != nil {
		t.Fatal(err)
	}
	if !e.events.behind() && e.sched.Cache.NodeCount() < 2 {
		t.Error("a node was written and the scheduler has not seen it, yet no handler is behind")
	}
	if err := e.waitEvents(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if n := e.sched.Cache.NodeCount(); n != 2 {
		t.Errorf("the handlers caught up with the node write, and the scheduler's cache holds %d nodes, want 2", n)
	}
}
