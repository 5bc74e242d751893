package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
)

// A Fork is the scheduler's state at the start of one recorded cycle: the
// nodes in the order the cluster created them, the pods placed on them
// (bound or assumed), the pods nominated to them by preemption, every other
// object the fixture holds as it stood then, the pod as it was queued, the
// profile and where the node search began. Run schedules the pod once more
// on a private copy of that state, so a what-if is a new cycle of the real
// scheduler, never a recomputation.
type Fork struct {
	// Recorded is the cycle as the run recorded it.
	Recorded *recorder.Cycle
	// Header describes the scheduler of the run.
	Header recorder.Header
	// Name names the fixture, for errors and the fork's own header.
	Name string

	Pod   *v1.Pod
	Nodes []*v1.Node
	// Placed are the pods on Nodes, spec.nodeName set.
	Placed []*v1.Pod
	// Nominated are pending pods nominated to a node by preemption; the
	// scheduler counts them on that node when it filters lower-priority pods.
	Nominated []*v1.Pod
	// Others are every other object (classes, volumes, claims, ...).
	Others []runtime.Object

	Config      *config.KubeSchedulerConfiguration
	Profile     string
	SearchStart int
	Diagnostic  DiagnosticMode

	// Note says how the fork's state relates to the cycle's, when it is not
	// the state the cycle saw (a live session forks from the cluster now).
	Note string

	// Changes lists, in words, what With changed.
	Changes []string
	// changedConfig is set when a change edited the scheduler's configuration.
	changedConfig bool
	// cluster is shared by forks that hold one cluster (nodes, placed and
	// nominated pods, other objects, configuration) and differ in their
	// pod only; nil until a pod-only change is made (see Runner).
	cluster *forkCluster
}

// forkCluster identifies one cluster that forks share, read-only.
type forkCluster struct{ _ byte }

// sharedCluster returns f's cluster identity, making one if f has none.
func (f *Fork) sharedCluster() *forkCluster {
	if f.cluster == nil {
		f.cluster = &forkCluster{}
	}
	return f.cluster
}

// withPod copies the fork for a change to its pod alone: the pod is copied,
// the cluster is shared (nothing changes it in place).
func (f *Fork) withPod() *Fork {
	g := *f
	g.Pod = f.Pod.DeepCopy()
	g.Changes = slices.Clone(f.Changes)
	g.cluster = f.sharedCluster()
	return &g
}

// ForkTarget names the cycle to fork at: the Seq-th cycle of the run, or,
// when Seq is 0, the first cycle of Pod (a name or namespace/name).
type ForkTarget struct {
	Pod string
	Seq int
	// Burst runs the fixture as RunBurst does (every pod at once) up to the
	// target; the default is Run's sequential arrival.
	Burst bool
	// Last, with Pod and no Seq, forks at the pod's last cycle of the whole
	// run instead of its first: where the pod stands at the end.
	Last bool
}

// ForkAt runs the fixture as Run does until the target cycle has finished and
// returns the state that cycle started from, with the cycle as recorded.
// Only one run of the fixture is made; it stops after the target cycle.
func ForkAt(ctx context.Context, fx *fixture.Fixture, opts Options, target ForkTarget) (*Fork, error) {
	limit := 1
	if target.Last && target.Seq == 0 {
		limit = -1
	}
	forks, err := forks(ctx, fx, opts, func(seq int, pod *v1.Pod) bool {
		if target.Seq > 0 {
			return seq == target.Seq
		}
		return matchesPod(pod, target.Pod)
	}, limit, target.Burst)
	if err != nil {
		return nil, err
	}
	if len(forks) == 0 {
		if target.Seq > 0 {
			return nil, fmt.Errorf("%s: there is no cycle %d: the run ended before it", fx.Name, target.Seq)
		}
		return nil, fmt.Errorf("%s: pod %q got no scheduling cycle%s; %s", fx.Name, target.Pod, didYouMeanPod(fx, target.Pod), podsOf(fx))
	}
	f := forks[0]
	if target.Seq > 0 && target.Pod != "" && !matchesPod(f.Pod, target.Pod) {
		return nil, fmt.Errorf("%s: cycle %d schedules pod %s/%s, not %q", fx.Name, target.Seq, f.Pod.Namespace, f.Pod.Name, target.Pod)
	}
	return f, nil
}

// ForkEvery runs the fixture and returns a fork at every cycle, in order.
func ForkEvery(ctx context.Context, fx *fixture.Fixture, opts Options) ([]*Fork, error) {
	return forks(ctx, fx, opts, func(int, *v1.Pod) bool { return true }, 0, false)
}

func matchesPod(p *v1.Pod, name string) bool {
	return p.Name == name || p.Namespace+"/"+p.Name == name
}

// didYouMeanPod names the pending pods a mistyped name may have meant.
func didYouMeanPod(fx *fixture.Fixture, name string) string {
	keys := make([]string, len(fx.Pending))
	for i, p := range fx.Pending {
		keys[i] = p.Namespace + "/" + p.Name
	}
	return input.DidYouMean(name, keys)
}

// podsOf lists the fixture's pending pods for an error message.
func podsOf(fx *fixture.Fixture) string {
	if len(fx.Pending) == 0 {
		return "the fixture has no pending pods"
	}
	var names []string
	for i, p := range fx.Pending {
		if i == 20 {
			names = append(names, fmt.Sprintf("and %d more", len(fx.Pending)-20))
			break
		}
		names = append(names, p.Namespace+"/"+p.Name)
	}
	return "its pending pods are " + strings.Join(names, ", ")
}

// forks runs fx and captures the state at the start of every cycle want
// accepts, stopping after limit captured cycles have finished (0: no limit;
// -1: no limit, and only the last capture is kept).
func forks(ctx context.Context, fx *fixture.Fixture, opts Options, want func(seq int, pod *v1.Pod) bool, limit int, burst bool) ([]*Fork, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		captured = map[int]*Fork{}
		order    []int
		finished int
	)
	onCycle := opts.OnCycle
	opts.OnCycle = func(c *recorder.Cycle) {
		if onCycle != nil {
			onCycle(c)
		}
		mu.Lock()
		defer mu.Unlock()
		if f := captured[c.Seq]; f != nil {
			f.Recorded = c
			finished++
			if limit > 0 && finished >= limit {
				cancel()
			}
		}
	}
	e, err := New(ctx, fx, opts)
	if err != nil {
		return nil, err
	}
	s := e.sched
	schedule := s.SchedulePod
	s.SchedulePod = func(ctx context.Context, fw framework.Framework, state fwk.CycleState, podInfo *framework.QueuedPodInfo) (scheduler.ScheduleResult, error) {
		e.trace.mu.Lock()
		seq := e.trace.seq + 1 // the number startCycle is about to give this cycle
		e.trace.mu.Unlock()
		mu.Lock()
		take := (limit <= 0 || len(order) < limit) && want(seq, podInfo.Pod)
		mu.Unlock()
		if take {
			f := e.capture(fw, podInfo.Pod)
			mu.Lock()
			if limit < 0 {
				// A capture is the whole cluster: keep one.
				clear(captured)
				order = order[:0]
			}
			captured[seq] = f
			order = append(order, seq)
			mu.Unlock()
		}
		return schedule(ctx, fw, state, podInfo)
	}
	run := e.Run
	if burst {
		run = e.RunBurst
	}
	_, runErr := run(ctx)
	mu.Lock()
	defer mu.Unlock()
	var out []*Fork
	for _, seq := range order {
		if f := captured[seq]; f.Recorded != nil {
			out = append(out, f)
		}
	}
	if runErr != nil && !(limit > 0 && finished >= limit && errors.Is(runErr, context.Canceled)) {
		return out, runErr
	}
	return out, nil
}

// capture copies what the cycle about to run for pod will see. It runs on the
// scheduling goroutine after the scheduler updated its snapshot.
func (e *Engine) capture(fw framework.Framework, pod *v1.Pod) *Fork {
	f := &Fork{
		Header:      e.header,
		Name:        e.fixture.Name,
		Pod:         pod.DeepCopy(),
		Config:      e.cfg.DeepCopy(),
		Profile:     fw.ProfileName(),
		SearchStart: *e.nextStart,
		Diagnostic:  e.opts.Diagnostic,
	}
	infos, _ := fw.SnapshotSharedLister().NodeInfos().List()
	inSnapshot := map[string]fwk.NodeInfo{}
	for _, ni := range infos {
		if n := ni.Node(); n != nil {
			inSnapshot[n.Name] = ni
		}
	}
	// Nodes go in the order they were created, so that the fork's node tree
	// (and so the search order) is the one the run had: the initial ones,
	// then those the timeline added so far (a node not in the snapshot was
	// deleted or not yet added).
	var order []string
	seen := map[string]bool{}
	for _, o := range e.fixture.ObjectsEver() {
		if n, ok := o.(*v1.Node); ok && inSnapshot[n.Name] != nil && !seen[n.Name] {
			order = append(order, n.Name)
			seen[n.Name] = true
		}
	}
	for _, ni := range infos {
		if n := ni.Node(); n != nil && !seen[n.Name] {
			order = append(order, n.Name)
			seen[n.Name] = true
		}
	}
	for _, name := range order {
		ni := inSnapshot[name]
		f.Nodes = append(f.Nodes, ni.Node().DeepCopy())
		for _, pi := range ni.GetPods() {
			// The pods are shared, not copied: no one writes an object
			// the scheduler's cache holds (a bound pod is the informer's
			// object, an assumed one the scheduler's own copy, replaced
			// when its binding arrives), and no fork writes its objects.
			// At cluster scale copies of the placed pods were most of
			// a what-if's memory.
			p := pi.GetPod()
			if p.Spec.NodeName != name {
				p = p.DeepCopy()
				p.Spec.NodeName = name
			}
			f.Placed = append(f.Placed, p)
		}
		for _, pi := range fw.NominatedPodsForNode(name) {
			p := pi.GetPod()
			if p.UID == pod.UID || p.Spec.NodeName != "" {
				continue
			}
			q := p.DeepCopy()
			q.Status.NominatedNodeName = name
			f.Nominated = append(f.Nominated, q)
		}
	}
	slices.SortStableFunc(f.Placed, compareKeys)
	tracker := e.store
	others := map[string]bool{}
	for _, o := range e.fixture.ObjectsEver() {
		switch o.(type) {
		case *v1.Node, *v1.Pod:
			continue
		}
		gvks, _, err := clientgoscheme.Scheme.ObjectKinds(o)
		m, merr := meta.Accessor(o)
		if err != nil || len(gvks) == 0 || merr != nil {
			continue
		}
		gvr, _ := meta.UnsafeGuessKindToResource(gvks[0])
		key := gvr.String() + "/" + m.GetNamespace() + "/" + m.GetName()
		if others[key] {
			continue // created again after a delete
		}
		cur, err := tracker.Get(gvr, m.GetNamespace(), m.GetName())
		if err != nil {
			continue // deleted by then, or not yet created
		}
		others[key] = true
		f.Others = append(f.Others, cur.DeepCopyObject())
	}
	// What the controllers made that the scheduler reads: the claims a
	// StatefulSet made, the volumes provisioned for claims.
	for _, resource := range []string{"persistentvolumeclaims", "persistentvolumes"} {
		gvr := v1.SchemeGroupVersion.WithResource(resource)
		for _, o := range e.listSorted(gvr) {
			m, err := meta.Accessor(o)
			if err != nil {
				continue
			}
			if key := gvr.String() + "/" + m.GetNamespace() + "/" + m.GetName(); !others[key] {
				others[key] = true
				f.Others = append(f.Others, o.DeepCopyObject())
			}
		}
	}
	return f
}

// compareKeys orders pods by their keys (keyOrder).
func compareKeys(a, b *v1.Pod) int {
	return keyOrder(a.Namespace, a.Name, b.Namespace, b.Name)
}

// heldGate keeps a nominated pod out of the fork's scheduling: the scheduler
// still counts its nomination (the queue records nominations of gated pods)
// but never runs a cycle for it.
const heldGate = "schedscope.io/what-if-held"

// RunResult is what a fork's run did.
type RunResult struct {
	// Cycle is the pod's first cycle on the fork: the what-if.
	Cycle *recorder.Cycle
	// Later are the pod's further cycles on the fork (after a preemption, the
	// retry that binds it to the nominated node).
	Later []*recorder.Cycle
	// Header describes the fork's scheduler.
	Header recorder.Header
}

// Run schedules the pod on a private copy of the fork's state and returns its
// cycles. The fork's scheduler filters with one goroutine from the recorded
// search start, so that a sampled search visits nodes in a fixed order: two
// runs of one fork, changed or not, always compare like for like.
func (f *Fork) Run(ctx context.Context) (*RunResult, error) {
	s, err := newForkScheduler(ctx, f)
	if err != nil {
		return nil, err
	}
	defer s.close()
	return s.run(ctx, f, false)
}

// Sampled reports whether the recorded cycle's search stopped before it had
// visited every node (percentageOfNodesToScore): such a sample depends on
// the timing of the scheduler's parallel filter, so a re-run may see another.
func (f *Fork) Sampled() bool {
	c := f.Recorded
	return c != nil && c.NodesToFind > 0 && c.NodesToFind < c.NumNodes()
}

// Reproducible reports whether a re-run of the unchanged fork gives the
// recorded cycle: its search visited every node, or the run it came from
// filtered with one goroutine, as a fork's re-run does, so that a sample
// did not depend on timing.
func (f *Fork) Reproducible() bool {
	return !f.Sampled() || (f.Config != nil && f.Config.Parallelism == 1)
}

// BaselineIsRerun reports whether a what-if on f compares with an
// unchanged re-run of the fork rather than with the recorded cycle: when a
// re-run may not give the recorded cycle (Reproducible), or the fork is
// not the state the cycle saw (Note: a live session's cluster has moved
// on). The CLI and the debugger both ask this.
func (f *Fork) BaselineIsRerun() bool {
	return !f.Reproducible() || f.Note != ""
}

// clone copies the fork for With to change it. The objects are shared, not
// copied: a change never edits a fork's object in place but puts a new one
// in its slot (patchNode, editNode, removeNode's nominated pods), so only
// the slices and the pod are copied. At cluster scale a deep copy was most
// of a change: 40 000 placed pods for a new weight.
func (f *Fork) clone() *Fork {
	g := *f
	g.Pod = f.Pod.DeepCopy()
	g.Nodes = slices.Clone(f.Nodes)
	g.Placed = slices.Clone(f.Placed)
	g.Nominated = slices.Clone(f.Nominated)
	g.Others = slices.Clone(f.Others)
	g.Config = f.Config.DeepCopy()
	g.Changes = slices.Clone(f.Changes)
	g.cluster = nil // a change may make it another
	return &g
}

// Objects are the fork's cluster as manifests a client could create, in
// order: every other object, the nodes, the placed pods (spec.nodeName set),
// then the pod, pending. Server-set metadata (uid, resourceVersion, creation
// time) is dropped. Nominated pods are left out: a nomination is status the
// scheduler writes, not something a client creates.
func (f *Fork) Objects() []runtime.Object {
	var out []runtime.Object
	strip := func(o runtime.Object) runtime.Object {
		o = o.DeepCopyObject()
		if m, err := meta.Accessor(o); err == nil {
			m.SetUID("")
			m.SetResourceVersion("")
			m.SetCreationTimestamp(metav1.Time{})
			m.SetManagedFields(nil)
		}
		return o
	}
	for _, o := range f.Others {
		// The API server creates the system priority classes itself.
		if m, err := meta.Accessor(o); err == nil && fixture.KindName(o) == "PriorityClass" && strings.HasPrefix(m.GetName(), "system-") {
			continue
		}
		out = append(out, strip(o))
	}
	for _, n := range f.Nodes {
		out = append(out, strip(n))
	}
	for _, p := range f.Placed {
		out = append(out, strip(p))
	}
	p := strip(f.Pod).(*v1.Pod)
	p.Status = v1.PodStatus{}
	out = append(out, p)
	return out
}
