package recorder

import "time"

// KindPodGroup records a pod-group cycle. It was added to schema version 2
// without changing the version (as KindEnd was): a reader that does not
// know the kind skips it, as any newer kind, and still has every cycle
// (each member's cycle is an ordinary cycle record, as before), so older
// builds read and replay newer recordings, and newer builds older ones,
// which have no such record. A new kind rather than a field of the member
// cycles, because the group's cycle ends before its bound members' cycles
// (they are written after their binding) and after its failed members',
// and because the cycle record is encoded by hand (encode_cycle.go).
const KindPodGroup = "podGroup"

// Pod group policies, as scheduling.k8s.io/v1beta1 names a PodGroup's
// schedulingPolicy.
const (
	PolicyGang  = "Gang"
	PolicyBasic = "Basic"
)

// PodGroupCycle is one pod-group scheduling cycle: kube-scheduler's
// scheduleOnePodGroup, which runs PlacementFeasible, then each member's
// scheduling algorithm in turn on one snapshot (each seeing the members
// before it assumed on their nodes), then submits the group's result: all
// members to binding, or every tentative placement reverted and each member
// back to the queue.
type PodGroupCycle struct {
	// Seq numbers the pod-group cycles of a run, from 1 (apart from the
	// cycles' numbers).
	Seq int `json:"seq"`
	// Group is the PodGroup, in its namespace.
	Group   PodGroupRef `json:"group"`
	Profile string      `json:"profile,omitempty"`
	// Policy is PolicyGang or PolicyBasic; MinCount is a gang's minCount.
	Policy   string    `json:"policy,omitempty"`
	MinCount int32     `json:"minCount,omitempty"`
	Start    time.Time `json:"start"`
	Duration Duration  `json:"duration,omitempty"`
	// Members are the group's queued pods in the order the cycle took them.
	Members []GroupMember `json:"members"`
	// Feasible lists PlacementFeasible's verdicts in the order they were
	// asked: before the first member, then after each member.
	Feasible []PlacementVerdict `json:"placementFeasible,omitempty"`
	// PostFilter is what the group's PostFilter (workload-aware
	// preemption) returned, when the group was unschedulable.
	PostFilter *GroupStatus `json:"postFilter,omitempty"`
	// Placements are the candidate placements the cycle generated, tried
	// and scored, with TopologyAwareWorkloadScheduling on
	// (pod_group_placement.go); nil without it. Members and Feasible are
	// then those of the candidate the cycle submitted (the chosen one, or
	// the first tried when none fit, as upstream reports).
	Placements *PlacementPhase `json:"placements,omitempty"`
	// Outcome is the group's result; Condition the PodGroup's
	// PodGroupInitiallyScheduled condition after the cycle, as the API
	// server holds it.
	Outcome   GroupOutcome    `json:"outcome"`
	Condition *GroupCondition `json:"condition,omitempty"`
	// Hierarchy is set when Group is a CompositePodGroup: the groups of
	// its tree, the root first (composite_pod_group.go).
	Hierarchy []HierarchyGroup `json:"hierarchy,omitempty"`
}

// PodGroupRef names a pod group.
type PodGroupRef struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

// Key returns namespace/name.
func (g PodGroupRef) Key() string { return g.Namespace + "/" + g.Name }

// GroupMember is one member of a pod-group cycle.
type GroupMember struct {
	Pod PodRef `json:"pod"`
	// PodGroup is the PodGroup the member names, when the cycle's group is
	// a CompositePodGroup above it (composite_pod_group.go).
	PodGroup string `json:"podGroup,omitempty"`
	// Cycle is the Seq of the member's own cycle record (its PreFilter,
	// Filter, Score … as any pod's); 0 when the group cycle stopped before
	// reaching it (PlacementFeasible gave up) and it had none.
	Cycle int `json:"cycle,omitempty"`
	// Node is the member's tentative placement: the node its scheduling
	// algorithm chose, assumed for the members after it. Empty when it fit
	// nowhere or was not reached.
	Node string `json:"node,omitempty"`
	// Code and Message are the member's own algorithm status (Success, or
	// why it fit nowhere).
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// Assumed are the earlier members' placements assumed when this one
	// ran: what its filters and scores counted on those nodes.
	Assumed []Placement `json:"assumed,omitempty"`
	// Final is the message the member was sent back to the queue with
	// (empty when it went to binding).
	Final string `json:"final,omitempty"`
}

// Placement is a pod on a node.
type Placement struct {
	Pod  string `json:"pod"`
	Node string `json:"node"`
}

// PlacementVerdict is one answer of the PlacementFeasible plugins: given
// Scheduled members placed (or already running) and Remaining members left
// to try, can the group still meet its constraints?
type PlacementVerdict struct {
	Scheduled int    `json:"scheduled"`
	Remaining int    `json:"remaining"`
	Code      string `json:"code"`
	Message   string `json:"message,omitempty"`
}

// GroupStatus is a status code with its message.
type GroupStatus struct {
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
}

// GroupOutcome is what a pod-group cycle ended in: ResultBound (its
// members went to binding), ResultUnschedulable or ResultError (every
// tentative placement reverted, every member back to the queue).
type GroupOutcome struct {
	Result  string `json:"result"`
	Message string `json:"message,omitempty"`
	// WaitingOnPreemption is set when the group's PostFilter nominated
	// victims: the members wait for them to leave.
	WaitingOnPreemption bool `json:"waitingOnPreemption,omitempty"`
}

// GroupCondition is a PodGroup status condition.
type GroupCondition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// Reverted lists the tentative placements the cycle undid: every member's
// placement when the group did not bind (upstream reverts them all and
// binds none).
func (g *PodGroupCycle) Reverted() []Placement {
	if g.Outcome.Result == ResultBound {
		return nil
	}
	var out []Placement
	for _, m := range g.Members {
		if m.Node != "" {
			out = append(out, Placement{Pod: m.Pod.Name, Node: m.Node})
		}
	}
	return out
}

// Placed counts the members the cycle placed tentatively.
func (g *PodGroupCycle) Placed() int {
	n := 0
	for _, m := range g.Members {
		if m.Node != "" {
			n++
		}
	}
	return n
}

// Member returns the member whose own cycle is seq, or nil.
func (g *PodGroupCycle) Member(seq int) *GroupMember {
	for i := range g.Members {
		if g.Members[i].Cycle == seq && seq != 0 {
			return &g.Members[i]
		}
	}
	return nil
}

// GroupOf returns the pod-group cycle cycle seq was a member's cycle of, or nil.
func GroupOf(groups []*PodGroupCycle, seq int) *PodGroupCycle {
	for _, g := range groups {
		if g.Member(seq) != nil {
			return g
		}
	}
	return nil
}

func checkPodGroupCycle(g *PodGroupCycle) string {
	switch {
	case g.Seq <= 0:
		return "pod-group cycle without a number"
	case g.Group.Name == "":
		return "pod-group cycle without a group"
	case g.Outcome.Result == "":
		return "pod-group cycle without an outcome"
	}
	return ""
}

// MemberNode is what a member's own cycle made of one node, for the
// members × nodes table every output of a pod-group cycle draws.
type MemberNode uint8

const (
	// MemberNodeUnknown: the member's cycle is not at hand, or did not
	// evaluate the node.
	MemberNodeUnknown MemberNode = iota
	// MemberNodePlaced: the member's tentative placement.
	MemberNodePlaced
	// MemberNodeFeasible: the member's filters passed the node.
	MemberNodeFeasible
	// MemberNodeRejected: a filter rejected the node for the member.
	MemberNodeRejected
)

// Glyph is the one-column symbol of the cell: ● placed, ○ feasible, ✗
// rejected, · unknown.
func (k MemberNode) Glyph() string {
	return [...]string{"·", "●", "○", "✗"}[k]
}

// MemberOn says what member m's cycle c (nil when not at hand) made of
// node n.
func MemberOn(c *Cycle, m GroupMember, n string) MemberNode {
	if m.Node == n {
		return MemberNodePlaced
	}
	if c == nil || c.Filter == nil || !c.NodeNamesKnown() {
		return MemberNodeUnknown
	}
	for _, r := range c.Filter.Rejected {
		if c.NodeName(r.Node) == n {
			return MemberNodeRejected
		}
	}
	for _, i := range c.Filter.Feasible {
		if c.NodeName(i) == n {
			return MemberNodeFeasible
		}
	}
	return MemberNodeUnknown
}
