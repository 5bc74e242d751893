package engine

import (
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
