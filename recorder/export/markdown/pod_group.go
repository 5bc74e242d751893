package markdown

import (
	"strings"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// podGroup writes one pod-group cycle: the group, policy and minCount, the
// outcome, the members × nodes table with each member's tentative
// placement and what it saw assumed, why minCount was not met, what was
// reverted, PlacementFeasible's verdicts, the group's PostFilter and its
// condition.
func (m *Writer) PodGroup(g *recorder.PodGroupCycle, cycles map[int]*recorder.Cycle) {
	m.Printf("\n## Pod-group cycle %d · `%s` · %s %s\n\n", g.Seq, Cell(g.Group.Key()), document.GroupMark(g), Cell(narrate.GroupOutcome(g)))
	m.Printf("%s · %d member(s) · took %s\n", Cell(narrate.GroupPolicy(g)), len(g.Members), narrate.Duration(time.Duration(g.Duration)))
	if msg := strings.TrimSpace(g.Outcome.Message); msg != "" {
		m.Printf("\n> %s\n", Cell(msg))
	}
	nodes, hidden, rows := document.GroupTable(g, cycles)
	m.Printf("\n### Members × nodes\n\nIn the order the cycle took them, each seeing the earlier members assumed: %s.\n\n| member | cycle |", Cell(narrate.MemberNodeLegend))
	for _, n := range nodes {
		m.Printf(" %s |", Cell(n))
	}
	m.Printf(" where it went | saw assumed |\n|---|--:|")
	for range nodes {
		m.Printf(":-:|")
	}
	m.Printf("---|---|\n")
	for _, r := range rows {
		m.Printf("| `%s` | %s |", Cell(r.Member.Pod.Name), document.CycleNumber(r.Member.Cycle))
		for _, k := range r.Cells {
			if k == recorder.MemberNodePlaced {
				m.Printf(" **%s** |", k.Glyph())
				continue
			}
			m.Printf(" %s |", k.Glyph())
		}
		m.Printf(" %s | %s |\n", Cell(r.Where), Cell(r.Seen))
	}
	if hidden > 0 {
		m.Printf("\n… and %d more node(s).\n", hidden)
	}
	if why := narrate.MinCountNotMet(g); why != "" {
		m.Printf("\n**%s:** %s\n", narrate.NotMetTitle(g), Cell(why))
	}
	if g.Outcome.Result != recorder.ResultBound {
		m.Printf("\n**Reverted:** %s\n", Cell(narrate.Placements(g.Reverted())))
	}
	if p := g.Placements; p != nil {
		m.placements(p)
	}
	if len(g.Feasible) > 0 {
		m.Printf("\n### %s\n\n| when | scheduled | remaining | verdict |\n|---|--:|--:|---|\n", Cell(narrate.FeasibleHeading(g)))
		for i, v := range g.Feasible {
			verdict := "`" + Cell(v.Code) + "`"
			if v.Message != "" {
				verdict += " " + Cell(v.Message)
			}
			m.Printf("| %s | %d | %d | %s |\n", Cell(narrate.VerdictWhen(g, i)), v.Scheduled, v.Remaining, verdict)
		}
	}
	if pf := g.PostFilter; pf != nil {
		m.Printf("\n**Group PostFilter (workload-aware preemption):** `%s`", Cell(pf.Code))
		if pf.Message != "" {
			m.Printf(" %s", Cell(pf.Message))
		}
		m.Printf("\n")
	}
	m.hierarchy(g)
	m.Printf("\n**Condition:** %s\n", Cell(narrate.CycleCondition(g)))
}

// memberGroup writes, under a member's cycle, its story through its group.
func (m *Writer) MemberGroup(c *recorder.Cycle, groups []*recorder.PodGroupCycle) {
	if g := recorder.GroupOf(groups, c.Seq); g != nil {
		m.Printf("\n**Pod group:** %s\n", Cell(narrate.MemberThroughGroup(g, *g.Member(c.Seq))))
	}
}

// placements writes a pod-group cycle's candidate placements as a table: a
// row per candidate, the chosen one marked, with its nodes, what became of
// it, its members' nodes and its scores.
func (m *Writer) placements(p *recorder.PlacementPhase) {
	m.Printf("\n### Placements\n\n%s.\n\n| # | placement | nodes | result | members | scores |\n|--:|---|---|---|---|---|\n", Cell(narrate.PlacementsHeading(p)))
	for k := range p.Candidates {
		c := &p.Candidates[k]
		name := "`" + Cell(narrate.PlacementName(c)) + "`"
		if p.Chosen == k+1 {
			name = "**▶ " + name + "**"
		}
		members := ""
		if c.Tried {
			members = narrate.PlacementMembers(c)
		}
		m.Printf("| %d | %s | %s | %s | %s | %s |\n", k+1, name, Cell(strings.Join(c.Nodes, ", ")), Cell(narrate.PlacementResult(p, k)), Cell(members), Cell(narrate.PlacementScores(c)))
	}
	if s := narrate.PlacementChosen(p); s != "" {
		m.Printf("\n%s\n", Cell(s))
	}
}
