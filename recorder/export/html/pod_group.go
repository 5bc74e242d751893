package html

import (
	"fmt"
	"strings"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// podGroup draws one pod-group cycle as the Markdown's podGroup writes it.
func (h *Writer) PodGroup(g *recorder.PodGroupCycle, cycles map[int]*recorder.Cycle) {
	h.Printf("<h2 id=\"pod-group-cycle-%d\">Pod-group cycle %d · <code>%s</code> · %s %s</h2>\n", g.Seq, g.Seq, Esc(g.Group.Key()), document.GroupMark(g), Esc(narrate.GroupOutcome(g)))
	h.Printf("<p class=\"dim\">%s · %d member(s) · took %s</p>\n", Esc(narrate.GroupPolicy(g)), len(g.Members), narrate.Duration(time.Duration(g.Duration)))
	if msg := strings.TrimSpace(g.Outcome.Message); msg != "" {
		h.Printf("<blockquote>%s</blockquote>\n", Esc(msg))
	}
	nodes, hidden, rows := document.GroupTable(g, cycles)
	h.Printf("<h3>Members × nodes</h3>\n<p>In the order the cycle took them, each seeing the earlier members assumed.</p>\n<table><tr><th class=\"node\">member</th><th>cycle</th>")
	for _, n := range nodes {
		h.Printf("<th class=\"node\">%s</th>", Esc(n))
	}
	h.Printf("<th>where it went</th><th>saw assumed</th></tr>\n")
	for _, r := range rows {
		cycle := document.CycleNumber(r.Member.Cycle)
		if r.Member.Cycle != 0 {
			cycle = fmt.Sprintf("<a href=\"#cycle-%d\">%d</a>", r.Member.Cycle, r.Member.Cycle)
		}
		h.Printf("<tr><td class=\"node\">%s</td><td>%s</td>", Esc(r.Member.Pod.Name), cycle)
		for _, k := range r.Cells {
			switch k {
			case recorder.MemberNodePlaced:
				h.Printf("<td class=\"chosen\" title=\"tentative placement\">%s</td>", k.Glyph())
			case recorder.MemberNodeFeasible:
				h.Printf("<td class=\"pass\" title=\"feasible\">%s</td>", k.Glyph())
			case recorder.MemberNodeRejected:
				h.Printf("<td class=\"reject\" title=\"rejected\">%s</td>", k.Glyph())
			default:
				h.Printf("<td class=\"notrun\" title=\"not known\">%s</td>", k.Glyph())
			}
		}
		h.Printf("<td class=\"why\">%s</td><td class=\"why\">%s</td></tr>\n", Esc(r.Where), Esc(r.Seen))
	}
	h.Printf("</table>\n")
	if hidden > 0 {
		h.Printf("<p class=\"dim\">… and %d more node(s).</p>\n", hidden)
	}
	h.Printf("<p class=\"dim\">%s</p>\n", Esc(narrate.MemberNodeLegend))
	if why := narrate.MinCountNotMet(g); why != "" {
		h.Printf("<p><b>%s:</b> %s</p>\n", Esc(narrate.NotMetTitle(g)), Esc(why))
	}
	if g.Outcome.Result != recorder.ResultBound {
		h.Printf("<p><b>Reverted:</b> %s</p>\n", Esc(narrate.Placements(g.Reverted())))
	}
	if p := g.Placements; p != nil {
		h.placements(p)
	}
	if len(g.Feasible) > 0 {
		h.Printf("<h3>%s</h3>\n<table><tr><th>when</th><th>scheduled</th><th>remaining</th><th>verdict</th></tr>\n", Esc(narrate.FeasibleHeading(g)))
		for i, v := range g.Feasible {
			verdict := "<code>" + Esc(v.Code) + "</code>"
			if v.Message != "" {
				verdict += " " + Esc(v.Message)
			}
			h.Printf("<tr><td class=\"why\">%s</td><td>%d</td><td>%d</td><td class=\"why\">%s</td></tr>\n", Esc(narrate.VerdictWhen(g, i)), v.Scheduled, v.Remaining, verdict)
		}
		h.Printf("</table>\n")
	}
	if pf := g.PostFilter; pf != nil {
		h.Printf("<p><b>Group PostFilter (workload-aware preemption):</b> <code>%s</code>", Esc(pf.Code))
		if pf.Message != "" {
			h.Printf(" %s", Esc(pf.Message))
		}
		h.Printf("</p>\n")
	}
	h.hierarchy(g)
	h.Printf("<p><b>Condition:</b> %s</p>\n", Esc(narrate.CycleCondition(g)))
}

// memberGroup writes, under a member's cycle, its story through its group.
func (h *Writer) MemberGroup(c *recorder.Cycle, groups []*recorder.PodGroupCycle) {
	if g := recorder.GroupOf(groups, c.Seq); g != nil {
		h.Printf("<p><b>Pod group:</b> %s (<a href=\"#pod-group-cycle-%d\">pod-group cycle %d</a>)</p>\n", Esc(narrate.MemberThroughGroup(g, *g.Member(c.Seq))), g.Seq, g.Seq)
	}
}

// placements draws a pod-group cycle's candidate placements as the
// Markdown's placements writes them.
func (h *Writer) placements(p *recorder.PlacementPhase) {
	h.Printf("<h3>Placements</h3>\n<p>%s.</p>\n<table><tr><th>#</th><th class=\"node\">placement</th><th>nodes</th><th>result</th><th>members</th><th>scores</th></tr>\n", Esc(narrate.PlacementsHeading(p)))
	for k := range p.Candidates {
		c := &p.Candidates[k]
		class, name := "why", Esc(narrate.PlacementName(c))
		switch {
		case p.Chosen == k+1:
			class, name = "chosen", "▶ "+name
		case c.Fit():
			class = "pass"
		case c.Tried:
			class = "reject"
		}
		members := ""
		if c.Tried {
			members = narrate.PlacementMembers(c)
		}
		h.Printf("<tr><td>%d</td><td class=\"node\">%s</td><td class=\"why\">%s</td><td class=\"%s\">%s</td><td class=\"why\">%s</td><td class=\"why\">%s</td></tr>\n",
			k+1, name, Esc(strings.Join(c.Nodes, ", ")), class, Esc(narrate.PlacementResult(p, k)), Esc(members), Esc(narrate.PlacementScores(c)))
	}
	h.Printf("</table>\n")
	if s := narrate.PlacementChosen(p); s != "" {
		h.Printf("<p>%s</p>\n", Esc(s))
	}
}
