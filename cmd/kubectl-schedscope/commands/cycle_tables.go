package commands

import (
	"sort"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// The tables of a cycle that -o markdown and -o html draw, as data: each
// writer only formats them.

// maxTableRows bounds the nodes a table lists; the rest are counted.
const maxTableRows = 50

// A matrixCell is what one plugin did with one node in Filter.
type matrixCell uint8

const (
	cellPassed   matrixCell = iota
	cellRejected            // this plugin rejected the node
	cellSkipped             // PreFilter said Skip
	cellNotRun              // an earlier plugin rejected the node
)

// A matrixRow is one node's row of the filter matrix: a cell a plugin, in
// the order they ran, and the result in words.
type matrixRow struct {
	node   string
	cells  []matrixCell
	result string
}

// filterMatrix is c's filter matrix: the nodes that passed, then those
// rejected, at most maxTableRows; more counts the rows left out.
func filterMatrix(c *recorder.Cycle) (rows []matrixRow, more int) {
	f := c.Filter
	skipped := map[string]bool{}
	for _, p := range f.Skipped {
		skipped[p] = true
	}
	add := func(node string, rejectedAt int, result string) {
		if len(rows) == maxTableRows {
			more++
			return
		}
		r := matrixRow{node: node, result: result}
		for i, p := range f.Plugins {
			switch {
			case skipped[p]:
				r.cells = append(r.cells, cellSkipped)
			case rejectedAt < 0 || i < rejectedAt:
				r.cells = append(r.cells, cellPassed)
			case i == rejectedAt:
				r.cells = append(r.cells, cellRejected)
			default:
				r.cells = append(r.cells, cellNotRun)
			}
		}
		rows = append(rows, r)
	}
	for _, n := range f.Feasible {
		add(c.NodeName(n), -1, "passed")
	}
	for _, r := range f.Rejected {
		why := "(no plugin)"
		if r.Plugin >= 0 && r.Plugin < len(f.Plugins) {
			why = f.Plugins[r.Plugin]
		}
		if len(r.Reasons) > 0 {
			why += ": " + strings.Join(r.Reasons, "; ")
		}
		add(c.NodeName(r.Node), r.Plugin, why)
	}
	return rows, more
}

// pluginLegend names each Filter plugin after its abbreviation.
func pluginLegend(f *recorder.FilterPhase) []string {
	var out []string
	for _, p := range f.Plugins {
		out = append(out, narrate.Abbrev(p)+" "+p)
	}
	return out
}

// A preemptionLine is one line of what preemption tried: a plugin's status,
// or a candidate node with its victims.
type preemptionLine struct {
	status    string // "DefaultPreemption Success: …", or "" for a candidate
	node      string
	victims   []recorder.PodRef
	nominated bool
}

// preemptionLines are what PostFilter tried, statuses first.
func preemptionLines(p *recorder.PostFilterPhase) []preemptionLine {
	var out []preemptionLine
	for _, s := range p.Plugins {
		why := narrate.PostFilterStatus(s)
		if why != "" {
			why = ": " + why
		}
		out = append(out, preemptionLine{status: s.Plugin + " " + s.Code + why})
	}
	for _, cand := range p.Candidates {
		out = append(out, preemptionLine{node: cand.Node, victims: cand.Victims, nominated: cand.Node == p.NominatedNode})
	}
	return out
}

// scoreOrder is the scored nodes' indices, highest total first.
func scoreOrder(s *recorder.ScorePhase) []int {
	order := make([]int, len(s.Nodes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return s.Totals[order[a]] > s.Totals[order[b]] })
	return order
}
