// Package document builds, as data in words, what the documents of a
// recording draw (the text, the Markdown and the HTML): a cycle's filter
// matrix over recorder/table's, its preemption and resources lines, a
// pod-group cycle's members × nodes table, and the summary after the
// cycles. Each renderer only formats them. Out is what the Markdown and
// HTML writers share (where they write, the marks, the numbers, the first
// write error).
package document

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/table"
)

// MaxTableRows bounds the nodes a table lists; the rest are counted.
const MaxTableRows = 50

// A MatrixRow is one node's row of the filter matrix: a cell a plugin, in
// the order they ran (recorder/table decides each, as for the TUI), and
// the result in words.
type MatrixRow struct {
	Node   string
	Cells  []table.Cell
	Result string
}

// FilterMatrix is c's filter matrix: the nodes that passed, then those
// rejected, at most MaxTableRows; more counts the rows left out. A
// rejection for resources carries its numbers (sh, when known).
func FilterMatrix(c *recorder.Cycle, sh *recorder.Shortfalls) (rows []MatrixRow, more int) {
	t := table.FilterOf(c)
	for _, n := range t.Listed(c) {
		if len(rows) == MaxTableRows {
			more++
			continue
		}
		rows = append(rows, MatrixRow{Node: c.NodeName(n), Cells: t.Row(n), Result: FilterResult(t, n, sh, c.DeviceShortfalls[n])})
	}
	return rows, more
}

// FilterResult words what Filter did with node n: passed, or the plugin
// that rejected it with its reasons and, for resources, its numbers.
func FilterResult(t *table.Filter, n int, sh *recorder.Shortfalls, devices []recorder.DeviceShortfall) string {
	if t.Nodes[n].State != table.StateRejected {
		return "passed"
	}
	r := t.Nodes[n]
	why := t.Plugin(r.Plugin)
	if len(r.Reasons) > 0 {
		why += ": " + strings.Join(r.Reasons, "; ")
	}
	if sh != nil && len(sh.Nodes[n]) > 0 {
		var numbers []string
		for _, s := range sh.Nodes[n] {
			numbers = append(numbers, narrate.Shortfall(s))
		}
		why += " — " + strings.Join(numbers, "; ")
	}
	if len(devices) > 0 {
		var numbers []string
		for _, d := range devices {
			numbers = append(numbers, narrate.DeviceShortfall(d))
		}
		why += " — " + strings.Join(numbers, "; ")
	}
	return why
}

// CellsShown is the kinds of cell the rows show, in the order of their
// kinds: what a matrix's legend explains.
func CellsShown(rows []MatrixRow) []table.Cell {
	var seen [table.NumCells]bool
	for _, r := range rows {
		for _, k := range r.Cells {
			if k < table.NumCells {
				seen[k] = true
			}
		}
	}
	var out []table.Cell
	for k := range table.NumCells {
		if seen[k] {
			out = append(out, k)
		}
	}
	return out
}

// PluginLegend names each Filter plugin after its abbreviation.
func PluginLegend(f *recorder.FilterPhase) []string {
	var out []string
	for _, p := range f.Plugins {
		out = append(out, narrate.Abbrev(p)+" "+p)
	}
	return out
}

// PreemptionText words what PostFilter tried, a line each: each plugin's
// status, then each candidate node with its victims, the nominated one
// marked. A writer's markup is in text (escapes recorded words), code (a
// name) and strong.
func PreemptionText(p *recorder.PostFilterPhase, text, code, strong func(string) string) []string {
	var out []string
	for _, s := range p.Plugins {
		why := narrate.PostFilterStatus(s)
		if why != "" {
			why = ": " + why
		}
		out = append(out, text(s.Plugin+" "+s.Code+why))
	}
	for _, cand := range p.Candidates {
		var victims []string
		for _, v := range cand.Victims {
			victims = append(victims, fmt.Sprintf("%s (priority %d)", code(v.Key()), v.Priority))
		}
		line := "candidate " + code(cand.Node) + ": evict " + strings.Join(victims, ", ")
		if cand.Node == p.NominatedNode {
			line += " — " + strong("nominated")
		}
		out = append(out, line)
	}
	return out
}

// ResourcesFree words, when no node was feasible, each resource the pod
// was short of summed over the nodes NodeResourcesFit rejected: the most
// free on one node, and whether the free capacity is fragmented.
func ResourcesFree(c *recorder.Cycle, sh *recorder.Shortfalls) []string {
	if sh == nil || c.Filter == nil || len(c.Filter.Feasible) > 0 {
		return nil
	}
	var out []string
	for _, rf := range sh.Resources {
		out = append(out, narrate.ResourceFree(rf))
	}
	return out
}

// A Summary is what the outputs print after the cycles: the warnings,
// each pod not bound with what is known of it, and what the controllers
// left at the end of the run. Text, Markdown and HTML each format it.
type Summary struct {
	Warnings []string
	// NotBound are the pods that ended without a node, of pods in all.
	NotBound []NotBoundPod
	Pods     int
	// Cluster are the workloads, budgets and claims at the end, one line
	// each (narrate.Workload, Budget, Claim).
	Cluster []string
	// Stopped says the run stopped before the fixture's end.
	Stopped string
}

// A NotBoundPod is one pod that ended without a node: who (with its owner),
// where it stands with the message kubectl describe would show, and the
// lines that follow (a hint, its last queue event, suggest's command).
type NotBoundPod struct {
	Who, State string
	More       []string
}

// SummaryOf gathers what follows the cycles. suggest, if set, names the
// command that searches what would let an unschedulable pod be scheduled.
func SummaryOf(warnings []string, pods []recorder.PodState, cluster *recorder.ClusterState, suggest func(pod string) string) Summary {
	s := Summary{Warnings: warnings, Pods: len(pods)}
	for _, p := range pods {
		if recorder.Placed(p.State) {
			continue
		}
		line := p.State
		if p.Node != "" {
			line += " on " + p.Node
		}
		if p.State == recorder.PodBackoff && !p.BackoffUntil.IsZero() {
			line += fmt.Sprintf(" until %s (after %d attempt(s))", p.BackoffUntil.UTC().Format("15:04:05.000"), p.Attempts)
		}
		if msg := narrate.PodMessage(p); msg != "" {
			line += ": " + msg
		}
		who := p.Pod.Key()
		if p.Pod.Owner != nil {
			who += " (" + p.Pod.Owner.String() + ")"
		}
		nb := NotBoundPod{Who: who, State: line}
		if hint := narrate.PodHint(p); hint != "" {
			nb.More = append(nb.More, hint)
		}
		if n := len(p.Queue); n > 0 {
			nb.More = append(nb.More, "last queue event: "+narrate.QueueEvent(&p.Queue[n-1]))
		}
		if suggest != nil && p.State == recorder.PodUnschedulable && len(p.Seqs) > 0 {
			nb.More = append(nb.More, "what would let it be scheduled: "+suggest(p.Pod.Key()))
		}
		s.NotBound = append(s.NotBound, nb)
	}
	if cluster != nil {
		for _, w := range cluster.Workloads {
			s.Cluster = append(s.Cluster, narrate.Workload(w))
		}
		for _, b := range cluster.Budgets {
			s.Cluster = append(s.Cluster, narrate.Budget(b))
		}
		for _, c := range cluster.Claims {
			s.Cluster = append(s.Cluster, narrate.Claim(c))
		}
	}
	return s
}

// NotBoundTitle heads the pods not bound.
func (s Summary) NotBoundTitle() string {
	return fmt.Sprintf("pods not bound (%d of %d)", len(s.NotBound), s.Pods)
}

// ClusterTitle heads what the controllers left.
const ClusterTitle = "at the end of the run"

// UpperFirst capitalizes a title's first letter.
func UpperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
