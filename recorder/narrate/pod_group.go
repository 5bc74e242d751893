package narrate

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
)

// GroupPolicy words a pod group's policy: "gang, minCount 3", "basic".
func GroupPolicy(g *recorder.PodGroupCycle) string {
	if g.Composite() {
		return "CompositePodGroup: " + HierarchyPolicy(g.Hierarchy[0])
	}
	switch g.Policy {
	case recorder.PolicyGang:
		return fmt.Sprintf("gang, minCount %d", g.MinCount)
	case recorder.PolicyBasic:
		return "basic"
	}
	return "policy not recorded"
}

// GroupOutcome words what a pod-group cycle ended in.
func GroupOutcome(g *recorder.PodGroupCycle) string {
	switch g.Outcome.Result {
	case recorder.ResultBound:
		return fmt.Sprintf("bound: its %d placed member(s) went to binding together", g.Placed())
	case recorder.ResultUnschedulable:
		if g.Outcome.WaitingOnPreemption {
			return "Unschedulable, waiting on preemption: the group's PostFilter nominated victims; the members are retried once they are gone"
		}
		if len(g.Reverted()) > 0 {
			return "Unschedulable: the tentative placements were reverted and no member was bound"
		}
		return "Unschedulable: no member was placed"
	}
	return g.Outcome.Result + ": no member was bound"
}

// Placements lists placements as "infer-0 on s1, infer-1 on s2".
func Placements(ps []recorder.Placement) string {
	if len(ps) == 0 {
		return "none"
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Pod + " on " + p.Node
	}
	return strings.Join(parts, ", ")
}

// GroupMember words where one member of a pod-group cycle went, or why not.
func GroupMember(m recorder.GroupMember) string {
	return inPodGroup(m) + groupMember(m)
}

func groupMember(m recorder.GroupMember) string {
	var s string
	switch {
	case m.Cycle == 0 && m.Code == "":
		s = "not reached: the cycle ended before this member"
	case m.Node != "":
		s = "tentatively on " + m.Node
	default:
		s = "fit nowhere: " + strings.TrimSuffix(strings.TrimSpace(m.Message), ".")
	}
	if len(m.Assumed) > 0 {
		s += "; counting " + Placements(m.Assumed) + " (assumed)"
	}
	return s
}

// PlacementVerdict words one answer of the PlacementFeasible plugins.
func PlacementVerdict(v recorder.PlacementVerdict) string {
	s := fmt.Sprintf("%d scheduled, %d remaining → %s", v.Scheduled, v.Remaining, v.Code)
	if v.Message != "" {
		s += ": " + v.Message
	}
	return s
}

// MinCountNotMet says why a gang's minCount was not met, or "" when the
// group bound or is not a gang.
func MinCountNotMet(g *recorder.PodGroupCycle) string {
	if g.Composite() && g.Outcome.Result != recorder.ResultBound {
		return compositeNotMet(g)
	}
	if g.Outcome.Result == recorder.ResultBound || g.Policy != recorder.PolicyGang {
		return ""
	}
	placed, tried := g.Placed(), 0
	for _, m := range g.Members {
		if m.Cycle != 0 || m.Code != "" {
			tried++
		}
	}
	s := fmt.Sprintf("minCount %d was not met: %d of the %d member(s) tried fit (%d queued)", g.MinCount, placed, tried, len(g.Members))
	for i := len(g.Feasible) - 1; i >= 0; i-- {
		if v := g.Feasible[i]; v.Code != recorder.CodeSuccess {
			s += "; PlacementFeasible: " + PlacementVerdict(v)
			break
		}
	}
	return s
}

// MemberThroughGroup tells a member's cycle through its pod group: where
// the member went and what the group's cycle made of it.
func MemberThroughGroup(g *recorder.PodGroupCycle, m recorder.GroupMember) string {
	group := g.Group.Key()
	if m.PodGroup != "" {
		group += " (the CompositePodGroup above its PodGroup " + m.PodGroup + ")"
	}
	var fit string
	switch {
	case m.Node != "":
		fit = "fit on node " + m.Node
	case m.Cycle == 0:
		fit = "was not reached"
	default:
		fit = "fit no node"
	}
	fit += inPlacement(g)
	if len(m.Assumed) > 0 {
		fit += " (counting " + Placements(m.Assumed) + ", the earlier members assumed)"
	}
	if g.Outcome.Result == recorder.ResultBound {
		if m.Node != "" {
			return fmt.Sprintf("%s in pod-group cycle %d of %s (%s), which bound its placed members together", fit, g.Seq, group, GroupPolicy(g))
		}
		return fmt.Sprintf("%s in pod-group cycle %d of %s (%s); the group bound its other members without it", fit, g.Seq, group, GroupPolicy(g))
	}
	link := ", but"
	if m.Node == "" {
		link = ", and"
	}
	s := fmt.Sprintf("%s%s the group %s failed in pod-group cycle %d: %s", fit, link, group, g.Seq, strings.TrimSpace(g.Outcome.Message))
	if r := g.Reverted(); len(r) > 0 {
		s += "; the tentative placements were reverted (" + Placements(r) + ")"
	}
	return s
}

// GroupCondition words a PodGroup's condition: "PodGroupInitiallyScheduled=False (Unschedulable): …".
func GroupCondition(c *recorder.GroupCondition) string {
	if c == nil {
		return "not set"
	}
	s := c.Type + "=" + c.Status
	if c.Reason != "" {
		s += " (" + c.Reason + ")"
	}
	if c.Message != "" {
		s += ": " + c.Message
	}
	return s
}

// VerdictWhen says when PlacementFeasible gave its i-th verdict of g:
// before the first member, then after each member.
func VerdictWhen(g *recorder.PodGroupCycle, i int) string {
	if g.Composite() && i >= 0 && i < len(g.Feasible) {
		return compositeVerdictWhen(g, g.Feasible[i])
	}
	if i > 0 && i <= len(g.Members) {
		return "after " + g.Members[i-1].Pod.Name
	}
	return "before the first member"
}

// MemberWhere words, in a few words, where a member of g went: "bound to
// s1", "on s2, reverted", "fit nowhere", "not reached".
func MemberWhere(g *recorder.PodGroupCycle, m recorder.GroupMember) string {
	return inPodGroup(m) + memberWhere(g, m)
}

func memberWhere(g *recorder.PodGroupCycle, m recorder.GroupMember) string {
	switch {
	case m.Cycle == 0 && m.Code == "":
		return "not reached"
	case m.Node == "":
		return "fit nowhere: " + strings.TrimSuffix(strings.TrimSpace(m.Message), ".")
	case g.Outcome.Result == recorder.ResultBound:
		return "bound to " + m.Node
	}
	return "on " + m.Node + ", reverted"
}

// AssumedSeen words the earlier members' placements a member's cycle saw
// assumed, or "" when it saw none.
func AssumedSeen(m recorder.GroupMember) string {
	if len(m.Assumed) == 0 {
		return ""
	}
	return "saw " + Placements(m.Assumed) + " assumed"
}

// MemberNodeLegend explains the glyphs of a members × nodes table.
const MemberNodeLegend = "● tentative placement  ○ feasible  ✗ rejected  · not known"

// PodGroupCycleDoc says what a pod-group cycle is, for the teaching
// panels: how a gang is placed, when it binds, what a failure undoes and
// how it is retried.
const PodGroupCycleDoc = "A pod in a PodGroup (scheduling.k8s.io, behind the GenericWorkload gate) is not scheduled alone: " +
	"the scheduler takes the group's queued members in one pod-group cycle, one after another on one snapshot of the cluster. " +
	"Each member runs PreFilter, Filter and Score as any pod does, and its chosen node is a tentative placement, assumed for the members after it. " +
	"Between members the PlacementFeasible plugins (GangScheduling for a gang) answer Wait while minCount can still be met and Unschedulable once it cannot, which ends the cycle. " +
	"A gang binds only when at least minCount members were placed; then the placed members go to binding together. " +
	"Otherwise every tentative placement is reverted and no member is bound, even those that fit; the group's PostFilter (workload-aware preemption) may nominate victims. " +
	"The members go back to the queue on the backoff timer, not into the unschedulable pool, so the group is tried again after its backoff without waiting for a cluster event, for as long as it does not fit. " +
	"Until minCount members exist, GangScheduling's PreEnqueue holds them out of the queue, with no condition and no event."

// GroupTeaching tells what a member's cycle was part of, for the explain
// panel of the member's cycle: its story through its group, then what a
// pod-group cycle is.
func GroupTeaching(g *recorder.PodGroupCycle, m recorder.GroupMember) string {
	doc := PodGroupCycleDoc
	if g.Placements != nil {
		doc += "\n" + PlacementsDoc
	}
	if g.Composite() {
		doc += "\n" + CompositePodGroupDoc
	}
	return "This pod is a member of " + g.Group.Key() + " (" + GroupPolicy(g) + "): it " + MemberThroughGroup(g, m) + ".\n" + doc
}

// MinCountVerdict words, in a few words, whether g met its gang's
// minCount: "met: 2 placed, minCount 2", "not met: 2 placed, minCount 3";
// for a group that is not a gang, how many members it placed.
func MinCountVerdict(g *recorder.PodGroupCycle) string {
	placed := g.Placed()
	if g.Policy != recorder.PolicyGang {
		return fmt.Sprintf("%d placed (%s)", placed, GroupPolicy(g))
	}
	if g.Outcome.Result == recorder.ResultBound {
		return fmt.Sprintf("met: %d placed, minCount %d", placed, g.MinCount)
	}
	return fmt.Sprintf("not met: %d placed, minCount %d", placed, g.MinCount)
}
