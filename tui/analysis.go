package tui

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/glyph"
)

// nodeState is where a node ended up after filtering.
type nodeState uint8

const (
	stFeasible nodeState = iota
	stDiscarded
	stRejected
	stNotEvaluated
)

func (s nodeState) String() string {
	switch s {
	case stFeasible:
		return "feasible"
	case stDiscarded:
		return "discarded"
	case stRejected:
		return "rejected"
	}
	return "not evaluated"
}

// nodeResult is one node's fate in one cycle.
type nodeResult struct {
	state nodeState
	// plugin is the rejecting filter plugin (index into FilterPhase.Plugins), -1 if none.
	plugin  int
	code    string
	reasons []string
	// outside is set when a PreFilter node subset left the node out.
	outside bool
	// score is the node's index into ScorePhase.Nodes, -1 when it was not scored.
	score int
}

// analysis is what the views derive once from a cycle, so that rendering is a
// lookup per visible cell whatever the cluster size.
type analysis struct {
	c       *recorder.Cycle
	nodes   []nodeResult
	skipped []bool // by filter plugin
	diag    map[int][]recorder.DiagnosticCell
	// fastOnly is set when a fast path chose the node and nothing was filtered.
	fastOnly bool
	winner   int // node index of the chosen node, -1
	// ranges caches the raw [0] and normalized [1] score column ranges.
	ranges [2][]columnRange
	// byTotal holds score indices, highest total first.
	byTotal []int
}

func analyze(c *recorder.Cycle) *analysis {
	n := c.NumNodes()
	if !c.NodeNamesKnown() {
		n = referencedNodes(c)
	}
	a := &analysis{c: c, nodes: make([]nodeResult, n), winner: -1}
	for i := range a.nodes {
		a.nodes[i] = nodeResult{state: stNotEvaluated, plugin: -1, score: -1}
	}
	if f := c.Filter; f != nil {
		a.skipped = make([]bool, len(f.Plugins))
		for _, s := range f.Skipped {
			for p, name := range f.Plugins {
				if name == s {
					a.skipped[p] = true
				}
			}
		}
		for _, i := range f.Feasible {
			if i >= 0 && i < n {
				a.nodes[i].state = stFeasible
			}
		}
		for _, i := range f.Discarded {
			if i >= 0 && i < n {
				a.nodes[i].state = stDiscarded
			}
		}
		for _, r := range f.Rejected {
			if r.Node >= 0 && r.Node < n {
				nr := &a.nodes[r.Node]
				nr.state, nr.plugin, nr.code, nr.reasons = stRejected, r.Plugin, r.Code, r.Reasons
			}
		}
	} else if fp := c.FastPath; fp != nil && fp.Feasible {
		a.fastOnly = true
		if i := a.nodeIndex(fp.Node); i >= 0 {
			a.nodes[i].state = stFeasible
		}
	}
	if pf := c.PreFilter; pf != nil && pf.NodeSubset != nil && c.NodeNamesKnown() {
		in := make(map[string]bool, len(pf.NodeSubset))
		for _, s := range pf.NodeSubset {
			in[s] = true
		}
		for i := range a.nodes {
			a.nodes[i].outside = !in[c.NodeName(i)]
		}
	}
	if s := c.Score; s != nil {
		for k, i := range s.Nodes {
			if i >= 0 && i < n {
				a.nodes[i].score = k
			}
		}
	}
	if s := c.Score; s != nil {
		a.ranges = [2][]columnRange{scoreRanges(s, false), scoreRanges(s, true)}
		a.byTotal = make([]int, len(s.Totals))
		for i := range a.byTotal {
			a.byTotal[i] = i
		}
		slices.SortStableFunc(a.byTotal, func(x, y int) int { return cmp.Compare(s.Totals[y], s.Totals[x]) })
	}
	if d := c.Diagnostic; d != nil {
		a.diag = make(map[int][]recorder.DiagnosticCell)
		for _, cell := range d.Cells {
			a.diag[cell.Node] = append(a.diag[cell.Node], cell)
		}
	}
	switch sel := c.Selection; {
	case sel != nil && c.NodeNamesKnown():
		a.winner = a.nodeIndex(sel.Node)
	case sel != nil:
		// Without names the recorded indices tell the chosen node, when
		// they point at one.
		if row := c.WinnerRow(); row >= 0 {
			a.winner = c.Score.Nodes[row]
		} else if len(sel.Top) == 1 {
			a.winner = sel.Top[0]
		}
		if a.winner >= n {
			a.winner = -1
		}
	case c.Outcome.Node != "":
		a.winner = a.nodeIndex(c.Outcome.Node)
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

// snapshotSize is how many nodes the cycle's snapshot held, "?" when its
// node set is unknown.
func snapshotSize(c *recorder.Cycle) string {
	if !c.NodeNamesKnown() {
		return "?"
	}
	return fmt.Sprint(c.NumNodes())
}

func (a *analysis) nodeIndex(name string) int {
	if a.c.Nodes == nil {
		return -1
	}
	for i, n := range a.c.Nodes.Names {
		if n == name {
			return i
		}
	}
	return -1
}

// filterCell is what the scheduler did for node × plugin.
func (a *analysis) filterCell(node, plugin int) glyph.Kind {
	if plugin < len(a.skipped) && a.skipped[plugin] {
		return glyph.Skip
	}
	r := &a.nodes[node]
	switch r.state {
	case stFeasible:
		return glyph.Success
	case stDiscarded:
		return glyph.Discarded
	case stRejected:
		switch {
		case r.plugin < 0 || plugin > r.plugin:
			return glyph.NotCalled
		case plugin < r.plugin:
			return glyph.Success
		}
		return glyph.Of(r.code)
	}
	return glyph.NotEvaluated
}

// diagCell is the diagnostic pass's result for node × plugin.
func (a *analysis) diagCell(node, plugin int) (glyph.Kind, []string) {
	for _, c := range a.diag[node] {
		if c.Plugin == plugin {
			return glyph.Of(c.Code), c.Reasons
		}
	}
	return glyph.Success, nil
}

// total is the node's weighted total score, ok false when it was not scored.
func (a *analysis) total(node int) (int64, bool) {
	r := &a.nodes[node]
	if r.score < 0 || a.c.Score == nil || r.score >= len(a.c.Score.Totals) {
		return 0, false
	}
	return a.c.Score.Totals[r.score], true
}

// statusRank orders nodes for the status sort: chosen, feasible, discarded,
// rejected (grouped by plugin), not evaluated.
func (a *analysis) statusRank(node int) int {
	if node == a.winner {
		return 0
	}
	r := &a.nodes[node]
	switch r.state {
	case stFeasible:
		return 1
	case stDiscarded:
		return 2
	case stRejected:
		return 3 + r.plugin + 1
	}
	return 1 << 20
}

// filterPlugin names filter plugin p.
func (a *analysis) filterPlugin(p int) string {
	if f := a.c.Filter; f != nil && p >= 0 && p < len(f.Plugins) {
		return f.Plugins[p]
	}
	return "(no plugin)"
}
