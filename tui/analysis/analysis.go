// Package analysis derives, once per cycle, what the scheduler did to each
// node (feasible, discarded, rejected by which plugin, scored where), so
// that the views render by lookup whatever the cluster size.
package analysis

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/glyph"
)

// State is where a node ended up after filtering.
type State uint8

const (
	Feasible State = iota
	Discarded
	Rejected
	NotEvaluated
)

func (s State) String() string {
	switch s {
	case Feasible:
		return "feasible"
	case Discarded:
		return "discarded"
	case Rejected:
		return "rejected"
	}
	return "not evaluated"
}

// Node is one node's fate in one cycle.
type Node struct {
	State State
	// plugin is the rejecting filter plugin (index into FilterPhase.Plugins), -1 if none.
	Plugin  int
	Code    string
	Reasons []string
	// Nominated are the pods nominated to a rejecting node that its filters
	// counted there.
	Nominated []recorder.PodRef
	// outside is set when a PreFilter node subset left the node out.
	Outside bool
	// score is the node's index into ScorePhase.Nodes, -1 when it was not scored.
	Score int
}

// Result is what the views derive once from a cycle, so that rendering is a
// lookup per visible cell whatever the cluster size.
type Result struct {
	Cycle   *recorder.Cycle
	Nodes   []Node
	Skipped []bool // by filter plugin
	Diag    map[int][]recorder.DiagnosticCell
	// fastOnly is set when a fast path chose the node and nothing was filtered.
	FastOnly bool
	Winner   int // node index of the chosen node, -1
	// ranges caches the raw [0] and normalized [1] score column ranges.
	Ranges [2][]ColumnRange
	// byTotal holds score indices, highest total first.
	ByTotal []int
}

// Of analyzes a cycle.
func Of(c *recorder.Cycle) *Result {
	n := c.NumNodes()
	if !c.NodeNamesKnown() {
		n = referencedNodes(c)
	}
	a := &Result{Cycle: c, Nodes: make([]Node, n), Winner: -1}
	for i := range a.Nodes {
		a.Nodes[i] = Node{State: NotEvaluated, Plugin: -1, Score: -1}
	}
	if f := c.Filter; f != nil {
		a.Skipped = make([]bool, len(f.Plugins))
		for _, s := range f.Skipped {
			for p, name := range f.Plugins {
				if name == s {
					a.Skipped[p] = true
				}
			}
		}
		for _, i := range f.Feasible {
			if i >= 0 && i < n {
				a.Nodes[i].State = Feasible
			}
		}
		for _, i := range f.Discarded {
			if i >= 0 && i < n {
				a.Nodes[i].State = Discarded
			}
		}
		for _, r := range f.Rejected {
			if r.Node >= 0 && r.Node < n {
				nr := &a.Nodes[r.Node]
				nr.State, nr.Plugin, nr.Code, nr.Reasons, nr.Nominated = Rejected, r.Plugin, r.Code, r.Reasons, r.Nominated
			}
		}
	} else if fp := c.FastPath; fp != nil && fp.Feasible {
		a.FastOnly = true
		if i := a.NodeIndex(fp.Node); i >= 0 {
			a.Nodes[i].State = Feasible
		}
	}
	if pf := c.PreFilter; pf != nil && pf.NodeSubset != nil && c.NodeNamesKnown() {
		in := make(map[string]bool, len(pf.NodeSubset))
		for _, s := range pf.NodeSubset {
			in[s] = true
		}
		for i := range a.Nodes {
			a.Nodes[i].Outside = !in[c.NodeName(i)]
		}
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
		a.ByTotal = make([]int, len(s.Totals))
		for i := range a.ByTotal {
			a.ByTotal[i] = i
		}
		slices.SortStableFunc(a.ByTotal, func(x, y int) int { return cmp.Compare(s.Totals[y], s.Totals[x]) })
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

// referencedNodes is how many nodes a cycle whose node set is unknown shows:
// up to the highest node index it refers to.
func referencedNodes(c *recorder.Cycle) int {
	n := -1
	see := func(idx ...int) {
		for _, i := range idx {
			n = max(n, i)
		}
	}
	if f := c.Filter; f != nil {
		see(f.Feasible...)
		see(f.Discarded...)
		for _, r := range f.Rejected {
			see(r.Node)
		}
	}
	if d := c.Diagnostic; d != nil {
		for _, cell := range d.Cells {
			see(cell.Node)
		}
	}
	if s := c.Score; s != nil {
		see(s.Nodes...)
	}
	if sel := c.Selection; sel != nil {
		see(sel.Top...)
	}
	return min(n+1, maxUnknownNodes)
}

// maxUnknownNodes bounds the rows of a cycle whose node set is unknown.
const maxUnknownNodes = 1 << 17

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

// FilterCell is what the scheduler did for node × plugin.
func (a *Result) FilterCell(node, plugin int) glyph.Kind {
	if plugin < len(a.Skipped) && a.Skipped[plugin] {
		return glyph.Skip
	}
	r := &a.Nodes[node]
	switch r.State {
	case Feasible:
		return glyph.Success
	case Discarded:
		return glyph.Discarded
	case Rejected:
		switch {
		case r.Plugin < 0 || plugin > r.Plugin:
			return glyph.NotCalled
		case plugin < r.Plugin:
			return glyph.Success
		}
		return glyph.Of(r.Code)
	}
	return glyph.NotEvaluated
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
func (a *Result) FilterPlugin(p int) string {
	if f := a.Cycle.Filter; f != nil && p >= 0 && p < len(f.Plugins) {
		return f.Plugins[p]
	}
	return "(no plugin)"
}

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
