package text

import (
	"strings"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// PodGroup prints one pod-group cycle: its members × the nodes they saw
// (● the tentative placement, ○ feasible, ✗ rejected by a filter), why
// minCount was not met, what was reverted, PlacementFeasible's verdicts,
// the group's PostFilter and condition. cycles holds the members' own
// cycles, by number.
func (t *Writer) PodGroup(g *recorder.PodGroupCycle, cycles map[int]*recorder.Cycle) {
	rule := strings.Repeat("═", 78)
	t.Printf("%s\n", rule)
	t.Printf("pod-group cycle %d · group %s · %s · %d member(s) · %s\n", g.Seq, g.Group.Key(), narrate.GroupPolicy(g), len(g.Members), narrate.Duration(time.Duration(g.Duration)))
	t.Printf("result: %s\n", narrate.GroupOutcome(g))
	if m := strings.TrimSpace(g.Outcome.Message); m != "" {
		t.Printf("  \"%s\"\n", m)
	}
	t.Printf("%s\n", rule)
	// The nodes, as the first member's cycle saw them.
	var nodes []string
	for _, m := range g.Members {
		if c := cycles[m.Cycle]; c != nil && c.NodeNamesKnown() {
			nodes = c.Nodes.Names
			break
		}
	}
	t.Printf("\nmembers × nodes, in the order the cycle took them (● tentative placement, ○ feasible, ✗ rejected):\n")
	width := len("member")
	for _, m := range g.Members {
		width = max(width, len(m.Pod.Name))
	}
	head := "   " + Pad("member", width) + "  cycle "
	for _, n := range nodes {
		head += " " + n
	}
	t.Printf("%s\n", head)
	for _, m := range g.Members {
		row := "   " + Pad(m.Pod.Name, width) + "  " + Pad(document.CycleNumber(m.Cycle), 5) + " "
		c := cycles[m.Cycle]
		for _, n := range nodes {
			row += " " + Pad(recorder.MemberOn(c, m, n).Glyph(), len(n))
		}
		t.Printf("%s  %s\n", row, narrate.GroupMember(m))
	}
	if why := narrate.MinCountNotMet(g); why != "" {
		t.Printf("\n%s\n", why)
	}
	if g.Outcome.Result != recorder.ResultBound {
		t.Printf("reverted: %s\n", narrate.Placements(g.Reverted()))
	}
	if p := g.Placements; p != nil {
		t.placements(p)
	}
	if len(g.Feasible) > 0 {
		t.Printf("\n%s:\n", narrate.FeasibleHeading(g))
		for i, v := range g.Feasible {
			t.Printf("   %-28s %s\n", narrate.VerdictWhen(g, i), narrate.PlacementVerdict(v))
		}
	}
	if pf := g.PostFilter; pf != nil {
		t.Printf("group PostFilter (workload-aware preemption): %s", pf.Code)
		if pf.Message != "" {
			t.Printf(": %s", pf.Message)
		}
		t.Printf("\n")
	}
	t.Hierarchy(g)
	t.Printf("condition: %s\n\n", narrate.CycleCondition(g))
}

// GroupQueue prints what the scheduling queue did with a pod group as a
// whole (its members move together): added, held, retried on the backoff
// timer.
func (t *Writer) GroupQueue(group recorder.PodGroupRef, queue []*recorder.QueueEvent) {
	first := true
	for _, ev := range queue {
		if ev.PodGroup == nil || *ev.PodGroup != group {
			continue
		}
		if first {
			t.Printf("queue story of pod group %s (its members move together):\n", group.Key())
			first = false
		}
		t.Printf("  %s  %s\n", ev.Time.UTC().Format("15:04:05.000"), narrate.QueueEvent(ev))
	}
	if !first {
		t.Printf("\n")
	}
}

// MemberGroup prints, under a member's cycle, its story through its group.
func (t *Writer) MemberGroup(c *recorder.Cycle, groups []*recorder.PodGroupCycle) {
	g := recorder.GroupOf(groups, c.Seq)
	if g == nil {
		return
	}
	t.Printf("pod group: %s\n\n", narrate.MemberThroughGroup(g, *g.Member(c.Seq)))
}

// placements prints a pod-group cycle's candidate placements: each one's
// nodes, what its members did there, its scores, and the one chosen.
func (t *Writer) placements(p *recorder.PlacementPhase) {
	t.Printf("\n%s\n", narrate.PlacementsHeading(p))
	width := 0
	for i := range p.Candidates {
		width = max(width, len(narrate.PlacementName(&p.Candidates[i])))
	}
	for k := range p.Candidates {
		c := &p.Candidates[k]
		mark := " "
		if p.Chosen == k+1 {
			mark = "▶"
		}
		t.Printf(" %s %d. %s  nodes %s  %s\n", mark, k+1, Pad(narrate.PlacementName(c), width), strings.Join(c.Nodes, ","), narrate.PlacementResult(p, k))
		if c.Tried {
			t.Printf("        members: %s\n", narrate.PlacementMembers(c))
		}
		if s := narrate.PlacementScores(c); s != "" {
			t.Printf("        %s\n", s)
		}
	}
	if s := narrate.PlacementChosen(p); s != "" {
		t.Printf("%s\n", s)
	}
}
