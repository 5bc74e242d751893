package narrate

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
)

// HierarchyPolicy words the policy of a group of a composite hierarchy:
// "gang, minGroupCount 2, one topology.kubernetes.io/zone",
// "gang, minCount 2", "basic".
func HierarchyPolicy(h recorder.HierarchyGroup) string {
	var s string
	switch h.Policy {
	case recorder.PolicyGang:
		if h.Kind == recorder.KindCompositePodGroup {
			s = fmt.Sprintf("gang, minGroupCount %d", h.MinCount)
		} else {
			s = fmt.Sprintf("gang, minCount %d", h.MinCount)
		}
	case recorder.PolicyBasic:
		s = "basic"
	default:
		s = "policy not recorded"
	}
	if h.Topology != "" {
		s += ", one " + h.Topology
	}
	return s
}

// children are the groups directly under the composite group name.
func children(g *recorder.PodGroupCycle, name string) []recorder.HierarchyGroup {
	var out []recorder.HierarchyGroup
	for _, h := range g.Hierarchy {
		if h.Parent == name && h.Kind != "" && h.Depth > 0 {
			out = append(out, h)
		}
	}
	return out
}

// satisfied reports whether some placement the cycle tried met h's
// constraints (a PlacementFeasible verdict of Success about it).
func satisfied(h recorder.HierarchyGroup) bool {
	for _, v := range h.Feasible {
		if v.Code == recorder.CodeSuccess {
			return true
		}
	}
	return false
}

// lastRefusal is the last verdict about h that was neither Success nor
// Wait, or nil.
func lastRefusal(h recorder.HierarchyGroup) *recorder.PlacementVerdict {
	for i := len(h.Feasible) - 1; i >= 0; i-- {
		if c := h.Feasible[i].Code; c != recorder.CodeSuccess && c != "Wait" {
			return &h.Feasible[i]
		}
	}
	return nil
}

// HierarchyGroupStory words what a composite cycle made of one group of
// its hierarchy: how many of its children (or members) it could place,
// whether a parent overruled it, and its condition.
func HierarchyGroupStory(g *recorder.PodGroupCycle, h recorder.HierarchyGroup) string {
	var parts []string
	if h.Kind == recorder.KindCompositePodGroup {
		kids := children(g, h.Name)
		ok := 0
		for _, k := range kids {
			if satisfied(k) {
				ok++
			}
		}
		parts = append(parts, fmt.Sprintf("%d of its %d group(s) could be placed", ok, len(kids)))
		switch {
		case satisfied(h) && g.Outcome.Result == recorder.ResultBound:
			parts = append(parts, "satisfied")
		case satisfied(h):
			parts = append(parts, "satisfied in a placement, overruled above it")
		default:
			if v := lastRefusal(h); v != nil {
				parts = append(parts, "not satisfied: "+PlacementVerdict(*v))
			} else {
				parts = append(parts, "not satisfied")
			}
		}
		parts = append(parts, "no condition (kube-scheduler v1.37.1 writes none on a CompositePodGroup)")
		return strings.Join(parts, "; ")
	}
	parts = append(parts, fmt.Sprintf("%d of %d member(s) placed", h.Placed, h.Members))
	switch {
	case g.OverruledByParent(h):
		parts = append(parts, "reverted: its parent "+h.Parent+" was not satisfied")
	case g.Outcome.Result == recorder.ResultBound && h.Placed > 0:
		parts = append(parts, "bound")
	case !satisfied(h):
		if v := lastRefusal(h); v != nil {
			parts = append(parts, "not satisfied: "+PlacementVerdict(*v))
		}
	}
	cond := h.Condition
	if cond != nil && strings.TrimSpace(cond.Message) == strings.TrimSpace(g.Outcome.Message) {
		// The group's message, told once for the cycle.
		c := *cond
		c.Message = ""
		cond = &c
	}
	return strings.Join(parts, "; ") + "; " + GroupCondition(cond)
}

// compositeNotMet says why a composite cycle's root was not satisfied.
func compositeNotMet(g *recorder.PodGroupCycle) string {
	root := g.Hierarchy[0]
	kids := children(g, root.Name)
	var ok, not []string
	for _, k := range kids {
		if satisfied(k) {
			ok = append(ok, k.Name)
		} else {
			not = append(not, k.Name)
		}
	}
	what := "its constraints were"
	if root.Policy == recorder.PolicyGang {
		what = fmt.Sprintf("minGroupCount %d was", root.MinCount)
	}
	s := fmt.Sprintf("%s not met: %d of the %d group(s) under %s could be placed", what, len(ok), len(kids), root.Name)
	if len(ok) > 0 {
		s += " (" + strings.Join(ok, ", ") + ", reverted with the rest)"
	}
	if len(not) > 0 {
		s += "; not placed: " + strings.Join(not, ", ")
	}
	if v := lastRefusal(root); v != nil {
		s += "; PlacementFeasible: " + PlacementVerdict(*v)
	}
	return s
}

// compositeVerdictWhen says when PlacementFeasible gave verdict v about a
// composite cycle's root: before its first child, or after one.
func compositeVerdictWhen(g *recorder.PodGroupCycle, v recorder.PlacementVerdict) string {
	kids := children(g, g.Hierarchy[0].Name)
	done := len(kids) - v.Remaining
	if done <= 0 || done > len(kids) {
		return "before the first group"
	}
	return "after " + kids[done-1].Name
}

// CompositePodGroupDoc says what a composite pod-group cycle is, for the
// teaching panels.
const CompositePodGroupDoc = "A CompositePodGroup (scheduling.k8s.io/v1alpha3, behind the CompositePodGroup gate, Alpha in v1.37.1) groups PodGroups, or other CompositePodGroups, that must be placed together: " +
	"the scheduler takes the whole hierarchy from its root in one pod-group cycle. " +
	"For each placement its topology constraint allows (each zone, say), it places the children one after another, each child as a pod group of its own, and PlacementFeasible (GangScheduling) counts the children that fit against minGroupCount; " +
	"PlacementScore picks among the placements that worked. " +
	"If the composite group is not satisfied, every child is failed with it, even one whose members all fit, and their placements are reverted. " +
	"Each PodGroup gets its PodGroupInitiallyScheduled condition; the CompositePodGroup gets none."

// inPodGroup names the PodGroup of a composite cycle's member: "pair-0: ".
func inPodGroup(m recorder.GroupMember) string {
	if m.PodGroup == "" {
		return ""
	}
	return m.PodGroup + ": "
}

// CycleCondition words the condition a pod-group cycle left on its group:
// the PodGroup's, or for a CompositePodGroup, that it has none and where
// its PodGroups' are.
func CycleCondition(g *recorder.PodGroupCycle) string {
	if g.Composite() {
		return "none on the CompositePodGroup (kube-scheduler v1.37.1 writes none); each PodGroup's is in the hierarchy"
	}
	return GroupCondition(g.Condition)
}

// NotMetTitle heads MinCountNotMet's sentence: "Why minCount was not met",
// or for a CompositePodGroup, "Why minGroupCount was not met".
func NotMetTitle(g *recorder.PodGroupCycle) string {
	if g.Composite() {
		return "Why minGroupCount was not met"
	}
	return "Why minCount was not met"
}
