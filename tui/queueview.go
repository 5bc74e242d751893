package tui

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/pluginstatus"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/layout"
)

// queueLines renders the pod, the attempt and the cycle's timings.
func (v *CycleView) queueLines(w int) []string {
	c := v.c
	pod := c.Pod.Key()
	if c.Pod.Priority != 0 {
		pod += fmt.Sprintf(" (priority %d)", c.Pod.Priority)
	}
	lines := []string{
		pluginstatus.Field(v.st, "pod", v.st.Bold.Render(pod)),
		pluginstatus.Field(v.st, "attempt", fmt.Sprintf("%d%s", c.Attempt, map[bool]string{true: " (retried after an earlier failure)", false: " (first try)"}[c.Attempt > 1])),
		pluginstatus.Field(v.st, "profile", c.Profile),
		pluginstatus.Field(v.st, "started", c.Start.UTC().Format("2006-01-02 15:04:05.000000 UTC")),
		pluginstatus.Field(v.st, "took", narrate.Duration(c.Duration)+" from the start of the algorithm to the outcome"),
		pluginstatus.Field(v.st, "nodes", fmt.Sprintf("%s in the snapshot · search starts at index %d · stops after %d feasible", analysis.SnapshotSize(c), c.SearchStart, c.NodesToFind)),
	}
	if !c.NodeNamesKnown() {
		lines = append(lines, pluginstatus.Field(v.st, "", v.st.Problem.Render("node names unknown: the recording lacks this cycle's node set, so nodes show as #index")))
	}
	if fp := c.FastPath; fp != nil {
		res := "passed: chosen without a full search"
		if !fp.Feasible {
			res = "failed: full search follows"
		}
		lines = append(lines, pluginstatus.Field(v.st, "fast path", fmt.Sprintf("%s %s %s", fp.Kind, fp.Node, res)))
	}
	if c.BatchHint != "" {
		lines = append(lines, pluginstatus.Field(v.st, "batch hint", c.BatchHint))
	}
	lines = append(lines, pluginstatus.Field(v.st, "outcome", pluginstatus.Outcome(v.st, v.c.Outcome)))
	if len(c.Timings) > 0 {
		lines = append(lines, "", "  "+v.st.Header.Render("time per phase"))
		var longest int64
		for _, t := range c.Timings {
			longest = max(longest, int64(t.Duration))
		}
		barW := max(w-2-16-1-10-1, 4)
		for _, t := range c.Timings {
			n := 0
			if longest > 0 {
				n = int(int64(t.Duration) * int64(barW) / longest)
			}
			lines = append(lines, "  "+layout.Fit(t.Phase, 16)+" "+layout.FitLeft(narrate.Duration(t.Duration), 10)+" "+v.st.Discarded.Render(strings.Repeat("▬", max(n, 1))))
		}
	}
	return lines
}

// preFilterLines renders PreFilter: status per plugin and the node subset.
func (v *CycleView) preFilterLines(w int) []string {
	pf := v.c.PreFilter
	lines := []string{"  aggregated status: " + glyph.Code(v.st, pf.Code) + " " + pf.Message, ""}
	lines = append(lines, pluginstatus.Table(v.st, pf.Plugins, w)...)
	lines = append(lines, "")
	if pf.NodeSubset != nil {
		lines = append(lines, fmt.Sprintf("  %s narrowed filtering to %d of %s node(s): %s", strings.Join(pf.SubsetPlugins, ", "),
			len(pf.NodeSubset), analysis.SnapshotSize(v.c), strings.Join(pf.NodeSubset, ", ")))
	} else {
		lines = append(lines, v.st.Dim.Render("  no node subset: every node is a candidate for Filter"))
	}
	var skipped int
	for _, p := range pf.Plugins {
		if p.Code == recorder.CodeSkip {
			skipped++
		}
	}
	if skipped > 0 {
		lines = append(lines, v.st.Dim.Render(fmt.Sprintf("  %d plugin(s) said Skip: their Filter will not run for this pod", skipped)))
	}
	return lines
}

// postFilterLines renders PostFilter: preemption statuses, candidates, victims.
func (v *CycleView) postFilterLines(w int) []string {
	pf := v.c.PostFilter
	lines := []string{"  result: " + glyph.Code(v.st, pf.Code)}
	lines = append(lines, layout.Wrap("  "+pf.Message, w, "    ")...)
	lines = append(lines, "")
	lines = append(lines, pluginstatus.Table(v.st, pf.Plugins, w)...)
	if len(pf.Candidates) > 0 {
		lines = append(lines, "", "  "+v.st.Header.Render("candidates: nodes where evicting pods would make room"))
		for _, cand := range pf.Candidates {
			mark := "  "
			if cand.Node == pf.NominatedNode {
				mark = v.st.Chosen.Render("★ ")
			}
			lines = append(lines, "  "+mark+layout.Fit(cand.Node, 20)+" victims: "+podList(cand.Victims))
		}
	}
	if pf.NominatedNode != "" {
		lines = append(lines, "", "  nominated node: "+v.st.Chosen.Render(pf.NominatedNode)+v.st.Dim.Render("  the pod waits for the victims to leave and is retried"))
	}
	if len(pf.Victims) > 0 {
		lines = append(lines, "", "  "+v.st.Header.Render("victims evicted"))
		for _, p := range pf.Victims {
			lines = append(lines, fmt.Sprintf("    %s (priority %d) on %s", p.Key(), p.Priority, p.Node))
		}
	}
	return lines
}

func podList(ps []recorder.PodRef) string {
	if len(ps) == 0 {
		return "none"
	}
	var s []string
	for _, p := range ps {
		s = append(s, fmt.Sprintf("%s (prio %d)", p.Key(), p.Priority))
	}
	return strings.Join(s, ", ")
}
