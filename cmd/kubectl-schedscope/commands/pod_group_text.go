package commands

import (
	"slices"
	"strings"
	"time"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/visible"
)

// podGroup prints one pod-group cycle: its members × the nodes they saw
// (● the tentative placement, ○ feasible, ✗ rejected by a filter), why
// minCount was not met, what was reverted, PlacementFeasible's verdicts,
// the group's PostFilter and condition. cycles holds the members' own
// cycles, by number.
func (t *textWriter) podGroup(g *recorder.PodGroupCycle, cycles map[int]*recorder.Cycle) {
	rule := strings.Repeat("═", 78)
	t.printf("%s\n", rule)
	t.printf("pod-group cycle %d · group %s · %s · %d member(s) · %s\n", g.Seq, g.Group.Key(), narrate.GroupPolicy(g), len(g.Members), narrate.Duration(time.Duration(g.Duration)))
	t.printf("result: %s\n", narrate.GroupOutcome(g))
	if m := strings.TrimSpace(g.Outcome.Message); m != "" {
		t.printf("  \"%s\"\n", m)
	}
	t.printf("%s\n", rule)
	// The nodes, as the first member's cycle saw them.
	var nodes []string
	for _, m := range g.Members {
		if c := cycles[m.Cycle]; c != nil && c.NodeNamesKnown() {
			nodes = c.Nodes.Names
			break
		}
	}
	t.printf("\nmembers × nodes, in the order the cycle took them (● tentative placement, ○ feasible, ✗ rejected):\n")
	width := len("member")
	for _, m := range g.Members {
		width = max(width, len(m.Pod.Name))
	}
	head := "   " + pad("member", width) + "  cycle "
	for _, n := range nodes {
		head += " " + n
	}
	t.printf("%s\n", head)
	for _, m := range g.Members {
		row := "   " + pad(m.Pod.Name, width) + "  " + pad(document.CycleNumber(m.Cycle), 5) + " "
		c := cycles[m.Cycle]
		for _, n := range nodes {
			row += " " + pad(recorder.MemberOn(c, m, n).Glyph(), len(n))
		}
		t.printf("%s  %s\n", row, narrate.GroupMember(m))
	}
	if why := narrate.MinCountNotMet(g); why != "" {
		t.printf("\n%s\n", why)
	}
	if g.Outcome.Result != recorder.ResultBound {
		t.printf("reverted: %s\n", narrate.Placements(g.Reverted()))
	}
	if len(g.Feasible) > 0 {
		t.printf("\nPlacementFeasible:\n")
		for i, v := range g.Feasible {
			t.printf("   %-28s %s\n", narrate.VerdictWhen(g, i), narrate.PlacementVerdict(v))
		}
	}
	if pf := g.PostFilter; pf != nil {
		t.printf("group PostFilter (workload-aware preemption): %s", pf.Code)
		if pf.Message != "" {
			t.printf(": %s", pf.Message)
		}
		t.printf("\n")
	}
	t.printf("condition: %s\n\n", narrate.GroupCondition(g.Condition))
}

// groupQueue prints what the scheduling queue did with a pod group as a
// whole (its members move together): added, held, retried on the backoff
// timer.
func (t *textWriter) groupQueue(group recorder.PodGroupRef, queue []*recorder.QueueEvent) {
	first := true
	for _, ev := range queue {
		if ev.PodGroup == nil || *ev.PodGroup != group {
			continue
		}
		if first {
			t.printf("queue story of pod group %s (its members move together):\n", group.Key())
			first = false
		}
		t.printf("  %s  %s\n", ev.Time.UTC().Format("15:04:05.000"), narrate.QueueEvent(ev))
	}
	if !first {
		t.printf("\n")
	}
}

// memberGroup prints, under a member's cycle, its story through its group.
func (t *textWriter) memberGroup(c *recorder.Cycle, groups []*recorder.PodGroupCycle) {
	g := recorder.GroupOf(groups, c.Seq)
	if g == nil {
		return
	}
	t.printf("pod group: %s\n\n", narrate.MemberThroughGroup(g, *g.Member(c.Seq)))
}

// memberGroups keeps the pod-group cycles cycles were members' cycles of.
func memberGroups(groups []*recorder.PodGroupCycle, cycles []*recorder.Cycle) []*recorder.PodGroupCycle {
	var kept []*recorder.PodGroupCycle
	for _, g := range groups {
		for _, c := range cycles {
			if g.Member(c.Seq) != nil {
				kept = append(kept, g)
				break
			}
		}
	}
	return kept
}

// printPodGroup explains one pod group: its pod-group cycles, each with its
// members' own cycles, and where its members stand.
func (o *ExplainOptions) printPodGroup(header recorder.Header, fx *fixture.Fixture, warnings []string, problems []error,
	cycles []*recorder.Cycle, groups []*recorder.PodGroupCycle, queue []*recorder.QueueEvent, pods []recorder.PodState) error {
	ref := strings.TrimPrefix(strings.TrimPrefix(o.PodGroup, "pg/"), "podgroup/")
	var kept []*recorder.PodGroupCycle
	names := map[string]bool{}
	var all []string
	for _, g := range groups {
		if !names[g.Group.Key()] {
			names[g.Group.Key()] = true
			all = append(all, visible.String(g.Group.Key()))
		}
		if g.Group.Name == ref || g.Group.Key() == ref {
			kept = append(kept, g)
		}
	}
	if len(kept) == 0 {
		if len(all) == 0 {
			return errorf("no pod-group cycle for %q in %s: it ran none (pod groups need --feature-gates=GenericWorkload=true, and a group waits until minCount members exist)", o.PodGroup, fx.Name)
		}
		return errorf("no pod-group cycle for %q in %s%s; its pod groups are %s", o.PodGroup, fx.Name, input.DidYouMean(ref, all), listSome(all, 20))
	}
	members := map[string]bool{}
	seqs := map[int]bool{}
	for _, g := range kept {
		for _, m := range g.Members {
			members[m.Pod.Key()] = true
			seqs[m.Cycle] = true
		}
	}
	var keptCycles []*recorder.Cycle
	for _, c := range cycles {
		if seqs[c.Seq] {
			keptCycles = append(keptCycles, c)
		}
	}
	var keptPods []recorder.PodState
	for _, p := range pods {
		if members[p.Pod.Key()] {
			keptPods = append(keptPods, p)
		}
	}
	out := cyclesOutput{header: header, source: "fixture " + fx.Name, warnings: append(slices.Clone(fx.Warnings), warnings...),
		problems: problems, cycles: keptCycles, groups: kept, groupsOnly: true, groupQueue: queue, pods: keptPods}
	return o.finish(out, problems, keptPods)
}
