package engine

import (
	"cmp"
	"maps"
	"slices"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// A group that failed though pods are running where its members would go
// is offered the pods to evict: the fewest running pods whose requests,
// once freed, make room for the members the gang needs (the lower priority
// first among sets as small). When the members outrank those pods, the
// group's own PostFilter preempts them and the group binds on its retry,
// so a group that still fails is one whose members cannot preempt them
// (an equal or higher priority, a preemption policy of Never): the
// suggestion names each victim, its priority and whether the members
// could have preempted it. Only pods the fixture places (spec.nodeName)
// are evicted, as whatif --evict takes them; a DaemonSet's pods come back
// and are left alone. The plan is worked out on the numbers the group's
// cycle recorded (what each node had allocatable and requested as the
// first member saw it), on the nodes that each member's Filter rejected
// for resources alone or not at all; the re-run confirms it.

// GroupVictim is a running pod a suggestion evicts, as recorder's plain
// data.
type GroupVictim = recorder.GroupVictim

// victimCandidates is the eviction that makes room for the gang's members
// in g (the failed cycle; cycles are the run's, any order), or none when no
// eviction of placed pods does.
func victimCandidates(fx *fixture.Fixture, g *recorder.PodGroupCycle, cycles []*recorder.Cycle) []groupCandidate {
	cycles = slices.Clone(cycles)
	slices.SortFunc(cycles, func(a, b *recorder.Cycle) int { return a.Seq - b.Seq })
	index := map[int]int{}
	for i, c := range cycles {
		index[c.Seq] = i
	}
	var ran []*recorder.Cycle
	for _, m := range g.Members {
		if i, ok := index[m.Cycle]; ok {
			ran = append(ran, cycles[i])
		}
	}
	if len(ran) == 0 {
		return nil
	}
	first := ran[0]
	if first.Nodes == nil || len(first.Nodes.Info) != len(first.Nodes.Names) {
		return nil
	}
	for _, c := range ran {
		if c.Filter == nil {
			return nil // a member stopped before Filter: no node is a matter of room
		}
	}
	use := recorder.UsageAt(cycles, index[first.Seq])

	// The members, in the order the cycle took them, then the others.
	var members []*v1.Pod
	seen := map[string]bool{}
	add := func(p *v1.Pod) {
		if key := namespaceOf(p.Namespace) + "/" + p.Name; !seen[key] {
			seen[key] = true
			members = append(members, p)
		}
	}
	for _, m := range g.Members {
		if i := slices.IndexFunc(fx.Pending, func(p *v1.Pod) bool {
			return p.Name == m.Pod.Name && namespaceOf(p.Namespace) == m.Pod.Namespace
		}); i >= 0 {
			add(fx.Pending[i])
		}
	}
	for _, p := range fx.Pending {
		if inGroup(p, g.Group) {
			add(p)
		}
	}
	need := len(members)
	if g.Policy == recorder.PolicyGang && int(g.MinCount) < need {
		need = int(g.MinCount)
	}
	if need == 0 {
		return nil
	}
	preempts := len(members) > 0 && preemptsLower(fx, members[0])

	// The pods a user can evict: those the fixture places.
	placed := map[string]*v1.Pod{}
	for _, o := range fx.Objects {
		if p, ok := o.(*v1.Pod); ok && p.Spec.NodeName != "" && !ownedByDaemonSet(p) {
			placed[namespaceOf(p.Namespace)+"/"+p.Name] = p
		}
	}

	var nodes []*victimNode
	for n, name := range first.Nodes.Names {
		ok := true
		for _, c := range ran {
			if c.Nodes == nil {
				ok = false
				break
			}
			i := slices.Index(c.Nodes.Names, name)
			if i < 0 || rejectedIn(c, i) && !onlyResourceFit(c, i) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		nu, _ := use.Node(name)
		nd := &victimNode{name: name, free: map[string]int64{}}
		for r, q := range first.Nodes.Info[n].Allocatable {
			nd.free[r] = q - nu.Requested[r]
		}
		nd.free[recorder.ResourcePods] = first.Nodes.Info[n].Allocatable[recorder.ResourcePods] - int64(len(nu.Pods))
		for _, ref := range nu.Pods {
			p := placed[ref.Key()]
			if p == nil {
				continue
			}
			nd.victims = append(nd.victims, victimPod{
				GroupVictim: GroupVictim{Pod: ref.Key(), Node: name, Priority: ref.Priority, Preemptible: preempts && ref.Priority < first.Pod.Priority},
				req:         requestsOf(p),
			})
		}
		nodes = append(nodes, nd)
	}

	fits := func(free, req map[string]int64) bool {
		for r, q := range req {
			if q > 0 && free[r] < q {
				return false
			}
		}
		return true
	}
	// cheapest picks the victims on nd that make room for req: greedily the
	// one that covers most of what is short (the lower priority, then the
	// name, among equals), then gives back any the others make needless,
	// the highest priority first.
	cheapest := func(nd *victimNode, req map[string]int64) ([]victimPod, bool) {
		free := maps.Clone(nd.free)
		left := slices.Clone(nd.victims)
		var chosen []victimPod
		for !fits(free, req) {
			best, gain := -1, 0.0
			for i, v := range left {
				k := 0.0
				for r, q := range req {
					if short := q - free[r]; short > 0 {
						k += float64(min(v.req[r], short)) / float64(q)
					}
				}
				if k > gain || k == gain && best >= 0 && k > 0 && (v.Priority < left[best].Priority || v.Priority == left[best].Priority && v.Pod < left[best].Pod) {
					best, gain = i, k
				}
			}
			if best < 0 {
				return nil, false
			}
			v := left[best]
			left = slices.Delete(left, best, best+1)
			chosen = append(chosen, v)
			for r, q := range v.req {
				free[r] += q
			}
		}
		slices.SortStableFunc(chosen, func(a, b victimPod) int { return cmp.Compare(b.Priority, a.Priority) })
		for i := 0; i < len(chosen); {
			v := chosen[i]
			for r, q := range v.req {
				free[r] -= q
			}
			if fits(free, req) {
				chosen = slices.Delete(chosen, i, i+1)
				continue
			}
			for r, q := range v.req {
				free[r] += q
			}
			i++
		}
		return chosen, true
	}

	var evicted []GroupVictim
	for _, m := range members[:need] {
		req := requestsOf(m)
		// Where it fits already, the node with most cpu free (as the
		// default scoring spreads); else the node that asks fewest victims.
		var at *victimNode
		for _, nd := range nodes {
			if fits(nd.free, req) && (at == nil || nd.free[string(v1.ResourceCPU)] > at.free[string(v1.ResourceCPU)]) {
				at = nd
			}
		}
		if at == nil {
			var best []victimPod
			for _, nd := range nodes {
				vs, ok := cheapest(nd, req)
				if !ok {
					continue
				}
				if at == nil || len(vs) < len(best) || len(vs) == len(best) && maxPriority(vs) < maxPriority(best) {
					at, best = nd, vs
				}
			}
			if at == nil {
				return nil
			}
			for _, v := range best {
				evicted = append(evicted, v.GroupVictim)
				for r, q := range v.req {
					at.free[r] += q
				}
				at.victims = slices.DeleteFunc(at.victims, func(w victimPod) bool { return w.Pod == v.Pod })
			}
		}
		for r, q := range req {
			at.free[r] -= q
		}
	}
	if len(evicted) == 0 {
		return nil
	}
	slices.SortFunc(evicted, func(a, b GroupVictim) int { return cmp.Compare(a.Pod, b.Pod) })
	gone := map[string]bool{}
	for _, v := range evicted {
		gone[v.Pod] = true
	}
	return []groupCandidate{{
		GroupSuggestion: GroupSuggestion{Kind: GroupChangeEvict, Victims: evicted, Cost: 2},
		apply: func(fx *fixture.Fixture) (*fixture.Fixture, error) {
			var objs []runtime.Object
			for _, o := range fx.Objects {
				if p, ok := o.(*v1.Pod); ok && gone[namespaceOf(p.Namespace)+"/"+p.Name] {
					continue
				}
				objs = append(objs, o.DeepCopyObject())
			}
			for _, p := range fx.Pending {
				objs = append(objs, p.DeepCopy())
			}
			return fixture.New(fx.Name, objs)
		},
	}}
}

// requestsOf is what p requests as NodeResourcesFit's Filter counts it, in
// the units of the recorded allocatable (cpu in millicores), and one pod.
func requestsOf(p *v1.Pod) map[string]int64 {
	out := map[string]int64{recorder.ResourcePods: 1}
	for r, q := range resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{}) {
		if r == v1.ResourceCPU {
			out[string(r)] = q.MilliValue()
		} else {
			out[string(r)] = q.Value()
		}
	}
	return out
}

// rejectedIn reports whether a filter rejected node n in c.
func rejectedIn(c *recorder.Cycle, n int) bool {
	return slices.ContainsFunc(c.Filter.Rejected, func(r recorder.NodeStatus) bool { return r.Node == n })
}

// preemptsLower reports whether pod may preempt pods of lower priority:
// its preemption policy, or its priority class's, is not Never.
func preemptsLower(fx *fixture.Fixture, pod *v1.Pod) bool {
	if pol := pod.Spec.PreemptionPolicy; pol != nil {
		return *pol != v1.PreemptNever
	}
	for _, o := range fx.Objects {
		if pc, ok := o.(*schedulingv1.PriorityClass); ok && pc.Name == pod.Spec.PriorityClassName && pc.PreemptionPolicy != nil {
			return *pc.PreemptionPolicy != v1.PreemptNever
		}
	}
	return true
}

// ownedByDaemonSet reports whether a DaemonSet controls p (evicted, it
// would be put back).
func ownedByDaemonSet(p *v1.Pod) bool {
	return slices.ContainsFunc(p.OwnerReferences, func(o metav1.OwnerReference) bool { return o.Kind == "DaemonSet" })
}

// victimPod is a pod that could make room on a node, with its requests.
type victimPod struct {
	GroupVictim
	req map[string]int64
}

// victimNode is a node the members could use but for room: what it has free
// and the pods that could make more.
type victimNode struct {
	name    string
	free    map[string]int64
	victims []victimPod
}

// maxPriority is the highest priority among vs.
func maxPriority(vs []victimPod) int32 {
	var m int32
	for i, v := range vs {
		if i == 0 || v.Priority > m {
			m = v.Priority
		}
	}
	return m
}
