package engine

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

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
// embedded fixture). A run that wrote anything but its own pod (a
// preemption's evictions, a provisioned volume) changed the cluster, and
// the next pod gets a new scheduler. Any other fork runs on its own, as
// Fork.Run does.
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

// Run runs g, on the shared scheduler when g holds the runner's cluster.
func (r *Runner) Run(ctx context.Context, g *Fork) (*RunResult, error) {
	if g.cluster != r.base.cluster {
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
	res, err := r.cur.run(ctx, g, true)
	if err != nil {
		// What the failed run left is unknown: start anew next time.
		r.cur.close()
		r.cur = nil
	}
	return res, err
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
		forked:     true,
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
	p := s.running
	s.mu.Unlock()
	if p == nil || resource != "pods" || action.GetNamespace() != p.Namespace || name != p.Name {
		s.dirty.Store(true)
	}
	return false, nil, nil
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
	if n := len(s.f.Nodes); n > 0 {
		*e.nextStart = s.f.SearchStart % n
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
