package commands

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/table"
)

// The tables of a cycle that -o markdown and -o html draw, as data: each
// writer only formats them.

// maxTableRows bounds the nodes a table lists; the rest are counted.
const maxTableRows = 50

// A matrixRow is one node's row of the filter matrix: a cell a plugin, in
// the order they ran (recorder/table decides each, as for the TUI), and
// the result in words.
type matrixRow struct {
	node   string
	cells  []table.Cell
	result string
}

// filterMatrix is c's filter matrix: the nodes that passed, then those
// rejected, at most maxTableRows; more counts the rows left out. A
// rejection for resources carries its numbers (sh, when known).
func filterMatrix(c *recorder.Cycle, sh *recorder.Shortfalls) (rows []matrixRow, more int) {
	t := table.FilterOf(c)
	for _, n := range t.Listed(c) {
		if len(rows) == maxTableRows {
			more++
			continue
		}
		rows = append(rows, matrixRow{node: c.NodeName(n), cells: t.Row(n), result: filterResult(t, n, sh, c.DeviceShortfalls[n])})
	}
	return rows, more
}

// filterResult words what Filter did with node n: passed, or the plugin
// that rejected it with its reasons and, for resources, its numbers.
func filterResult(t *table.Filter, n int, sh *recorder.Shortfalls, devices []recorder.DeviceShortfall) string {
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

// cellsShown is the kinds of cell the rows show, in the order of their
// kinds: what a matrix's legend explains.
func cellsShown(rows []matrixRow) []table.Cell {
	var seen [table.NumCells]bool
	for _, r := range rows {
		for _, k := range r.cells {
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

// pluginLegend names each Filter plugin after its abbreviation.
func pluginLegend(f *recorder.FilterPhase) []string {
	var out []string
	for _, p := range f.Plugins {
		out = append(out, narrate.Abbrev(p)+" "+p)
	}
	return out
}

// preemptionText words what PostFilter tried, a line each: each plugin's
// status, then each candidate node with its victims, the nominated one
// marked. A writer's markup is in text (escapes recorded words), code (a
// name) and strong.
func preemptionText(p *recorder.PostFilterPhase, text, code, strong func(string) string) []string {
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

// resourcesFree words, when no node was feasible, each resource the pod
// was short of summed over the nodes NodeResourcesFit rejected: the most
// free on one node, and whether the free capacity is fragmented.
func resourcesFree(c *recorder.Cycle, sh *recorder.Shortfalls) []string {
	if sh == nil || c.Filter == nil || len(c.Filter.Feasible) > 0 {
		return nil
	}
	var out []string
	for _, rf := range sh.Resources {
		out = append(out, narrate.ResourceFree(rf))
	}
	return out
}

// A runSummary is what the outputs print after the cycles: the warnings,
// each pod not bound with what is known of it, and what the controllers
// left at the end of the run. Text, Markdown and HTML each format it.
type runSummary struct {
	warnings []string
	// notBound are the pods that ended without a node, of pods in all.
	notBound []notBoundPod
	pods     int
	// cluster are the workloads, budgets and claims at the end, one line
	// each (narrate.Workload, Budget, Claim).
	cluster []string
	// stopped says the run stopped before the fixture's end.
	stopped string
}

// A notBoundPod is one pod that ended without a node: who (with its owner),
// where it stands with the message kubectl describe would show, and the
// lines that follow (a hint, its last queue event, suggest's command).
type notBoundPod struct {
	who, state string
	more       []string
}

// summaryOf gathers what follows the cycles. suggest, if set, names the
// command that searches what would let an unschedulable pod be scheduled.
func summaryOf(warnings []string, pods []recorder.PodState, cluster *recorder.ClusterState, suggest func(pod string) string) runSummary {
	s := runSummary{warnings: warnings, pods: len(pods)}
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
		nb := notBoundPod{who: who, state: line}
		if hint := narrate.PodHint(p); hint != "" {
			nb.more = append(nb.more, hint)
		}
		if n := len(p.Queue); n > 0 {
			nb.more = append(nb.more, "last queue event: "+narrate.QueueEvent(&p.Queue[n-1]))
		}
		if suggest != nil && p.State == recorder.PodUnschedulable {
			nb.more = append(nb.more, "what would let it be scheduled: "+suggest(p.Pod.Key()))
		}
		s.notBound = append(s.notBound, nb)
	}
	if cluster != nil {
		for _, w := range cluster.Workloads {
			s.cluster = append(s.cluster, narrate.Workload(w))
		}
		for _, b := range cluster.Budgets {
			s.cluster = append(s.cluster, narrate.Budget(b))
		}
		for _, c := range cluster.Claims {
			s.cluster = append(s.cluster, narrate.Claim(c))
		}
	}
	return s
}

// notBoundTitle heads the pods not bound.
func (s runSummary) notBoundTitle() string {
	return fmt.Sprintf("pods not bound (%d of %d)", len(s.notBound), s.pods)
}

// clusterTitle heads what the controllers left.
const clusterTitle = "at the end of the run"
