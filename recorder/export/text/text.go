// Package text words a recording's cycles for a terminal (explain,
// replay --no-tui, live --no-tui, and the headless commands' prose): a
// walk through each cycle's phases, a pod's story, pod-group cycles and the
// summary after the cycles, every recorded string made visible.
package text

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/table"
	"github.com/schedscope/schedscope/recorder/visible"
)

// MaxRows bounds per-node listings in text output; the rest is summarised.
const MaxRows = 40

// Writer renders cycles as a walk through the phases, for people.
// Everything it prints from data (names, reasons, messages, versions) goes
// through Printf, which makes control characters visible: a recording or a
// cluster cannot move the cursor, retitle the terminal or forge lines.
type Writer struct {
	w   io.Writer
	err error
	// Short, if set, gives the numbers behind a cycle's resource
	// rejections (recorder.ShortfallsOf).
	Short func(*recorder.Cycle) *recorder.Shortfalls
}

// New is a Writer that writes to w.
func New(w io.Writer) *Writer { return &Writer{w: w} }

// Printf prints format, whose string arguments come from data: each is
// printed as visible.String shows it.
func (t *Writer) Printf(format string, a ...any) {
	if t.err != nil {
		return
	}
	args := make([]any, len(a))
	for i, v := range a {
		switch v := v.(type) {
		case string:
			args[i] = visible.String(v)
		case []string:
			vs := make([]string, len(v))
			for j, s := range v {
				vs[j] = visible.String(s)
			}
			args[i] = vs
		default:
			args[i] = v
		}
	}
	_, t.err = fmt.Fprintf(t.w, format, args...)
}

// Header introduces the cycles; source says where they come from ("fixture
// default.yaml", "recording x.rec").
func (t *Writer) Header(h recorder.Header, source string, warnings []string) {
	if h.Unreadable {
		t.Printf("%s · header unreadable: schedscope and kube-scheduler versions and profiles unknown\n", source)
	} else {
		t.Printf("schedscope %s · kube-scheduler %s%s · %s\n", h.SchedscopeVersion, h.KubernetesVersion, document.GatesNote(h), source)
	}
	for _, p := range h.Profiles {
		var parts []string
		for _, ep := range p.ExtensionPoints {
			if ep.Name == recorder.PhaseScore {
				var ws []string
				for _, pl := range ep.Plugins {
					ws = append(ws, fmt.Sprintf("%s×%d", pl.Name, pl.Weight))
				}
				parts = append(parts, "Score weights: "+strings.Join(ws, ", "))
			}
		}
		t.Printf("profile %s · %s\n", p.SchedulerName, strings.Join(parts, "; "))
	}
	for _, w := range warnings {
		t.Printf("warning: %s\n", w)
	}
	t.Printf("\n")
}

func (t *Writer) Cycle(c *recorder.Cycle) {
	rule := strings.Repeat("─", 78)
	t.Printf("%s\n", rule)
	owner := ""
	if c.Pod.Owner != nil {
		owner = " (" + c.Pod.Owner.String() + ")"
	}
	t.Printf("cycle %d · pod %s%s · profile %s · attempt %d · %s\n", c.Seq, c.Pod.Key(), owner, c.Profile, c.Attempt, narrate.Duration(c.Duration))
	message := c.Outcome.Message
	if strings.TrimSpace(message) == "" {
		message = "(no message)"
	}
	switch c.Outcome.Result {
	case recorder.ResultBound:
		t.Printf("result: bound to %s\n", c.Outcome.Node)
	case recorder.ResultUnschedulable:
		t.Printf("result: Unschedulable\n  \"%s\"\n", message)
		if c.Outcome.NominatedNode != "" {
			t.Printf("  nominated node: %s (preemption made room there; the pod will be retried)\n", c.Outcome.NominatedNode)
		}
		for _, l := range document.ResourcesFree(c, t.shortfalls(c)) {
			t.Printf("  %s\n", l)
		}
	default:
		t.Printf("result: %s: %s\n", c.Outcome.Result, message)
	}
	t.Printf("%s\n", rule)
	if !c.NodeNamesKnown() && (c.NodeSetID != 0 || c.Filter != nil || c.Score != nil) {
		t.Printf("node names unknown: node set %d is missing from the recording or damaged; nodes are shown by index (#0, #1, …).\n", c.NodeSetID)
	}
	t.preFilter(c)
	t.fastPath(c)
	t.filter(c)
	t.diagnostic(c)
	t.postFilter(c)
	t.score(c)
	t.selection(c)
	t.binding(c)
	t.Printf("\n")
}

// shortfalls are the numbers behind c's resource rejections, or nil.
func (t *Writer) shortfalls(c *recorder.Cycle) *recorder.Shortfalls {
	if t.Short == nil {
		return nil
	}
	return t.Short(c)
}

func (t *Writer) preFilter(c *recorder.Cycle) {
	pf := c.PreFilter
	if pf == nil {
		return
	}
	t.Printf("\n1. PreFilter — %s\n", narrate.PhaseHeading(recorder.PhasePreFilter))
	for _, p := range pf.Plugins {
		t.Printf("   %-34s %s%s\n", p.Plugin, p.Code, reasons(p.Code, p.Reasons))
	}
	if pf.NodeSubset != nil {
		t.Printf("   → %s\n", narrate.NodeSubset(pf, strconv.Itoa(c.NumNodes()), 10))
	}
	if pf.Code != recorder.CodeSuccess {
		t.Printf("   → %s.\n", narrate.PreFilterStopped(pf))
	}
}

func (t *Writer) fastPath(c *recorder.Cycle) {
	fp := c.FastPath
	if fp == nil {
		return
	}
	text := narrate.FastPath(fp)
	t.Printf("\n   %s.\n", strings.ToUpper(text[:1])+text[1:])
}

func (t *Writer) filter(c *recorder.Cycle) {
	f := c.Filter
	if f == nil {
		return
	}
	n := c.NumNodes()
	t.Printf("\n2. Filter — %s\n", narrate.PhaseHeading(recorder.PhaseFilter))
	t.Printf("   plugins: %s\n", strings.Join(f.Plugins, " → "))
	if len(f.Skipped) > 0 {
		t.Printf("   skipped (PreFilter said Skip): %s\n", strings.Join(f.Skipped, ", "))
	}
	switch {
	case c.NodeNamesKnown() && n == 0:
		t.Printf("   the cluster has no nodes: there was nothing to filter.\n")
	case c.NodeNamesKnown():
		t.Printf("   %d of %d nodes evaluated, starting at index %d; the search stops after %d feasible node(s).\n", f.Evaluated, n, c.SearchStart, c.NodesToFind)
	default:
		t.Printf("   %d nodes evaluated (of a node set that is unknown), starting at index %d; the search stops after %d feasible node(s).\n", f.Evaluated, c.SearchStart, c.NodesToFind)
	}
	sh := t.shortfalls(c)
	m := table.FilterOf(c)
	rows := 0
	for _, i := range m.Listed(c) {
		if rows == MaxRows {
			rows++
			continue
		}
		rows++
		r := m.Nodes[i]
		if r.State != table.StateRejected {
			t.Printf("   ✓ %-30s passed all filters\n", c.NodeName(i))
			continue
		}
		t.Printf("   ✗ %-30s %s: %s%s\n", c.NodeName(i), m.Plugin(r.Plugin), r.Code, reasons(r.Code, r.Reasons))
		if sh != nil {
			for _, s := range sh.Nodes[i] {
				t.Printf("     %s\n", narrate.Shortfall(s))
			}
		}
		for _, d := range c.DeviceShortfalls[i] {
			t.Printf("     %s\n", narrate.DeviceShortfall(d))
		}
		if n := narrate.Nominated(r.Nominated); n != "" {
			t.Printf("     %-30s (%s)\n", "", n)
		}
	}
	if rows > MaxRows {
		t.Printf("   … and %d more node(s)\n", rows-MaxRows)
	}
	if len(f.Discarded) > 0 {
		t.Printf("   %s.\n", narrate.NodesNotKept(len(f.Discarded)))
	}
	if unevaluated := n - f.Evaluated; unevaluated > 0 && c.PreFilter != nil && c.PreFilter.Code == recorder.CodeSuccess {
		t.Printf("   %d node(s) were never evaluated (percentageOfNodesToScore or a PreFilter node subset).\n", unevaluated)
	}
	if len(f.Feasible) == 0 {
		t.Printf("   → no node is feasible.\n")
	}
}

func (t *Writer) diagnostic(c *recorder.Cycle) {
	d := c.Diagnostic
	if d == nil {
		return
	}
	t.Printf("\n   Diagnostic pass (not what the scheduler did: every filter on every node, past the first failure):\n")
	byNode := map[int][]string{}
	for _, cell := range d.Cells {
		if cell.Code == recorder.CodeSkip {
			continue
		}
		byNode[cell.Node] = append(byNode[cell.Node], d.Plugins[cell.Plugin]+reasons(cell.Code, cell.Reasons))
	}
	nodes := make([]int, 0, len(byNode))
	for i := range byNode {
		nodes = append(nodes, i)
	}
	sort.Ints(nodes)
	for k, i := range nodes {
		if k == MaxRows {
			t.Printf("   … and %d more node(s)\n", len(nodes)-MaxRows)
			break
		}
		t.Printf("   %-32s %s\n", c.NodeName(i), strings.Join(byNode[i], "; "))
	}
	if passing := c.NumNodes() - len(nodes); passing > 0 {
		t.Printf("   %d node(s) pass every filter.\n", passing)
	}
}

func (t *Writer) postFilter(c *recorder.Cycle) {
	p := c.PostFilter
	if p == nil {
		return
	}
	t.Printf("\n3. PostFilter — %s\n", narrate.PhaseHeading(recorder.PhasePostFilter))
	for _, s := range p.Plugins {
		why := narrate.PostFilterStatus(s)
		if why != "" {
			why = ": " + why
		}
		t.Printf("   %-34s %s%s\n", s.Plugin, s.Code, why)
	}
	for _, cand := range p.Candidates {
		var victims []string
		for _, v := range cand.Victims {
			victims = append(victims, fmt.Sprintf("%s (priority %d)", v.Key(), v.Priority))
		}
		mark := " "
		if cand.Node == p.NominatedNode {
			mark = "*"
		}
		t.Printf("  %s candidate %s: evict %s", mark, cand.Node, strings.Join(victims, ", "))
		if cand.PDBViolations > 0 {
			t.Printf(" — violates %d PodDisruptionBudget(s)", cand.PDBViolations)
		}
		t.Printf("\n")
	}
	for _, r := range p.Rejected {
		t.Printf("    not a candidate %s: %s%s\n", r.Node, r.Code, reasons(r.Code, r.Reasons))
	}
	if p.NominatedNode != "" {
		t.Printf("   → nominated node %s\n", p.NominatedNode)
	} else if p.Message != "" {
		t.Printf("   → %s\n", p.Message)
	}
	for _, v := range p.Victims {
		t.Printf("   victim: %s (priority %d) on %s\n", v.Key(), v.Priority, v.Node)
	}
}

func (t *Writer) score(c *recorder.Cycle) {
	s := c.Score
	if s == nil {
		return
	}
	t.Printf("\n4. PreScore / Score / NormalizeScore — %s\n", narrate.PhaseHeading(recorder.PhaseScore))
	for _, p := range s.PreScore {
		if p.Code != recorder.CodeSuccess {
			t.Printf("   %-34s PreScore %s: not scored\n", p.Plugin, p.Code)
		}
	}
	if len(s.Plugins) == 0 || len(s.Nodes) == 0 {
		return
	}
	order := table.ScoreOrder(s)
	t.Printf("   %-24s", "node")
	for _, p := range s.Plugins {
		t.Printf(" %s", Pad(narrate.Abbrev(p.Name), 11))
	}
	t.Printf(" │ total\n")
	t.Printf("   %-24s", "")
	for _, p := range s.Plugins {
		t.Printf(" %s", Pad(fmt.Sprintf("×%d", p.Weight), 11))
	}
	t.Printf(" │\n")
	for k, i := range order {
		if k == MaxRows {
			t.Printf("   … and %d more node(s)\n", len(order)-MaxRows)
			break
		}
		t.Printf("   %-24s", c.NodeName(s.Nodes[i]))
		for pi, p := range s.Plugins {
			cell := fmt.Sprintf("%d", p.Raw[i])
			if p.Normalized != nil {
				cell += fmt.Sprintf("→%d", p.Normalized[i])
			}
			cell += fmt.Sprintf("=%d", s.Weighted(pi, i))
			t.Printf(" %s", Pad(cell, 11))
		}
		t.Printf(" │ %d\n", s.Totals[i])
	}
	t.Printf("   cells read raw→normalized=weighted (normalized is omitted when the plugin does not normalize).\n")
	var legend []string
	for _, p := range s.Plugins {
		legend = append(legend, narrate.Abbrev(p.Name)+"="+p.Name)
	}
	t.Printf("   %s\n", strings.Join(legend, ", "))
}

func (t *Writer) selection(c *recorder.Cycle) {
	sel := c.Selection
	if sel == nil {
		return
	}
	t.Printf("\n5. Select host — %s: %s\n", sel.Node, narrate.Selection(c))
	for _, l := range narrate.Losers(c, 10) {
		t.Printf("   %s\n", l)
	}
}

func (t *Writer) binding(c *recorder.Cycle) {
	phases := []struct {
		name string
		ps   []recorder.PluginStatus
	}{
		{recorder.PhaseReserve, c.Reserve}, {recorder.PhasePermit, c.Permit}, {recorder.PhasePreBind, c.PreBind},
		{recorder.PhaseBind, c.Bind}, {recorder.PhasePostBind, c.PostBind}, {recorder.PhaseUnreserve, c.Unreserve},
	}
	printed := false
	for _, ph := range phases {
		if len(ph.ps) == 0 {
			continue
		}
		if !printed {
			t.Printf("\n6. Reserve → Permit → PreBind → Bind → PostBind\n")
			printed = true
		}
		var parts []string
		for _, p := range ph.ps {
			parts = append(parts, fmt.Sprintf("%s %s%s (%s)", p.Plugin, p.Code, reasons(p.Code, p.Reasons), narrate.Duration(p.Duration)))
		}
		t.Printf("   %-10s %s\n", ph.name, strings.Join(parts, ", "))
	}
}

// Observed says what a live cluster's scheduler did with a pod.
func (t *Writer) Observed(ob *recorder.Observed) {
	verdict := "disagrees"
	if ob.Agrees() {
		verdict = "agrees"
	}
	node := ob.Node
	if node == "" {
		node = "no node (Unschedulable)"
	}
	if ob.Seq == 0 {
		t.Printf("observed %s: the cluster chose %s; schedscope ran no cycle for it\n", ob.Pod.Key(), node)
		return
	}
	predicted := ob.Predicted
	switch {
	case ob.ViaPreemption():
		predicted, verdict = ob.Nominated+" after preemption", "agrees via preemption"
	case predicted == "":
		predicted = "no node"
	}
	t.Printf("observed %s: the cluster chose %s; schedscope predicted %s in cycle %d: %s\n", ob.Pod.Key(), node, predicted, ob.Seq, verdict)
}

// reasons returns ": r1; r2" for the reasons of a status with code; blank
// reasons do not count, and a failure without any says so.
func reasons(code string, r []string) string {
	r = slices.DeleteFunc(slices.Clone(r), func(s string) bool { return strings.TrimSpace(s) == "" })
	if len(r) == 0 {
		switch code {
		case recorder.CodeUnschedulable, recorder.CodeUnschedulableAndUnresolvable, recorder.CodeError:
			return ": (no reason given)"
		}
		return ""
	}
	return ": " + strings.Join(r, "; ")
}

func limit(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(slices.Clone(s[:n]), fmt.Sprintf("… %d more", len(s)-n))
}

// Pad pads s with spaces to n runes.
func Pad(s string, n int) string {
	if l := len([]rune(s)); l < n {
		return s + strings.Repeat(" ", n-l)
	}
	return s
}

// Story tells one pod's story: each of its cycles (of cycles, which may hold
// other pods' too) and queue events in time order, one line each.
func (t *Writer) Story(p recorder.PodState, cycles []*recorder.Cycle) {
	head := p.State
	if p.Node != "" {
		head += " on " + p.Node
	}
	t.Printf("story of %s (%s):\n", p.Pod.Key(), head)
	for _, line := range narrate.PodStory(p, cycles) {
		t.Printf("  %s\n", line)
	}
	t.Printf("\n")
}

// Summary ends the text: one line per pod that is not bound (nor arrived
// bound, nor deleted) with its state and the message kubectl describe
// would show, then what it needs (a hint for a pod never attempted, its
// last queue event, suggest's command), each under it; then what the
// run's controllers left: each workload's pods and where they went, each
// budget's allowed disruptions, each claim's phase. (The warnings are in
// the header.)
func (t *Writer) Summary(s document.Summary) {
	if len(s.NotBound) > 0 {
		t.Printf("%s:\n", s.NotBoundTitle())
	}
	for _, p := range s.NotBound {
		t.Printf("  %s  %s\n", p.Who, p.State)
		for _, l := range p.More {
			t.Printf("      %s\n", l)
		}
	}
	if len(s.Cluster) > 0 {
		t.Printf("%s:\n", document.ClusterTitle)
	}
	for _, l := range s.Cluster {
		t.Printf("  %s\n", l)
	}
	if s.Stopped != "" {
		t.Printf("%s\n", s.Stopped)
	}
}

// Err is the first error writing failed with, if any.
func (t *Writer) Err() error { return t.err }
