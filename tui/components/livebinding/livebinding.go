// Package livebinding compares where a live cluster's own scheduler bound a
// pod with where schedscope's cycle predicted it would: the same node, another
// node of the tie set (a tie-break, not a miss), the node preemption
// nominated, or a miss.
package livebinding

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// Verdict is how a binding compares with the prediction.
type Verdict uint8

const (
	Same       Verdict = iota // bound to the predicted node
	TieBreak                  // bound to another node of the tie set
	Miss                      // bound elsewhere, or schedscope found no node
	Preemption                // bound to the node the cycle nominated by preemption
)

// VerdictOf compares where the cluster bound the pod with the prediction.
func VerdictOf(o *recorder.Observed) Verdict {
	switch {
	case o.ViaPreemption():
		return Preemption
	case o.Node == o.Predicted && o.Agrees():
		// The same node, or no node on both sides.
		return Same
	case o.Agrees():
		return TieBreak
	}
	return Miss
}

// Mark is the compact marker of the cycle list's outcome column: "=" when the
// cluster bound the pod where predicted, "≈ node" for another node of the tie
// set, "≠ node" for a contradicted prediction. The glyphs differ, so the cases
// stay apart without colour.
func Mark(st *theme.Styles, o *recorder.Observed) string {
	switch VerdictOf(o) {
	case Same, Preemption:
		return st.Agree.Render("=")
	case TieBreak:
		return st.Agree.Render("≈ " + o.Node)
	}
	if o.Node == "" {
		return st.Disagree.Render("≠ no node")
	}
	return st.Disagree.Render("≠ " + o.Node)
}

// Text says in words where the cluster bound the pod and how that
// compares with the prediction.
func Text(st *theme.Styles, o *recorder.Observed) string {
	bound := "cluster bound it to " + o.Node
	if o.Node == "" {
		bound = "the cluster's scheduler found no node either"
		if o.Predicted != "" {
			bound = "the cluster's scheduler found no node"
		}
	}
	switch VerdictOf(o) {
	case Same:
		return st.Agree.Render("= " + bound + " (agrees)")
	case Preemption:
		return st.Agree.Render(fmt.Sprintf("= %s (nominated %s by preemption: agrees via preemption)", bound, o.Nominated))
	case TieBreak:
		return st.Agree.Render(fmt.Sprintf("≈ %s (predicted %s; in the tie set → a tie-break, not a miss)", bound, o.Predicted))
	}
	if o.Predicted == "" {
		return st.Disagree.Render("≠ " + bound + " (predicted no node: disagrees)")
	}
	return st.Disagree.Render(fmt.Sprintf("≠ %s (predicted %s: disagrees)", bound, o.Predicted))
}

// Lines explain the cluster's binding o of c's pod (a analyzes c) in w
// cells: the verdict, then what happened to the bound node in the cycle.
func Lines(st *theme.Styles, c *recorder.Cycle, a *analysis.Result, o *recorder.Observed, w int) []string {
	if o == nil {
		return nil
	}
	w-- // a margin before the explain panel's border
	lines := []string{"", "  " + st.Header.Render("live cluster")}
	lines = append(lines, layout.Wrap("  "+Text(st, o), w, "    ")...)
	if VerdictOf(o) == Same {
		return lines
	}
	lines = append(lines, layout.Wrap("  "+o.Node+" in this cycle: "+nodeFate(c, a, o.Node), w, "    ")...)
	if VerdictOf(o) == Miss {
		lines = append(lines, layout.Wrap("  "+st.Dim.Render("the cluster's state or configuration differed from the snapshot this cycle saw, or its scheduler ran other plugins or weights"), w, "    ")...)
	}
	return lines
}

// nodeFate says what happened to a node in cycle c.
func nodeFate(c *recorder.Cycle, a *analysis.Result, name string) string {
	n := a.NodeIndex(name)
	if n < 0 {
		return "not in the snapshot"
	}
	r := &a.Nodes[n]
	switch r.State {
	case analysis.Rejected:
		return fmt.Sprintf("rejected by %s (%s)", a.FilterPlugin(r.Plugin), strings.Join(r.Reasons, "; "))
	case analysis.Discarded:
		return narrate.NotKept
	case analysis.NotEvaluated:
		if r.Outside {
			return "outside the PreFilter node subset"
		}
		return "not evaluated"
	}
	total, ok := a.Total(n)
	if !ok || a.Winner < 0 {
		return "passed filtering"
	}
	best, _ := a.Total(a.Winner)
	if total == best {
		return fmt.Sprintf("tied for the highest total (%d)", total)
	}
	return fmt.Sprintf("total %d, lost by %d: %s", total, best-total, narrate.Loss(c.Score, a.Nodes[a.Winner].Score, r.Score))
}
