package engine

import (
	"slices"

	v1 "k8s.io/api/core/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

// A CompositePodGroup (CompositePodGroup gate, Alpha in v1.37.1, needing
// GenericWorkload and TopologyAwareWorkloadScheduling) is scheduled from the
// root of its hierarchy: the queue pops the root CompositePodGroup with
// every queued pod of every leaf PodGroup below it, and scheduleOnePodGroup
// runs podGroupSchedulingRecursiveAlgorithm over the tree: at each
// CompositePodGroup, PlacementGenerate over the nodes (its topology
// constraint), then for each placement PlacementFeasible on the children
// counted (GangScheduling: minGroupCount), each child in turn (a leaf
// PodGroup by the pod-group algorithm, its own placements and members),
// PlacementFeasible again after each; PlacementScore picks among the
// placements that succeeded, and the chosen subtree is assumed for the
// siblings after it. completeCompositePodGroupAlgorithmResultMap then gives
// a child that succeeded its failed parent's status, so no pod of a failed
// hierarchy binds; each leaf PodGroup gets its PodGroupInitiallyScheduled
// condition; the CompositePodGroup gets none (v1.37.1 writes no status on
// it). The engine records the hierarchy (recorder.HierarchyGroup), the
// verdicts given about each of its groups, and each leaf's condition.

// startHierarchy fills g, the cycle of the root pgi, when pgi is a
// CompositePodGroup: its hierarchy, and its members, leaf by leaf in the
// order the algorithm takes them.
func startHierarchy(pgi *framework.QueuedPodGroupInfo, g *recorder.PodGroupCycle, t *groupTrace) bool {
	if pgi.PodGroupInfo == nil || pgi.GetType() != fwk.CompositePodGroupKeyType {
		return false
	}
	var walk func(n *framework.PodGroupInfo, parent string, depth int)
	walk = func(n *framework.PodGroupInfo, parent string, depth int) {
		h := recorder.HierarchyGroup{Name: n.Name, Parent: parent, Depth: depth}
		if n.GetType() == fwk.CompositePodGroupKeyType {
			h.Kind = recorder.KindCompositePodGroup
			compositePolicy(n.CompositePodGroup, &h)
		} else {
			h.Kind = recorder.KindPodGroupKind
			leafPolicy(n.PodGroup, &h)
		}
		g.Hierarchy = append(g.Hierarchy, h)
		if h.Kind == recorder.KindPodGroupKind {
			for _, pi := range pgi.QueuedPodInfos[fwk.PodGroupKey(n.Namespace, n.Name)] {
				if pi == nil || pi.Pod == nil {
					continue
				}
				if g.Profile == "" {
					g.Profile = pi.Pod.Spec.SchedulerName
				}
				t.member[pi.Pod.Namespace+"/"+pi.Pod.Name] = len(g.Members)
				g.Members = append(g.Members, recorder.GroupMember{Pod: podRef(pi.Pod), PodGroup: n.Name})
			}
			return
		}
		for _, c := range n.GetChildGroups() {
			walk(c, n.Name, depth+1)
		}
	}
	walk(pgi.PodGroupInfo, "", 0)
	root := g.Hierarchy[0]
	g.Policy = root.Policy
	return true
}

// compositePolicy copies a CompositePodGroup's policy and topology into h.
func compositePolicy(cpg *schedulingv1alpha3.CompositePodGroup, h *recorder.HierarchyGroup) {
	if cpg == nil {
		return
	}
	switch p := cpg.Spec.SchedulingPolicy; {
	case p.Gang != nil:
		h.Policy, h.MinCount = recorder.PolicyGang, p.Gang.MinGroupCount
	case p.Basic != nil:
		h.Policy = recorder.PolicyBasic
	}
	if c := cpg.Spec.SchedulingConstraints; c != nil && len(c.Topology) > 0 {
		h.Topology = c.Topology[0].Key
	}
}

// leafPolicy copies a PodGroup's policy and topology into h.
func leafPolicy(pg *schedulingv1beta1.PodGroup, h *recorder.HierarchyGroup) {
	if pg == nil {
		return
	}
	switch p := pg.Spec.SchedulingPolicy; {
	case p.Gang != nil:
		h.Policy, h.MinCount = recorder.PolicyGang, p.Gang.MinCount
	case p.Basic != nil:
		h.Policy = recorder.PolicyBasic
	}
	if c := pg.Spec.SchedulingConstraints; c != nil && len(c.Topology) > 0 {
		h.Topology = c.Topology[0].Key
	}
}

// hierarchyVerdict records a PlacementFeasible verdict about group pgi of
// a composite cycle with that group. It reports whether the verdict is
// about a group below the root, which the cycle's own Feasible (the root's
// verdicts) leaves out.
func (e *Engine) hierarchyVerdict(pgi fwk.PodGroupInfo, progress framework.PlacementProgress, st *fwk.Status) bool {
	t := e.group.Load()
	if t == nil || pgi == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.inPostFilter || !t.g.Composite() {
		return false
	}
	kind := recorder.KindPodGroupKind
	if pgi.GetType() == fwk.CompositePodGroupKeyType {
		kind = recorder.KindCompositePodGroup
	}
	h := t.g.HierarchyGroupOf(kind, pgi.GetName())
	if h == nil {
		return false
	}
	h.Feasible = append(h.Feasible, recorder.PlacementVerdict{
		Scheduled: progress.Scheduled, Remaining: progress.Remaining,
		Code: st.Code().String(), Message: st.Message(),
	})
	return h.Depth > 0
}

// endHierarchy completes a finished composite cycle: each leaf's members
// counted and placed, and its condition as the API server holds it.
func (e *Engine) endHierarchy(g *recorder.PodGroupCycle) {
	for i := range g.Hierarchy {
		h := &g.Hierarchy[i]
		if h.Kind != recorder.KindPodGroupKind {
			continue
		}
		for _, m := range g.Members {
			if m.PodGroup == h.Name {
				h.Members++
				if m.Node != "" {
					h.Placed++
				}
			}
		}
		h.Condition = e.podGroupCondition(recorder.PodGroupRef{Namespace: g.Group.Namespace, Name: h.Name})
	}
}

// A composite cycle runs each member once per placement of every
// CompositePodGroup above it that is tried, each run a cycle trace of its
// own; the chosen placement's members are then assumed again, each
// member's Reserve handed the cycle state of its run there. That run is
// the member's cycle record: the group's member row (its cycle, what it
// saw assumed) is put back as that run left it, Reserve and what follows
// are recorded on its trace, and the member's other runs are not written
// (their node use carried and forgotten as with a PodGroup's placements).
// A member whose last run is followed by no Reserve (its group failed)
// keeps its last run.

// memberRun is one run of a composite cycle's member: its trace and the
// member's row as the run left it.
type memberRun struct {
	trace *cycleTrace
	row   recorder.GroupMember
}

// compositeRun records member pod's run (after memberEnded) in a composite
// cycle.
func (e *Engine) compositeRun(c *cycleTrace, pod *v1.Pod) {
	e.withMember(pod, func(t *groupTrace, i int) {
		if !t.g.Composite() || t.placements != nil {
			return
		}
		if t.runs == nil {
			t.runs, t.reserved = map[int][]memberRun{}, map[int]*cycleTrace{}
		}
		row := t.g.Members[i]
		row.Assumed = slices.Clone(row.Assumed)
		t.runs[i] = append(t.runs[i], memberRun{trace: c, row: row})
		delete(t.reserved, i)
	})
}

// compositeReserved points the recorder at member pod's run whose cycle
// state Reserve is handed, and puts the member's row back as that run left
// it, before Reserve is recorded.
func (e *Engine) compositeReserved(pod *v1.Pod, state fwk.CycleState) {
	t, i := e.groupMember(pod)
	if t == nil || state == nil {
		return
	}
	t.mu.Lock()
	if t.inPostFilter || t.runs == nil {
		t.mu.Unlock()
		return
	}
	runs := t.runs[i]
	k := slices.IndexFunc(runs, func(r memberRun) bool { return r.trace.state == state })
	if k < 0 {
		t.mu.Unlock()
		return
	}
	run := runs[k]
	t.reserved[i] = run.trace
	m := &t.g.Members[i]
	m.Cycle, m.Node, m.Code, m.Message, m.Assumed = run.row.Cycle, run.row.Node, run.row.Code, run.row.Message, slices.Clone(run.row.Assumed)
	discarded := t.unwritten()
	t.mu.Unlock()
	carryUnwritten(run.trace, discarded)
	e.trace.pointAt(pod, run.trace)
}

// unwritten are the traces of the members' runs that are not their cycle
// record: all but the one reserved after its last run, else the last.
func (t *groupTrace) unwritten() []*cycleTrace {
	var out []*cycleTrace
	for i, runs := range t.runs {
		kept := t.reserved[i]
		if kept == nil && len(runs) > 0 {
			kept = runs[len(runs)-1].trace
		}
		for _, r := range runs {
			if r.trace != kept {
				out = append(out, r.trace)
			}
		}
	}
	return out
}

// finishRuns makes the next cycle record again the nodes whose last use
// came from a composite member's run that is not written, under t's lock.
func (t *groupTrace) finishRuns(r *traceState) {
	if t.runs != nil {
		r.forgetUnwritten(t.unwritten())
	}
}
