package commands

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// maxGroupNodes bounds the node columns of a pod-group cycle's members ×
// nodes table in a document: the nodes members were placed on first, then
// the others in the order the first member's cycle listed them.
const maxGroupNodes = 12

// groupRow is one member's row of a members × nodes table.
type groupRow struct {
	member recorder.GroupMember
	cells  []recorder.MemberNode
	where  string
	seen   string
}

// groupTable is the members × nodes table Markdown and HTML draw: the
// nodes shown, how many are left out, a row per member in the order the
// cycle took them. cycles holds the members' own cycles by number.
func groupTable(g *recorder.PodGroupCycle, cycles map[int]*recorder.Cycle) (nodes []string, hidden int, rows []groupRow) {
	var all []string
	for _, m := range g.Members {
		if c := cycles[m.Cycle]; m.Cycle != 0 && c != nil && c.NodeNamesKnown() {
			all = c.Nodes.Names
			break
		}
	}
	placed := map[string]bool{}
	for _, m := range g.Members {
		if m.Node != "" {
			placed[m.Node] = true
			if !slices.Contains(all, m.Node) {
				all = append(slices.Clip(all), m.Node)
			}
		}
	}
	keep := map[string]bool{}
	for _, n := range all {
		if placed[n] && len(keep) < maxGroupNodes {
			keep[n] = true
		}
	}
	for _, n := range all {
		if len(keep) < maxGroupNodes {
			keep[n] = true
		}
	}
	for _, n := range all {
		if keep[n] {
			nodes = append(nodes, n)
		}
	}
	for _, m := range g.Members {
		c := cycles[m.Cycle]
		if m.Cycle == 0 {
			c = nil
		}
		r := groupRow{member: m, where: narrate.MemberWhere(g, m), seen: narrate.AssumedSeen(m)}
		for _, n := range nodes {
			r.cells = append(r.cells, recorder.MemberOn(c, m, n))
		}
		rows = append(rows, r)
	}
	return nodes, len(all) - len(nodes), rows
}

// groupMark is a pod-group cycle's outcome glyph.
func groupMark(g *recorder.PodGroupCycle) string {
	switch g.Outcome.Result {
	case recorder.ResultBound:
		return "✓"
	case recorder.ResultUnschedulable:
		return "✗"
	}
	return "!"
}

// podGroup writes one pod-group cycle: the group, policy and minCount, the
// outcome, the members × nodes table with each member's tentative
// placement and what it saw assumed, why minCount was not met, what was
// reverted, PlacementFeasible's verdicts, the group's PostFilter and its
// condition.
func (m *markdownWriter) podGroup(g *recorder.PodGroupCycle, cycles map[int]*recorder.Cycle) {
	m.printf("\n## Pod-group cycle %d · `%s` · %s %s\n\n", g.Seq, cell(g.Group.Key()), groupMark(g), cell(narrate.GroupOutcome(g)))
	m.printf("%s · %d member(s) · took %s\n", cell(narrate.GroupPolicy(g)), len(g.Members), narrate.Duration(time.Duration(g.Duration)))
	if msg := strings.TrimSpace(g.Outcome.Message); msg != "" {
		m.printf("\n> %s\n", cell(msg))
	}
	nodes, hidden, rows := groupTable(g, cycles)
	m.printf("\n### Members × nodes\n\nIn the order the cycle took them, each seeing the earlier members assumed: %s.\n\n| member | cycle |", cell(narrate.MemberNodeLegend))
	for _, n := range nodes {
		m.printf(" %s |", cell(n))
	}
	m.printf(" where it went | saw assumed |\n|---|--:|")
	for range nodes {
		m.printf(":-:|")
	}
	m.printf("---|---|\n")
	for _, r := range rows {
		m.printf("| `%s` | %s |", cell(r.member.Pod.Name), cycleNumber(r.member.Cycle))
		for _, k := range r.cells {
			if k == recorder.MemberNodePlaced {
				m.printf(" **%s** |", k.Glyph())
				continue
			}
			m.printf(" %s |", k.Glyph())
		}
		m.printf(" %s | %s |\n", cell(r.where), cell(r.seen))
	}
	if hidden > 0 {
		m.printf("\n… and %d more node(s).\n", hidden)
	}
	if why := narrate.MinCountNotMet(g); why != "" {
		m.printf("\n**Why minCount was not met:** %s\n", cell(why))
	}
	if g.Outcome.Result != recorder.ResultBound {
		m.printf("\n**Reverted:** %s\n", cell(narrate.Placements(g.Reverted())))
	}
	if len(g.Feasible) > 0 {
		m.printf("\n### PlacementFeasible\n\n| when | scheduled | remaining | verdict |\n|---|--:|--:|---|\n")
		for i, v := range g.Feasible {
			verdict := "`" + cell(v.Code) + "`"
			if v.Message != "" {
				verdict += " " + cell(v.Message)
			}
			m.printf("| %s | %d | %d | %s |\n", cell(narrate.VerdictWhen(g, i)), v.Scheduled, v.Remaining, verdict)
		}
	}
	if pf := g.PostFilter; pf != nil {
		m.printf("\n**Group PostFilter (workload-aware preemption):** `%s`", cell(pf.Code))
		if pf.Message != "" {
			m.printf(" %s", cell(pf.Message))
		}
		m.printf("\n")
	}
	m.printf("\n**Condition:** %s\n", cell(narrate.GroupCondition(g.Condition)))
}

// memberGroup writes, under a member's cycle, its story through its group.
func (m *markdownWriter) memberGroup(c *recorder.Cycle, groups []*recorder.PodGroupCycle) {
	if g := recorder.GroupOf(groups, c.Seq); g != nil {
		m.printf("\n**Pod group:** %s\n", cell(narrate.MemberThroughGroup(g, *g.Member(c.Seq))))
	}
}

// podGroup draws one pod-group cycle as the Markdown's podGroup writes it.
func (h *htmlWriter) podGroup(g *recorder.PodGroupCycle, cycles map[int]*recorder.Cycle) {
	h.printf("<h2 id=\"pod-group-cycle-%d\">Pod-group cycle %d · <code>%s</code> · %s %s</h2>\n", g.Seq, g.Seq, esc(g.Group.Key()), groupMark(g), esc(narrate.GroupOutcome(g)))
	h.printf("<p class=\"dim\">%s · %d member(s) · took %s</p>\n", esc(narrate.GroupPolicy(g)), len(g.Members), narrate.Duration(time.Duration(g.Duration)))
	if msg := strings.TrimSpace(g.Outcome.Message); msg != "" {
		h.printf("<blockquote>%s</blockquote>\n", esc(msg))
	}
	nodes, hidden, rows := groupTable(g, cycles)
	h.printf("<h3>Members × nodes</h3>\n<p>In the order the cycle took them, each seeing the earlier members assumed.</p>\n<table><tr><th class=\"node\">member</th><th>cycle</th>")
	for _, n := range nodes {
		h.printf("<th class=\"node\">%s</th>", esc(n))
	}
	h.printf("<th>where it went</th><th>saw assumed</th></tr>\n")
	for _, r := range rows {
		cycle := cycleNumber(r.member.Cycle)
		if r.member.Cycle != 0 {
			cycle = fmt.Sprintf("<a href=\"#cycle-%d\">%d</a>", r.member.Cycle, r.member.Cycle)
		}
		h.printf("<tr><td class=\"node\">%s</td><td>%s</td>", esc(r.member.Pod.Name), cycle)
		for _, k := range r.cells {
			switch k {
			case recorder.MemberNodePlaced:
				h.printf("<td class=\"chosen\" title=\"tentative placement\">%s</td>", k.Glyph())
			case recorder.MemberNodeFeasible:
				h.printf("<td class=\"pass\" title=\"feasible\">%s</td>", k.Glyph())
			case recorder.MemberNodeRejected:
				h.printf("<td class=\"reject\" title=\"rejected\">%s</td>", k.Glyph())
			default:
				h.printf("<td class=\"notrun\" title=\"not known\">%s</td>", k.Glyph())
			}
		}
		h.printf("<td class=\"why\">%s</td><td class=\"why\">%s</td></tr>\n", esc(r.where), esc(r.seen))
	}
	h.printf("</table>\n")
	if hidden > 0 {
		h.printf("<p class=\"dim\">… and %d more node(s).</p>\n", hidden)
	}
	h.printf("<p class=\"dim\">%s</p>\n", esc(narrate.MemberNodeLegend))
	if why := narrate.MinCountNotMet(g); why != "" {
		h.printf("<p><b>Why minCount was not met:</b> %s</p>\n", esc(why))
	}
	if g.Outcome.Result != recorder.ResultBound {
		h.printf("<p><b>Reverted:</b> %s</p>\n", esc(narrate.Placements(g.Reverted())))
	}
	if len(g.Feasible) > 0 {
		h.printf("<h3>PlacementFeasible</h3>\n<table><tr><th>when</th><th>scheduled</th><th>remaining</th><th>verdict</th></tr>\n")
		for i, v := range g.Feasible {
			verdict := "<code>" + esc(v.Code) + "</code>"
			if v.Message != "" {
				verdict += " " + esc(v.Message)
			}
			h.printf("<tr><td class=\"why\">%s</td><td>%d</td><td>%d</td><td class=\"why\">%s</td></tr>\n", esc(narrate.VerdictWhen(g, i)), v.Scheduled, v.Remaining, verdict)
		}
		h.printf("</table>\n")
	}
	if pf := g.PostFilter; pf != nil {
		h.printf("<p><b>Group PostFilter (workload-aware preemption):</b> <code>%s</code>", esc(pf.Code))
		if pf.Message != "" {
			h.printf(" %s", esc(pf.Message))
		}
		h.printf("</p>\n")
	}
	h.printf("<p><b>Condition:</b> %s</p>\n", esc(narrate.GroupCondition(g.Condition)))
}

// memberGroup writes, under a member's cycle, its story through its group.
func (h *htmlWriter) memberGroup(c *recorder.Cycle, groups []*recorder.PodGroupCycle) {
	if g := recorder.GroupOf(groups, c.Seq); g != nil {
		h.printf("<p><b>Pod group:</b> %s (<a href=\"#pod-group-cycle-%d\">pod-group cycle %d</a>)</p>\n", esc(narrate.MemberThroughGroup(g, *g.Member(c.Seq))), g.Seq, g.Seq)
	}
}
