package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/livebinding"
	"github.com/schedscope/schedscope/tui/layout"
)

// selectLines renders host selection: the rule, how a live cluster's binding
// compared, the top set and why every other node lost.
func (v *CycleView) selectLines(w int) []string {
	c, a, st := v.c, v.a, v.st
	sel := c.Selection
	lines := []string{
		"  chosen: " + st.Chosen.Render("★ "+sel.Node),
		"  rule:   " + st.Bold.Render(sel.Rule),
	}
	lines = append(lines, layout.Wrap("  why:    "+narrate.Selection(c), w, "          ")...)
	lines = append(lines, livebinding.Lines(v.st, v.c, v.a, v.observed, w)...)
	s := c.Score
	switch sel.Rule {
	case recorder.RuleOnlyFeasible, recorder.RuleFastPath:
		lines = append(lines, "")
		lines = append(lines, v.rejectedSummary()...)
		return lines
	}
	if s == nil {
		return lines
	}
	if len(sel.Top) > 1 {
		var names []string
		for _, n := range sel.Top {
			name := c.NodeName(n)
			if n == a.Winner {
				name = st.Chosen.Render(name + " (chosen)")
			} else {
				name = st.Tie.Render(name)
			}
			names = append(names, name)
		}
		lines = append(lines, "", fmt.Sprintf("  %s at %d: %s", st.Tie.Render("tie"), sel.Best, strings.Join(names, ", ")))
	}
	// Only the rows the window can reach are built: the list may be thousands long.
	order := a.ByTotal
	more := 0
	if limit := v.scroll + v.bodyHeight(); len(order) > limit {
		order, more = order[:limit], len(order)-limit
	}
	win := -1
	if a.Winner >= 0 {
		win = a.Nodes[a.Winner].Score
	}
	// Without node names a tie hides which node won: the tied nodes are
	// named as such, the others measured against the best total.
	best, topKnown := sel.Best, win < 0 && len(sel.Top) > 0
	if win >= 0 {
		best = s.Totals[win]
	}
	lines = append(lines, "", "  "+st.Header.Render(layout.Fit("node", 24)+" "+layout.FitLeft("total", 6)+"  why it lost"))
	for _, i := range order {
		n := s.Nodes[i]
		row := layout.Fit(c.NodeName(n), 24) + " " + layout.FitLeft(fmt.Sprint(s.Totals[i]), 6)
		var why string
		switch {
		case i == win:
			row, why = st.Chosen.Render(row), "highest total"
		case win >= 0 && s.Totals[i] == best:
			row, why = st.Tie.Render(row), "tied, lost the tie-break"
		case topKnown && slices.Contains(sel.Top, n):
			row, why = st.Tie.Render(row), "tied for the highest total; which one won is unknown without node names"
		case win >= 0:
			why = fmt.Sprintf("lost by %d: %s", best-s.Totals[i], narrate.Loss(s, win, i))
		case topKnown:
			why = fmt.Sprintf("lost by %d to the highest total", best-s.Totals[i])
		default:
			why = "lower total"
		}
		// The parts of a loss add up to the gap, so they wrap rather than
		// being cut.
		const whyAt = 2 + 24 + 1 + 6 + 2
		for k, l := range layout.Wrap(why, w-whyAt, "") {
			if k == 0 {
				lines = append(lines, "  "+row+"  "+l)
			} else {
				lines = append(lines, strings.Repeat(" ", whyAt)+l)
			}
		}
	}
	if more > 0 {
		lines = append(lines, fmt.Sprintf("  … and %d more scored node(s) (%s scrolls)", more, v.Keys.Down.Help().Key))
	}
	lines = append(lines, "")
	return append(lines, v.rejectedSummary()...)
}

// rejectedSummary counts the nodes that never got to selection, by cause.
func (v *CycleView) rejectedSummary() []string {
	a := v.a
	byPlugin := map[string]int{}
	var notEval, discarded int
	for n := range a.Nodes {
		switch a.Nodes[n].State {
		case analysis.Rejected:
			byPlugin[a.FilterPlugin(a.Nodes[n].Plugin)]++
		case analysis.NotEvaluated:
			if n != a.Winner {
				notEval++
			}
		case analysis.Discarded:
			discarded++
		}
	}
	var lines []string
	keys := make([]string, 0, len(byPlugin))
	for k := range byPlugin {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("  %d node(s) were rejected by %s", byPlugin[k], k))
	}
	if discarded > 0 {
		lines = append(lines, fmt.Sprintf("  %d node(s) passed but were not kept (enough feasible nodes)", discarded))
	}
	if notEval > 0 {
		lines = append(lines, fmt.Sprintf("  %d node(s) were not evaluated", notEval))
	}
	if len(lines) > 0 {
		lines = append([]string{"  " + v.st.Header.Render("never in the running")}, lines...)
	}
	return lines
}
