package recorder

// Composite pod groups (scheduling.k8s.io/v1alpha3 CompositePodGroup, the
// CompositePodGroup feature gate, Alpha in v1.37.1) are gangs of gangs: a
// CompositePodGroup's children are PodGroups (whose pods name them) or
// other CompositePodGroups, and kube-scheduler schedules the whole
// hierarchy from its root in one pod-group cycle. The cycle's Group is
// then the root CompositePodGroup, its Members the queued pods of every
// leaf PodGroup below it (each naming its PodGroup), and Hierarchy the
// groups of the tree with what the cycle made of each. These fields were
// added to schema version 2 without changing the version: a reader that
// does not know them ignores them.

// Group kinds in a pod-group hierarchy, as scheduling.k8s.io names them.
const (
	KindCompositePodGroup = "CompositePodGroup"
	KindPodGroupKind      = "PodGroup"
)

// HierarchyGroup is one group of a composite pod-group cycle's hierarchy,
// in the order the cycle walks it (a group before its children, children
// in the scheduler's order).
type HierarchyGroup struct {
	// Kind is KindCompositePodGroup or KindPodGroupKind.
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Parent is the CompositePodGroup this group belongs to; empty for
	// the root.
	Parent string `json:"parent,omitempty"`
	// Depth is 0 for the root, 1 for its children, and so on.
	Depth int `json:"depth"`
	// Policy is PolicyGang or PolicyBasic. MinCount is a gang's minimum:
	// minCount (members) for a PodGroup, minGroupCount (children that must
	// be schedulable) for a CompositePodGroup.
	Policy   string `json:"policy,omitempty"`
	MinCount int32  `json:"minCount,omitempty"`
	// Topology is the node label key of the group's topology constraint
	// (all its pods in one domain of it), when it has one.
	Topology string `json:"topology,omitempty"`
	// Feasible lists PlacementFeasible's verdicts about this group, in the
	// order they were asked (for a CompositePodGroup, Scheduled and
	// Remaining count children, not pods; with several placements, each
	// placement's verdicts follow the one before).
	Feasible []PlacementVerdict `json:"placementFeasible,omitempty"`
	// Members counts a PodGroup's members in the cycle; Placed those the
	// cycle placed tentatively.
	Members int `json:"members,omitempty"`
	Placed  int `json:"placed,omitempty"`
	// Condition is a PodGroup's PodGroupInitiallyScheduled condition after
	// the cycle, as the API server holds it. kube-scheduler v1.37.1 writes
	// no condition on a CompositePodGroup: nil for those.
	Condition *GroupCondition `json:"condition,omitempty"`
}

// Composite reports whether the cycle scheduled a CompositePodGroup's
// hierarchy.
func (g *PodGroupCycle) Composite() bool { return len(g.Hierarchy) > 0 }

// HierarchyGroupOf returns the hierarchy's group of that kind and name, or nil.
func (g *PodGroupCycle) HierarchyGroupOf(kind, name string) *HierarchyGroup {
	for i := range g.Hierarchy {
		if h := &g.Hierarchy[i]; h.Kind == kind && h.Name == name {
			return h
		}
	}
	return nil
}

// OverruledByParent reports whether the cycle placed every member of
// PodGroup h and yet did not bind it: its placements were reverted because
// a CompositePodGroup above it could not be satisfied (kube-scheduler
// gives a child that succeeded its failed parent's status).
func (g *PodGroupCycle) OverruledByParent(h HierarchyGroup) bool {
	return h.Kind == KindPodGroupKind && g.Outcome.Result != ResultBound &&
		h.Members > 0 && h.Placed == h.Members
}

// HoldsPodGroup reports whether ref (name or namespace/name) names a
// PodGroup of the cycle's hierarchy: a leaf's cycles are its root's.
func (g *PodGroupCycle) HoldsPodGroup(ref string) bool {
	for _, h := range g.Hierarchy {
		if h.Kind == KindPodGroupKind && (ref == h.Name || ref == g.Group.Namespace+"/"+h.Name) {
			return true
		}
	}
	return false
}
