// Package analysis derives, once per cycle, what the scheduler did to each
// node (feasible, discarded, rejected by which plugin, scored where), so
// that the views render by lookup whatever the cluster size.
package analysis

import (
	"fmt"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/table"
	"github.com/schedscope/schedscope/tui/glyph"
)

// State is where a node ended up after filtering (recorder/table's).
type State = table.State

const (
	Feasible     = table.StateFeasible
	Discarded    = table.StateDiscarded
	Rejected     = table.StateRejected
	NotEvaluated = table.StateNotEvaluated
)

// Node is one node's fate in one cycle: its Filter fate (the matrix's row)
// and where it was scored.
type Node struct {
	table.Node
	// Score is the node's index into ScorePhase.Nodes, -1 when it was not scored.
	Score int
}

// Result is what the views derive once from a cycle, so that rendering is a
// lookup per visible cell whatever the cluster size.
type Result struct {
	Cycle *recorder.Cycle
	// Filter is the filter matrix every output draws.
	Filter *table.Filter
	Nodes  []Node
	Diag   map[int][]recorder.DiagnosticCell
	// FastOnly is set when a fast path chose the node and nothing was filtered.
	FastOnly bool
	Winner   int // node index of the chosen node, -1
	// Ranges caches the raw [0] and normalized [1] score column ranges.
	Ranges [2][]ColumnRange
	// ByTotal holds score indices, highest total first.
	ByTotal []int
}

// Of analyzes a cycle.
func Of(c *recorder.Cycle) *Result {
	f := table.FilterOf(c)
	n := len(f.Nodes)
	a := &Result{Cycle: c, Filter: f, Nodes: make([]Node, n), Winner: -1, FastOnly: f.FastOnly}
	for i := range a.Nodes {
		a.Nodes[i] = Node{Node: f.Nodes[i], Score: -1}
	}
	if s := c.Score; s != nil {
		for k, i := range s.Nodes {
			if i >= 0 && i < n {
				a.Nodes[i].Score = k
			}
		}
	}
	if s := c.Score; s != nil {
		a.Ranges = [2][]ColumnRange{ScoreRanges(s, false), ScoreRanges(s, true)}
		a.ByTotal = table.ScoreOrder(s)
	}
	if d := c.Diagnostic; d != nil {
		a.Diag = make(map[int][]recorder.DiagnosticCell)
		for _, cell := range d.Cells {
			a.Diag[cell.Node] = append(a.Diag[cell.Node], cell)
		}
	}
	switch sel := c.Selection; {
	case sel != nil && c.NodeNamesKnown():
		a.Winner = a.NodeIndex(sel.Node)
	case sel != nil:
		// Without names the recorded indices tell the chosen node, when
		// they point at one.
		if row := c.WinnerRow(); row >= 0 {
			a.Winner = c.Score.Nodes[row]
		} else if len(sel.Top) == 1 {
			a.Winner = sel.Top[0]
		}
		if a.Winner >= n {
			a.Winner = -1
		}
	case c.Outcome.Node != "":
		a.Winner = a.NodeIndex(c.Outcome.Node)
	}
	return a
}

// SnapshotSize is how many nodes the cycle's snapshot held, "?" when its
// node set is unknown.
func SnapshotSize(c *recorder.Cycle) string {
	if !c.NodeNamesKnown() {
		return "?"
	}
	return fmt.Sprint(c.NumNodes())
}

func (a *Result) NodeIndex(name string) int {
	if a.Cycle.Nodes == nil {
		return -1
	}
	for i, n := range a.Cycle.Nodes.Names {
		if n == name {
			return i
		}
	}
	return -1
}

// FilterCell is what the scheduler did for node × plugin (the filter
// matrix's cell, which every output draws alike).
func (a *Result) FilterCell(node, plugin int) glyph.Kind {
	return a.Filter.Cell(node, plugin)
}

// DiagCell is the diagnostic pass's result for node × plugin.
func (a *Result) DiagCell(node, plugin int) (glyph.Kind, []string) {
	for _, c := range a.Diag[node] {
		if c.Plugin == plugin {
			return glyph.Of(c.Code), c.Reasons
		}
	}
	return glyph.Success, nil
}

// Total is the node's weighted total score, ok false when it was not scored.
func (a *Result) Total(node int) (int64, bool) {
	r := &a.Nodes[node]
	if r.Score < 0 || a.Cycle.Score == nil || r.Score >= len(a.Cycle.Score.Totals) {
		return 0, false
	}
	return a.Cycle.Score.Totals[r.Score], true
}

// StatusRank orders nodes for the status sort: chosen, feasible, discarded,
// rejected (grouped by plugin), not evaluated.
func (a *Result) StatusRank(node int) int {
	if node == a.Winner {
		return 0
	}
	r := &a.Nodes[node]
	switch r.State {
	case Feasible:
		return 1
	case Discarded:
		return 2
	case Rejected:
		return 3 + r.Plugin + 1
	}
	return 1 << 20
}

// FilterPlugin names filter plugin p.
func (a *Result) FilterPlugin(p int) string { return a.Filter.Plugin(p) }

// ColumnRange is the lowest and highest value of one score column.
type ColumnRange struct{ Lo, Hi int64 }

// ScoreRanges computes per-plugin ranges once per cycle and view.
func ScoreRanges(s *recorder.ScorePhase, normalized bool) []ColumnRange {
	out := make([]ColumnRange, len(s.Plugins))
	for p := range s.Plugins {
		vals := s.Plugins[p].Raw
		if normalized {
			vals = s.Plugins[p].NormalizedScores()
		}
		for i, x := range vals {
			if i == 0 || x < out[p].Lo {
				out[p].Lo = x
			}
			if i == 0 || x > out[p].Hi {
				out[p].Hi = x
			}
		}
	}
	return out
}
