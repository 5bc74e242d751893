package text

import (
	"maps"
	"slices"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// GroupWhatIf prints whatif --pod-group on the fixture named fixture: the
// group's pod-group cycle before and after the changes (each in words)
// side by side (the policy and minCount, the outcome, where each member
// went, what was bound and reverted), then the minCount verdicts and
// messages of each side in full.
func (t *Writer) GroupWhatIf(fixture string, changes []string, doc *recorder.GroupWhatIf) {
	t.Printf("whatif: pod group %s in %s, the whole fixture run as it is and changed\n", doc.Group.Key(), fixture)
	for _, c := range changes {
		t.Printf("change: %s\n", c)
	}
	if len(changes) == 0 {
		t.Printf("change: none (the run again as it is)\n")
	}
	b, a := doc.Before, doc.After
	rows := [][3]string{
		{"", "before", "after"},
		{"policy", groupPolicyCell(b), groupPolicyCell(a)},
		{"result", groupResultCell(b), groupResultCell(a)},
	}
	for _, key := range groupMemberKeys(doc) {
		name := strings.TrimPrefix(key, doc.Group.Namespace+"/")
		rows = append(rows, [3]string{name, memberCell(b, key, doc.BindingsBefore), memberCell(a, key, doc.BindingsAfter)})
	}
	rows = append(rows,
		[3]string{"reverted", revertedCell(b), revertedCell(a)})
	width := [2]int{}
	for _, r := range rows {
		width[0] = max(width[0], len([]rune(r[0])))
		width[1] = max(width[1], len([]rune(r[1])))
	}
	t.Printf("\n")
	for _, r := range rows {
		t.Printf("  %s  %s  %s\n", Pad(r[0], width[0]), Pad(r[1], width[1]), r[2])
	}
	for _, side := range []struct {
		name string
		g    *recorder.PodGroupCycle
	}{{"before", b}, {"after", a}} {
		g := side.g
		if g == nil {
			t.Printf("\n%s: the group ran no pod-group cycle (fewer members than its minCount, or none)\n", side.name)
			continue
		}
		t.Printf("\n%s: pod-group cycle %d: %s\n", side.name, g.Seq, narrate.GroupOutcome(g))
		if why := narrate.MinCountNotMet(g); why != "" {
			t.Printf("  %s\n", why)
		}
		if m := strings.TrimSpace(g.Outcome.Message); m != "" {
			t.Printf("  \"%s\"\n", m)
		}
		for _, m := range g.Members {
			if m.Node == "" {
				t.Printf("  %s: %s\n", m.Pod.Name, narrate.GroupMember(m))
			}
		}
	}
	if b != nil && a != nil && b.Outcome.Result != a.Outcome.Result {
		t.Printf("\nthe change turns the group from %s to %s\n", b.Outcome.Result, a.Outcome.Result)
	} else if b != nil && a != nil {
		t.Printf("\nthe group's outcome is the same: %s\n", a.Outcome.Result)
	}
}

// groupMemberKeys are the members of either run (namespace/name), in the
// order the cycles took them, then any other member bound or not.
func groupMemberKeys(doc *recorder.GroupWhatIf) []string {
	var keys []string
	add := func(k string) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, g := range []*recorder.PodGroupCycle{doc.Before, doc.After} {
		if g != nil {
			for _, m := range g.Members {
				add(m.Pod.Namespace + "/" + m.Pod.Name)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(doc.BindingsBefore)) {
		add(k)
	}
	for _, k := range slices.Sorted(maps.Keys(doc.BindingsAfter)) {
		add(k)
	}
	return keys
}

func groupPolicyCell(g *recorder.PodGroupCycle) string {
	if g == nil {
		return "no cycle"
	}
	return narrate.GroupPolicy(g)
}

func groupResultCell(g *recorder.PodGroupCycle) string {
	if g == nil {
		return "no cycle"
	}
	return g.Outcome.Result
}

// memberCell says where one member went in a run: its tentative node and
// whether it was bound there or reverted, or that it fit nowhere or was
// not reached.
func memberCell(g *recorder.PodGroupCycle, key string, bindings map[string]string) string {
	bound := bindings[key]
	if g != nil {
		for _, m := range g.Members {
			if m.Pod.Namespace+"/"+m.Pod.Name != key {
				continue
			}
			switch {
			case m.Cycle == 0 && m.Code == "":
				return "not reached"
			case m.Node == "":
				return "fit nowhere"
			case g.Outcome.Result == recorder.ResultBound && bound == m.Node:
				return m.Node + ", bound"
			case g.Outcome.Result == recorder.ResultBound:
				return m.Node + ", binding failed"
			}
			return m.Node + ", reverted"
		}
	}
	if bound != "" {
		return "bound on " + bound + " later"
	}
	return "not in the cycle"
}

func revertedCell(g *recorder.PodGroupCycle) string {
	if g == nil || g.Outcome.Result == recorder.ResultBound {
		return "none"
	}
	return narrate.Placements(g.Reverted())
}
