package engine

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"

	v1 "k8s.io/api/core/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// How many more whole copies of a pod group fit: the group, its PodGroup
// and the members the fixture lists, copied k times (each copy a PodGroup
// of its own with the same policy and minCount, its members renamed to
// join it), the fixture run with the copies queued after its own pods, and
// the copies whose pod-group cycles bound counted. k doubles until a run
// leaves a copy unbound; that run's bound copies are the answer, each
// bound by a real pod-group cycle in it (a copy that failed holds nothing,
// its placements reverted; a copy of a Basic group counts when all its
// members bound). Nothing is computed by arithmetic.

// GroupCapacityResult says how many more copies of a pod group fit, as
// recorder's plain data.
type GroupCapacityResult = recorder.GroupCapacityResult

// maxGroupCapacityProbe bounds how many copies a search tries at once.
const maxGroupCapacityProbe = 256

// CapacityPodGroup finds how many more copies of group fit on fx's
// cluster, each confirmed bound by a pod-group cycle of a real run. opts
// are the runs' options; their callbacks are replaced. The process must
// run with GenericWorkload on, as fx was loaded.
func CapacityPodGroup(ctx context.Context, fx *fixture.Fixture, group recorder.PodGroupRef, opts Options) (*GroupCapacityResult, error) {
	if len(fx.Steps) > 0 {
		return nil, fmt.Errorf("%s: a timeline: capacity for a pod group runs a fixture without steps", fx.Name)
	}
	var pg *schedulingv1beta1.PodGroup
	for _, o := range fx.Objects {
		if g, ok := o.(*schedulingv1beta1.PodGroup); ok && g.Name == group.Name && namespaceOf(g.Namespace) == group.Namespace {
			pg = g
		}
	}
	if pg == nil {
		return nil, fmt.Errorf("%s: no PodGroup %s among the objects it starts with", fx.Name, group.Key())
	}
	var members []*v1.Pod
	for _, p := range fx.Pending {
		if inGroup(p, group) {
			members = append(members, p)
		}
	}
	res := &GroupCapacityResult{Group: group, Policy: recorder.PolicyBasic, Members: len(members), Runs: []int{}}
	if gang := pg.Spec.SchedulingPolicy.Gang; gang != nil {
		res.Policy, res.MinCount = recorder.PolicyGang, gang.MinCount
	}
	if len(members) == 0 {
		return nil, fmt.Errorf("%s: pod group %s has no member among the pods the fixture lists (capacity copies the members it lists, not those a controller makes)", fx.Name, group.Key())
	}
	if int(res.MinCount) > len(members) {
		return nil, fmt.Errorf("%s: pod group %s has %d member(s), fewer than its minCount %d: it never runs a pod-group cycle, nor would a copy", fx.Name, group.Key(), len(members), res.MinCount)
	}

	probe := func(k int) (*groupCapacityRun, error) {
		res.Runs = append(res.Runs, k)
		objs, copies := podGroupCopies(fx, pg, members, k)
		copied, err := fixture.New(fx.Name, objs)
		if err != nil {
			return nil, err
		}
		return runGroupCopies(ctx, copied, group, copies, opts)
	}

	run, err := probe(0)
	if err != nil {
		return nil, err
	}
	if !run.bound[group] {
		stoppedBy(res, run, group)
		return res, nil
	}
	res.Bound = true
	for k := 1; ; k *= 2 {
		if k > maxGroupCapacityProbe {
			res.Limit = maxGroupCapacityProbe
			return res, nil
		}
		if run, err = probe(k); err != nil {
			return nil, err
		}
		res.More, res.Copies = 0, nil
		var unbound *recorder.PodGroupRef
		for _, ref := range run.copies {
			if run.bound[ref] {
				res.More++
				res.Copies = append(res.Copies, ref.Name)
			} else if unbound == nil {
				unbound = &ref
			}
		}
		if unbound != nil || !run.bound[group] {
			if unbound == nil {
				unbound = &group // a copy took the original's place
			}
			stoppedBy(res, run, *unbound)
			return res, nil
		}
	}
}

// PodGroupCopies is fx's objects, its pending pods last, with k copies of
// pod group group made as capacity --pod-group makes them: each a PodGroup
// named NAME-copy-I with the group's spec, after fx's objects, and a copy
// of each member fx lists, named MEMBER-copy-I and joining it, after fx's
// pending pods. The objects are fx's as admitted.
func PodGroupCopies(fx *fixture.Fixture, group recorder.PodGroupRef, k int) ([]runtime.Object, error) {
	for _, o := range fx.Objects {
		if pg, ok := o.(*schedulingv1beta1.PodGroup); ok && pg.Name == group.Name && namespaceOf(pg.Namespace) == group.Namespace {
			var members []*v1.Pod
			for _, p := range fx.Pending {
				if inGroup(p, group) {
					members = append(members, p)
				}
			}
			objs, _ := podGroupCopies(fx, pg, members, k)
			return objs, nil
		}
	}
	return nil, fmt.Errorf("%s: no PodGroup %s among the objects it starts with", fx.Name, group.Key())
}

// podGroupCopies makes PodGroupCopies' objects, and names the copies.
func podGroupCopies(fx *fixture.Fixture, pg *schedulingv1beta1.PodGroup, members []*v1.Pod, k int) ([]runtime.Object, []recorder.PodGroupRef) {
	names := map[string]bool{}
	for _, o := range fx.Objects {
		if m, err := fixture.ObjectMeta(o); err == nil {
			names[fixture.KindName(o)+"/"+namespaceOf(m.Namespace)+"/"+m.Name] = true
		}
	}
	for _, p := range fx.Pending {
		names["Pod/"+namespaceOf(p.Namespace)+"/"+p.Name] = true
	}
	// copyName is the i-th copy's name of name, one no object of its kind
	// in the namespace has.
	copyName := func(kind, ns, name string, i int) string {
		base := name + "-copy-" + strconv.Itoa(i)
		out := base
		for j := 2; names[kind+"/"+namespaceOf(ns)+"/"+out]; j++ {
			out = base + "-" + strconv.Itoa(j)
		}
		return out
	}
	var objs []runtime.Object
	for _, o := range fx.Objects {
		objs = append(objs, o.DeepCopyObject())
	}
	var copies []recorder.PodGroupRef
	for i := 1; i <= k; i++ {
		c := pg.DeepCopy()
		c.Name, c.UID, c.ResourceVersion = copyName("PodGroup", pg.Namespace, pg.Name, i), "", ""
		objs = append(objs, c)
		copies = append(copies, recorder.PodGroupRef{Namespace: namespaceOf(pg.Namespace), Name: c.Name})
	}
	for _, p := range fx.Pending {
		objs = append(objs, p.DeepCopy())
	}
	for i, ref := range copies {
		for _, m := range members {
			c := m.DeepCopy()
			c.Name, c.UID, c.ResourceVersion = copyName("Pod", m.Namespace, m.Name, i+1), "", ""
			c.Spec.SchedulingGroup = &v1.PodSchedulingGroup{PodGroupName: &ref.Name}
			objs = append(objs, c)
		}
	}
	return objs, copies
}

// groupCapacityRun is what one run of a capacity search saw: which groups
// bound, each group's last pod-group cycle, and the run's cycles.
type groupCapacityRun struct {
	copies []recorder.PodGroupRef
	bound  map[recorder.PodGroupRef]bool
	last   map[recorder.PodGroupRef]*recorder.PodGroupCycle
	cycles []*recorder.Cycle
}

// runGroupCopies runs fx and notes the pod-group cycles of group and its
// copies.
func runGroupCopies(ctx context.Context, fx *fixture.Fixture, group recorder.PodGroupRef, copies []recorder.PodGroupRef, opts Options) (*groupCapacityRun, error) {
	run := &groupCapacityRun{copies: copies, bound: map[recorder.PodGroupRef]bool{}, last: map[recorder.PodGroupRef]*recorder.PodGroupCycle{}}
	var mu sync.Mutex
	opts.OnQueue, opts.OnDecided, opts.Gate = nil, nil, nil
	opts.OnCycle = func(c *recorder.Cycle) {
		mu.Lock()
		run.cycles = append(run.cycles, c)
		mu.Unlock()
	}
	opts.OnPodGroup = func(g *recorder.PodGroupCycle) {
		mu.Lock()
		defer mu.Unlock()
		if g.Group != group && !slices.Contains(copies, g.Group) {
			return
		}
		run.last[g.Group] = g
		if g.Outcome.Result == recorder.ResultBound {
			run.bound[g.Group] = true
		}
	}
	e, err := New(ctx, fx, opts)
	if err != nil {
		return nil, err
	}
	res, err := e.Run(ctx)
	if err != nil {
		return nil, err
	}
	mu.Lock()
	defer mu.Unlock()
	// A Basic group's cycles may bind some members and not others: it
	// fits when every member bound, whatever its cycles said.
	for ref, g := range run.last {
		if g.Policy != recorder.PolicyBasic {
			continue
		}
		run.bound[ref] = true
		for _, p := range fx.Pending {
			if inGroup(p, ref) && res.Bindings[namespaceOf(p.Namespace)+"/"+p.Name] == "" {
				run.bound[ref] = false
			}
		}
	}
	slices.SortFunc(run.cycles, func(a, b *recorder.Cycle) int { return a.Seq - b.Seq })
	return run, nil
}

// stoppedBy fills in res why ref, a group of run, did not bind: its last
// pod-group cycle's message, the first member that fit nowhere and the
// resources it was short of.
func stoppedBy(res *GroupCapacityResult, run *groupCapacityRun, ref recorder.PodGroupRef) {
	res.StoppedGroup = ref.Name
	g := run.last[ref]
	if g == nil {
		res.Stopped = "(no pod-group cycle)"
		return
	}
	res.Stopped = g.Outcome.Message
	short := recorder.RunShortfalls(run.cycles)
	for _, m := range g.Members {
		if m.Node != "" || m.Cycle == 0 {
			continue
		}
		res.Member, res.MemberMessage = m.Pod.Name, m.Message
		if s := short[m.Cycle]; s != nil {
			res.Short = s.Resources
		}
		return
	}
}

// inGroup reports whether p is a member of group.
func inGroup(p *v1.Pod, group recorder.PodGroupRef) bool {
	sg := p.Spec.SchedulingGroup
	return sg != nil && sg.PodGroupName != nil && *sg.PodGroupName == group.Name && namespaceOf(p.Namespace) == group.Namespace
}
