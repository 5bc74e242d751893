package engine

import (
	"context"
	"fmt"
	"math"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
)

// Result is the state of the cluster after a run.
type Result struct {
	// Bindings maps namespace/name of each pending pod to its node ("" if unscheduled).
	Bindings map[string]string
	// Cycles counts recorded cycles.
	Cycles int
	// Stopped counts the pending pods that never arrived: the run stopped
	// once the story asked for was told (Options.Story).
	Stopped int
}

// Run starts the scheduler and feeds it the fixture's pending pods one at a time,
// each after the scheduler has settled on the previous one (and
// Options.ArrivalInterval has passed), so cycles follow the fixture's order.
// The fixture's steps (objects created, replaced or deleted) come between the
// pods in document order, each once the scheduler has settled on what came
// before. It returns once the last pod or step has settled, or, with
// Options.Story, once nothing left could change that story.
func (e *Engine) Run(ctx context.Context) (*Result, error) {
	return e.run(ctx, false)
}

// RunBurst creates every pending pod at once, as a scale-up does, and returns
// once the scheduler has settled on all of them. The queue orders them (by
// priority, then arrival), so cycles may not follow the fixture's order. A
// timeline's steps divide the pods into bursts: the pods between two steps
// arrive at once, the scheduler settles, the step is made and settles, and
// the next burst arrives.
func (e *Engine) RunBurst(ctx context.Context) (*Result, error) {
	return e.run(ctx, true)
}

func (e *Engine) run(ctx context.Context, burst bool) (*Result, error) {
	end, err := e.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer end()
	steps := e.fixture.Steps
	// applySteps makes the steps that come before the pending pod at index
	// next (all that are left when next is past the last pod), each on a
	// settled scheduler.
	applySteps := func(next int) error {
		for len(steps) > 0 && steps[0].After <= next {
			s := steps[0]
			steps = steps[1:]
			if err := e.waitSettled(ctx); err != nil {
				return fmt.Errorf("before %s: %w", s.Source, err)
			}
			e.flushPending("")
			if err := e.apply(s); err != nil {
				return err
			}
			if err := e.waitSettled(ctx); err != nil {
				return fmt.Errorf("after %s (%s): %w", s.Source, s, err)
			}
			e.flushPending("")
		}
		return nil
	}
	var story *storyCheck
	if e.opts.Story != nil && !burst {
		story = e.newStoryCheck()
	}
	stopped := 0
	for i, p := range e.fixture.Pending {
		if err := applySteps(i); err != nil {
			return nil, err
		}
		if i > 0 && !burst && e.opts.ArrivalInterval > 0 {
			if err := sleep(ctx, e.opts.ArrivalInterval); err != nil {
				return nil, err
			}
		}
		if err := e.arrive(ctx, p, !burst); err != nil {
			return nil, err
		}
		if story != nil && len(steps) == 0 && story.told(i) {
			stopped = len(e.fixture.Pending) - i - 1
			break
		}
	}
	if burst {
		if err := e.waitSettled(ctx); err != nil {
			return nil, fmt.Errorf("after %d pods arrived: %w", len(e.fixture.Pending), err)
		}
		e.flushPending("")
	}
	if err := applySteps(len(e.fixture.Pending)); err != nil {
		return nil, err
	}
	res := &Result{Bindings: map[string]string{}, Stopped: stopped}
	for _, p := range e.fixture.Pending {
		got, err := e.client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			res.Bindings[p.Namespace+"/"+p.Name] = ""
			continue
		}
		res.Bindings[p.Namespace+"/"+p.Name] = got.Spec.NodeName
	}
	e.mu.Lock()
	res.Cycles = e.emitted
	e.mu.Unlock()
	return res, nil
}

// storyCheck tells when the pods whose story is asked for (Options.Story)
// have come to a state that what is left of the run cannot change. With no
// timeline step left (the caller's part), that is once all of them have
// arrived and each is bound, and
//   - no pod still to arrive, nor one not yet bound, has a priority above
//     the lowest of theirs: only a pod of higher priority can preempt a
//     bound pod;
//   - no pod still to arrive has a controller at the top of its owners in
//     common with one of them: a controller given one pod more may delete
//     one of its others.
//
// The rest of the run could still bind, evict or retry other pods, but not
// touch these. A pod not yet bound could be requeued by any later event, so
// a story that has one is not told.
type storyCheck struct {
	e *Engine
	// asked are the pending pods asked for; last is the index of the last.
	asked []*v1.Pod
	last  int
	// laterMax[i] is the highest priority among the pending pods after i.
	laterMax []int32
	// lastOwned is, for the controller at the top of pending pods' owners,
	// the index of the last pending pod it owns.
	lastOwned map[types.UID]int
	// blocker is the unbound pod of higher priority found last: it is
	// looked at first next time, before every pod is.
	blocker types.NamespacedName
}

func (e *Engine) newStoryCheck() *storyCheck {
	pending := e.fixture.Pending
	c := &storyCheck{e: e, last: -1, laterMax: make([]int32, len(pending)), lastOwned: map[types.UID]int{}}
	for i, p := range pending {
		if e.opts.Story(p) {
			c.asked = append(c.asked, p)
			c.last = i
		}
		if r := e.rootOwner(p); r != "" {
			c.lastOwned[r] = i
		}
	}
	top := int32(math.MinInt32)
	for i := len(pending) - 1; i >= 0; i-- {
		c.laterMax[i] = top
		top = max(top, ptr.Deref(pending[i].Spec.Priority, 0))
	}
	return c
}

// told reports whether the story is told once the i-th pending pod has
// arrived and settled.
func (c *storyCheck) told(i int) bool {
	if c.last < 0 || i < c.last {
		return false
	}
	st := c.e.store
	pods := v1.SchemeGroupVersion.WithResource("pods")
	lowest := int32(math.MaxInt32)
	roots := map[types.UID]bool{}
	for _, a := range c.asked {
		o, err := st.stored(pods, a.Namespace, a.Name)
		if err != nil {
			return false // deleted: its story may go on elsewhere
		}
		p := o.(*v1.Pod)
		if p.Spec.NodeName == "" || p.DeletionTimestamp != nil {
			return false
		}
		lowest = min(lowest, ptr.Deref(p.Spec.Priority, 0))
		if r := c.e.rootOwner(p); r != "" {
			roots[r] = true
		}
	}
	if c.laterMax[i] > lowest {
		return false
	}
	for r := range roots {
		if c.lastOwned[r] > i {
			return false
		}
	}
	unboundAbove := func(o runtime.Object) bool {
		p, ok := o.(*v1.Pod)
		return ok && p.Spec.NodeName == "" && ptr.Deref(p.Spec.Priority, 0) > lowest
	}
	if o, err := st.stored(pods, c.blocker.Namespace, c.blocker.Name); err == nil && unboundAbove(o) {
		return false
	}
	found := false
	st.each(pods, func(o runtime.Object) bool {
		if unboundAbove(o) {
			p := o.(*v1.Pod)
			c.blocker, found = types.NamespacedName{Namespace: p.Namespace, Name: p.Name}, true
		}
		return !found
	})
	return !found
}

// rootOwner is the UID of the controller at the top of p's owners, as far
// as the cluster holds them (a ReplicaSet's Deployment); "" for a pod no
// controller owns.
func (e *Engine) rootOwner(p *v1.Pod) types.UID {
	var m metav1.Object = p
	root := types.UID("")
	for range 8 {
		ref := metav1.GetControllerOfNoCopy(m)
		if ref == nil {
			break
		}
		root = ref.UID
		gv, err := schema.ParseGroupVersion(ref.APIVersion)
		if err != nil {
			break
		}
		gvr, _ := meta.UnsafeGuessKindToResource(gv.WithKind(ref.Kind))
		o, err := e.store.stored(gvr, p.Namespace, ref.Name)
		if err != nil {
			break
		}
		if m, err = meta.Accessor(o); err != nil {
			break
		}
	}
	return root
}

// begin starts the scheduler, and the controllers beside it, and waits
// until they have settled on the objects present: a workload present from
// the start has made its pods, and they are scheduled, before a fixture's
// first pending pod arrives. end stops them.
func (e *Engine) begin(ctx context.Context) (end func(), err error) {
	ctx, cancel := context.WithCancel(ctx)
	podInformer := e.informers.Core().V1().Pods().Informer()
	reg, err := podInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj interface{}) {
			if p, ok := obj.(*v1.Pod); ok && p.Spec.NodeName != "" {
				e.settled(p.UID)
			}
		},
	})
	if err != nil {
		cancel()
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		e.sched.Run(ctx)
		close(done)
	}()
	end = func() {
		cancel()
		<-done
		if e.ctrls != nil {
			e.ctrls.Wait()
		}
		_ = podInformer.RemoveEventHandler(reg)
	}
	if e.ctrls != nil {
		e.ctrls.Run(controllerContext(ctx))
		if err := e.waitSettled(ctx); err != nil {
			end()
			return nil, fmt.Errorf("before the first pod: %w", err)
		}
		e.flushPending("")
	}
	return end, nil
}

// arrive creates pod as a client does and, with wait, waits until the
// scheduler has settled on it.
func (e *Engine) arrive(ctx context.Context, p *v1.Pod, wait bool) error {
	// The fake API server drops a watch whose buffer (100 events)
	// overflows; keep the scheduler no more than a few dozen events behind.
	if err := e.waitEvents(ctx, 50); err != nil {
		return err
	}
	if _, err := e.client.CoreV1().Pods(p.Namespace).Create(ctx, p.DeepCopy(), metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating pod %s/%s: %w", p.Namespace, p.Name, err)
	}
	if !wait {
		return nil
	}
	if err := e.waitSettled(ctx); err != nil {
		return fmt.Errorf("after pod %s/%s arrived: %w", p.Namespace, p.Name, err)
	}
	e.flushPending("")
	return nil
}

// sleep waits d on the wall clock, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
