package tui

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// observations holds what a live cluster's own scheduler did with the pods
// schedscope ran cycles for, by cycle Seq. An observation may arrive before its
// cycle; it is kept until the cycle comes.
type observations struct {
	bySeq  map[int]*recorder.Observed
	agreed int
	// untracked counts bindings of pods schedscope ran no cycle for (Seq 0).
	untracked int
}

// add records o; a later observation for the same Seq replaces the earlier one.
func (obs *observations) add(o *recorder.Observed) {
	if o.Seq == 0 {
		obs.untracked++
		return
	}
	if obs.bySeq == nil {
		obs.bySeq = map[int]*recorder.Observed{}
	}
	if old := obs.bySeq[o.Seq]; old != nil && old.Agrees() {
		obs.agreed--
	}
	obs.bySeq[o.Seq] = o
	if o.Agrees() {
		obs.agreed++
	}
}

// of returns the observation for cycle seq, or nil.
func (obs *observations) of(seq int) *recorder.Observed { return obs.bySeq[seq] }

// any reports whether any observation arrived.
func (obs *observations) any() bool { return len(obs.bySeq) > 0 || obs.untracked > 0 }

// checked is how many predictions a binding confirmed or contradicted.
func (obs *observations) checked() int { return len(obs.bySeq) }

// observedVerdict is how a binding compares with the prediction.
type observedVerdict uint8

const (
	verdictSame       observedVerdict = iota // bound to the predicted node
	verdictTieBreak                          // bound to another node of the tie set
	verdictMiss                              // bound elsewhere, or schedscope found no node
	verdictPreemption                        // bound to the node the cycle nominated by preemption
)

func verdictOf(o *recorder.Observed) observedVerdict {
	switch {
	case o.ViaPreemption():
		return verdictPreemption
	case o.Node == o.Predicted && o.Agrees():
		// The same node, or no node on both sides.
		return verdictSame
	case o.Agrees():
		return verdictTieBreak
	}
	return verdictMiss
}

// observedMark is the compact marker of the cycle list's outcome column: "=" when the
// cluster bound the pod where predicted, "≈ node" for another node of the tie
// set, "≠ node" for a contradicted prediction. The glyphs differ, so the cases
// stay apart without colour.
func observedMark(st *theme.Styles, o *recorder.Observed) string {
	switch verdictOf(o) {
	case verdictSame, verdictPreemption:
		return st.Agree.Render("=")
	case verdictTieBreak:
		return st.Agree.Render("≈ " + o.Node)
	}
	if o.Node == "" {
		return st.Disagree.Render("≠ no node")
	}
	return st.Disagree.Render("≠ " + o.Node)
}

// observedText says in words where the cluster bound the pod and how that
// compares with the prediction.
func observedText(st *theme.Styles, o *recorder.Observed) string {
	bound := "cluster bound it to " + o.Node
	if o.Node == "" {
		bound = "the cluster's scheduler found no node either"
		if o.Predicted != "" {
			bound = "the cluster's scheduler found no node"
		}
	}
	switch verdictOf(o) {
	case verdictSame:
		return st.Agree.Render("= " + bound + " (agrees)")
	case verdictPreemption:
		return st.Agree.Render(fmt.Sprintf("= %s (nominated %s by preemption: agrees via preemption)", bound, o.Nominated))
	case verdictTieBreak:
		return st.Agree.Render(fmt.Sprintf("≈ %s (predicted %s; in the tie set → a tie-break, not a miss)", bound, o.Predicted))
	}
	if o.Predicted == "" {
		return st.Disagree.Render("≠ " + bound + " (predicted no node: disagrees)")
	}
	return st.Disagree.Render(fmt.Sprintf("≠ %s (predicted %s: disagrees)", bound, o.Predicted))
}

// observedLines explain the cluster's binding in the Select-host phase: the
// verdict, then what happened to the bound node in this cycle.
func (v *CycleView) observedLines(w int) []string {
	o := v.observed
	if o == nil {
		return nil
	}
	w-- // a margin before the explain panel's border
	lines := []string{"", "  " + v.st.Header.Render("live cluster")}
	lines = append(lines, layout.Wrap("  "+observedText(v.st, o), w, "    ")...)
	if verdictOf(o) == verdictSame {
		return lines
	}
	lines = append(lines, layout.Wrap("  "+o.Node+" in this cycle: "+v.nodeFate(o.Node), w, "    ")...)
	if verdictOf(o) == verdictMiss {
		lines = append(lines, layout.Wrap("  "+v.st.Dim.Render("the cluster's state or configuration differed from the snapshot this cycle saw, or its scheduler ran other plugins or weights"), w, "    ")...)
	}
	return lines
}

// nodeFate says what happened to a node in the shown cycle.
func (v *CycleView) nodeFate(name string) string {
	a := v.a
	n := a.NodeIndex(name)
	if n < 0 {
		return "not in the snapshot"
	}
	r := &a.Nodes[n]
	switch r.State {
	case analysis.Rejected:
		return fmt.Sprintf("rejected by %s (%s)", a.FilterPlugin(r.Plugin), strings.Join(r.Reasons, "; "))
	case analysis.Discarded:
		return "passed filtering but was not kept (enough feasible nodes)"
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
	return fmt.Sprintf("total %d, lost by %d: %s", total, best-total, narrate.Loss(v.c.Score, a.Nodes[a.Winner].Score, r.Score))
}
