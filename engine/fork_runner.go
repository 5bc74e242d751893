package engine

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/component-helpers/node/topology"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// A Runner re-runs forks of one cluster. A fork whose changes touched the
// pod alone (With of PatchPod, ReplacePod, EditPod) holds the cluster of
// the fork it came from, so the runner schedules it on one scheduler built
// once over that cluster: at cluster scale, building the scheduler, its
// informers and its cache is nearly all of a fork's run. Between two pods
// the runner deletes the one it ran and waits until the scheduler has
// settled, which leaves the scheduler as a new one over the same cluster
// would be (the test TestRunnerMatchesFreshRuns compares the two on every
// embedded fixture).
//
// A fork whose changes edited nodes in place (PatchNode, EditNode, in the
// same zone) or added nodes after the others (CopyNode, AddNode) runs there
// too: the runner writes those nodes through the in-memory API server as
// a cluster's nodes change, runs the pod, and writes them back (the edited
// ones as they were, the added ones deleted), each time waiting until the
// scheduler has settled. The node tree keeps its order through both: an
// edit in one zone leaves a node where it was, and an added node is taken
// only when its name puts it after the others of its zone (where a new
// scheduler, listing nodes by name, puts it too, and where the running one
// appends it); it is taken out again after the run.
//
// A run that wrote anything but its own pod (a preemption's evictions, a
// provisioned volume) changed the cluster, and the next pod gets a new
// scheduler. Any other fork (a removed node, an evicted pod, another
// configuration) runs on its own, as Fork.Run does.
type Runner struct {
	base *Fork
	cur  *forkScheduler
}

// NewRunner returns a runner for forks of f's cluster; it builds nothing
// until the first run.
func (f *Fork) NewRunner() *Runner {
	f.sharedCluster()
	return &Runner{base: f}
}

// Run runs g, on the shared scheduler when g holds the runner's cluster or
// one that differs from it by nodes the runner can write and write back.
func (r *Runner) Run(ctx context.Context, g *Fork) (*RunResult, error) {
	d, ok := r.delta(g)
	if !ok {
		return g.Run(ctx)
	}
	if r.cur != nil && r.cur.dirty.Load() {
		r.cur.close()
		r.cur = nil
	}
	if r.cur == nil {
		s, err := newForkScheduler(ctx, r.base)
		if err != nil {
			return nil, err
		}
		r.cur = s
	}
	res, err := r.cur.runChanged(ctx, g, d)
	if err != nil {
		// What the failed run left is unknown: start anew next time.
		r.cur.close()
		r.cur = nil
	}
	return res, err
}

// Takes reports whether Run runs g on the runner's shared scheduler;
// otherwise g gets a scheduler of its own, which a caller may build while
// the runner runs something else (Fork.Run).
func (r *Runner) Takes(g *Fork) bool {
	_, ok := r.delta(g)
	return ok
}

// nodeDelta is how a fork's nodes differ from the runner's cluster: nodes
// edited in place (base and changed, in order) and nodes added after the
// others.
type nodeDelta struct {
	was, now []*v1.Node
	added    []*v1.Node
}

// delta reports how g's cluster differs from the runner's, and whether
// the runner can make that difference through the API server and undo it:
// the same placed and nominated pods, other objects and configuration (the
// very objects: With shares what it did not change), and nodes that are
// the runner's own, edited without moving zone, then perhaps added ones.
func (r *Runner) delta(g *Fork) (nodeDelta, bool) {
	b := r.base
	var d nodeDelta
	if g.cluster != nil && g.cluster == b.cluster {
		return d, true
	}
	same := func(x, y []*v1.Pod) bool {
		return len(x) == len(y) && slices.EqualFunc(x, y, func(p, q *v1.Pod) bool { return p == q })
	}
	if g.Profile != b.Profile || g.SearchStart != b.SearchStart || !same(g.Placed, b.Placed) || !same(g.Nominated, b.Nominated) ||
		len(g.Others) != len(b.Others) || len(g.Nodes) < len(b.Nodes) || !reflect.DeepEqual(g.Config, b.Config) {
		return d, false
	}
	for i, o := range g.Others {
		if o != b.Others[i] {
			return d, false
		}
	}
	for i, n := range b.Nodes {
		m := g.Nodes[i]
		if m == n {
			continue
		}
		if m.Name != n.Name || topology.GetZoneKey(m) != topology.GetZoneKey(n) || !equality.Semantic.DeepEqual(m.Status.Images, n.Status.Images) {
			return d, false
		}
		d.was, d.now = append(d.was, n), append(d.now, m)
	}
	// An added node must take the place in the node tree that a new
	// scheduler, listing nodes by name, gives it: after every node of its
	// zone, and, in a zone of its own, after every node. It must list no
	// images, nor may an edit change a node's: the cache counts the nodes
	// holding an image into a node's snapshot only when that node changes,
	// so a node added and taken away again leaves others counting it.
	last, lastIn := "", map[string]string{}
	for _, n := range b.Nodes {
		z := topology.GetZoneKey(n)
		last, lastIn[z] = max(last, n.Name), max(lastIn[z], n.Name)
	}
	for _, a := range g.Nodes[len(b.Nodes):] {
		z := topology.GetZoneKey(a)
		l, ok := lastIn[z]
		if !ok {
			l = last
		}
		if a.Name <= l || len(a.Status.Images) > 0 {
			return d, false
		}
		last, lastIn[z] = max(last, a.Name), a.Name
		d.added = append(d.added, a)
	}
	return d, true
}

// Close stops the runner's scheduler.
func (r *Runner) Close() {
	if r.cur != nil {
		r.cur.close()
		r.cur = nil
	}
}

// forkScheduler is a scheduler over a fork's cluster that runs one pod at a
// time.
type forkScheduler struct {
	f      *Fork
	e      *Engine
	cancel context.CancelFunc
	end    func()

	mu     sync.Mutex
	cycles []*recorder.Cycle
	// running is the pod being run; a write to anything else makes the
	// cluster another than the fork's.
	running *v1.Pod
	dirty   atomic.Bool
	// changing is set while the runner writes a fork's nodes and writes
	// them back: those writes are its own, not the run's.
	changing bool
}

// newForkScheduler builds and starts a scheduler over f's cluster, with
// no pod to schedule yet.
func newForkScheduler(ctx context.Context, f *Fork) (*forkScheduler, error) {
	objs := make([]runtime.Object, 0, len(f.Others)+len(f.Nodes)+len(f.Placed)+len(f.Nominated))
	// The in-memory API server stores the fork's objects as they are
	// (nothing changes a fork's objects; a changed fork holds new ones).
	objs = append(objs, f.Others...)
	for _, n := range f.Nodes {
		objs = append(objs, n)
	}
	for _, p := range f.Placed {
		objs = append(objs, p)
	}
	for _, p := range f.Nominated {
		q := p.DeepCopy()
		q.Spec.SchedulingGates = append(q.Spec.SchedulingGates, v1.PodSchedulingGate{Name: heldGate})
		objs = append(objs, q)
	}
	// The pod is listed as the fixture's pending pod so that the run has
	// room for it; it is created by run, not by the engine's Run.
	fx := &fixture.Fixture{Name: f.Name + " (what-if)", Objects: objs, Pending: []*v1.Pod{f.Pod}}
	cfg := f.Config.DeepCopy()
	cfg.Parallelism = 1
	s := &forkScheduler{f: f}
	ctx, s.cancel = context.WithCancel(ctx)
	e, err := New(ctx, fx, Options{
		Config:     cfg,
		ConfigPath: f.Header.Source.Config,
		Diagnostic: f.Diagnostic,
		// The run's gates: the fork is refused in a process that has
		// others (the recorded header has none when all were default).
		FeatureGates: nonNil(f.Header.FeatureGates),
		forked:       true,
		OnCycle: func(c *recorder.Cycle) {
			s.mu.Lock()
			s.cycles = append(s.cycles, c)
			s.mu.Unlock()
		},
	})
	if err != nil {
		s.cancel()
		return nil, err
	}
	s.e = e
	if f.Recorded != nil && f.Recorded.Score != nil && len(f.Recorded.Score.Nodes) > 1 {
		sc := f.Recorded.Score
		e.trace.scoreOrder = make(map[string]int, len(sc.Nodes))
		for i, n := range sc.Nodes {
			e.trace.scoreOrder[f.Recorded.NodeName(n)] = i
		}
	}
	e.client.PrependReactor("*", "*", s.watchWrites)
	if s.end, err = e.begin(ctx); err != nil {
		s.cancel()
		return nil, err
	}
	return s, nil
}

// watchWrites marks the cluster changed by a write to anything but the
// running pod (its binding and status included). It handles nothing.
func (s *forkScheduler) watchWrites(action clienttesting.Action) (bool, runtime.Object, error) {
	verb, resource := action.GetVerb(), action.GetResource().Resource
	if verb != "create" && verb != "update" && verb != "patch" && verb != "delete" || resource == "events" {
		return false, nil, nil
	}
	name := ""
	switch a := action.(type) {
	case clienttesting.CreateAction:
		if m, err := metaOf(a.GetObject()); err == nil {
			name = m.GetName()
		}
	case clienttesting.UpdateAction:
		if m, err := metaOf(a.GetObject()); err == nil {
			name = m.GetName()
		}
	case clienttesting.PatchAction:
		name = a.GetName()
	case clienttesting.DeleteAction:
		name = a.GetName()
	}
	s.mu.Lock()
	p, changing := s.running, s.changing
	s.mu.Unlock()
	if changing {
		return false, nil, nil
	}
	if p == nil || resource != "pods" || action.GetNamespace() != p.Namespace || name != p.Name {
		s.dirty.Store(true)
	}
	return false, nil, nil
}

// runChanged writes d's nodes, runs g's pod as run does with again, and
// writes the nodes back, leaving the cluster the runner's again. A run
// that wrote anything but its pod leaves the scheduler dirty, and its
// nodes are not written back: the scheduler is not used again.
func (s *forkScheduler) runChanged(ctx context.Context, g *Fork, d nodeDelta) (*RunResult, error) {
	if len(d.now)+len(d.added) == 0 {
		return s.run(ctx, g, true)
	}
	nodes := s.e.client.CoreV1().Nodes()
	if err := s.writeNodes(ctx, func() error {
		for _, n := range d.now {
			if _, err := nodes.Update(ctx, unversioned(n), metav1.UpdateOptions{}); err != nil {
				return err
			}
		}
		for _, n := range d.added {
			if _, err := nodes.Create(ctx, unversioned(n), metav1.CreateOptions{}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("writing the fork's nodes: %w", err)
	}
	res, err := s.run(ctx, g, true)
	if err != nil || s.dirty.Load() {
		return res, err
	}
	if err := s.writeNodes(ctx, func() error {
		for _, n := range d.was {
			if _, err := nodes.Update(ctx, unversioned(n), metav1.UpdateOptions{}); err != nil {
				return err
			}
		}
		zero := int64(0)
		for _, n := range d.added {
			if err := nodes.Delete(ctx, n.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("writing the nodes back: %w", err)
	}
	return res, nil
}

// writeNodes makes the runner's own writes and waits until the scheduler
// has settled on them.
func (s *forkScheduler) writeNodes(ctx context.Context, write func() error) error {
	s.mu.Lock()
	s.changing = true
	s.mu.Unlock()
	err := write()
	s.mu.Lock()
	s.changing = false
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.e.waitSettled(ctx)
}

// unversioned is a copy of n to write whatever version is stored (forks
// share their objects: the write's new version goes on the copy).
func unversioned(n *v1.Node) *v1.Node {
	c := n.DeepCopy()
	c.ResourceVersion = ""
	return c
}

// run schedules g's pod and, with again, then deletes it and waits until
// the scheduler has settled, ready for another pod.
func (s *forkScheduler) run(ctx context.Context, g *Fork, again bool) (*RunResult, error) {
	e := s.e
	pod := g.Pod.DeepCopy()
	pod.Spec.NodeName = ""
	pod.ResourceVersion = ""
	// Each pod's run starts as a new scheduler's would: its cycles are
	// numbered from 1, the node search starts where the recorded cycle's
	// did, and the diagnostic pass is the fork's.
	e.trace.mu.Lock()
	e.trace.seq = 0
	e.trace.mu.Unlock()
	if n := len(g.Nodes); n > 0 {
		*e.nextStart = g.SearchStart % n
	}
	e.opts.Diagnostic = g.Diagnostic
	s.mu.Lock()
	s.cycles, s.running = nil, pod
	s.mu.Unlock()
	if err := e.arrive(ctx, pod, true); err != nil {
		return nil, err
	}
	s.mu.Lock()
	cycles := slices.Clone(s.cycles)
	s.mu.Unlock()
	res, err := runResult(e, pod, cycles)
	if err != nil || !again {
		return res, err
	}
	zero := int64(0)
	if err := e.client.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		return nil, fmt.Errorf("removing pod %s/%s after its run: %w", pod.Namespace, pod.Name, err)
	}
	if err := e.waitSettled(ctx); err != nil {
		return nil, fmt.Errorf("after removing pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	e.flushPending("")
	e.mu.Lock()
	delete(e.timeOnly, pod.UID)
	delete(e.nominated, pod.UID)
	delete(e.inFlight, pod.UID)
	e.mu.Unlock()
	s.mu.Lock()
	s.running = nil
	s.mu.Unlock()
	return res, nil
}

func (s *forkScheduler) close() {
	s.end()
	s.cancel()
}

// runResult picks pod's cycles out of a run's, in order.
func runResult(e *Engine, pod *v1.Pod, cycles []*recorder.Cycle) (*RunResult, error) {
	slices.SortFunc(cycles, func(a, b *recorder.Cycle) int { return a.Seq - b.Seq })
	res := &RunResult{Header: e.Header()}
	for _, c := range cycles {
		if c.Pod.UID != string(pod.UID) {
			continue
		}
		if res.Cycle == nil {
			res.Cycle = c
		} else {
			res.Later = append(res.Later, c)
		}
	}
	if res.Cycle == nil {
		return nil, fmt.Errorf("the fork of %s/%s ran no cycle for it", pod.Namespace, pod.Name)
	}
	return res, nil
}
