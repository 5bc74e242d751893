package table

import "github.com/schedscope/schedscope/recorder"

// State is where a node ended up after filtering.
type State uint8

const (
	StateFeasible State = iota
	StateDiscarded
	StateRejected
	StateNotEvaluated
)

func (s State) String() string {
	switch s {
	case StateFeasible:
		return "feasible"
	case StateDiscarded:
		return "discarded"
	case StateRejected:
		return "rejected"
	}
	return "not evaluated"
}

// Node is one node's fate in Filter.
type Node struct {
	State State
	// Plugin is the rejecting filter plugin (an index into Filter.Plugins),
	// -1 if none: a rejection can name no plugin the cycle lists.
	Plugin  int
	Code    string
	Reasons []string
	// Nominated are the pods nominated to a rejecting node that its filters
	// counted there.
	Nominated []recorder.PodRef
	// Outside is set when a PreFilter node subset left the node out.
	Outside bool
}

// Filter is a cycle's Filter phase as a node × plugin matrix: a row a node
// (by node index), a column a plugin in the order they ran.
type Filter struct {
	Plugins []string
	Skipped []bool // by plugin: PreFilter said Skip, Filter never ran it
	Nodes   []Node
	// FastOnly is set when a fast path chose the node and nothing was
	// filtered.
	FastOnly bool
}

// FilterOf is c's filter matrix. Its rows are the cycle's nodes, or when
// the node set is unknown, the nodes up to the highest index it refers to.
func FilterOf(c *recorder.Cycle) *Filter {
	n := c.NumNodes()
	if !c.NodeNamesKnown() {
		n = referencedNodes(c)
	}
	t := &Filter{Nodes: make([]Node, n)}
	for i := range t.Nodes {
		t.Nodes[i] = Node{State: StateNotEvaluated, Plugin: -1}
	}
	if f := c.Filter; f != nil {
		t.Plugins = f.Plugins
		t.Skipped = make([]bool, len(f.Plugins))
		for _, s := range f.Skipped {
			for p, name := range f.Plugins {
				if name == s {
					t.Skipped[p] = true
				}
			}
		}
		for _, i := range f.Feasible {
			if i >= 0 && i < n {
				t.Nodes[i].State = StateFeasible
			}
		}
		for _, i := range f.Discarded {
			if i >= 0 && i < n {
				t.Nodes[i].State = StateDiscarded
			}
		}
		for _, r := range f.Rejected {
			if r.Node >= 0 && r.Node < n {
				nr := &t.Nodes[r.Node]
				plugin := r.Plugin
				if plugin >= len(f.Plugins) {
					plugin = -1
				}
				nr.State, nr.Plugin, nr.Code, nr.Reasons, nr.Nominated = StateRejected, plugin, r.Code, r.Reasons, r.Nominated
			}
		}
	} else if fp := c.FastPath; fp != nil && fp.Feasible {
		t.FastOnly = true
		if i := nodeIndex(c, fp.Node); i >= 0 && i < n {
			t.Nodes[i].State = StateFeasible
		}
	}
	if pf := c.PreFilter; pf != nil && pf.NodeSubset != nil && c.NodeNamesKnown() {
		in := make(map[string]bool, len(pf.NodeSubset))
		for _, s := range pf.NodeSubset {
			in[s] = true
		}
		for i := range t.Nodes {
			t.Nodes[i].Outside = !in[c.NodeName(i)]
		}
	}
	return t
}

// Cell is what filter plugin p did with node: Skip for a plugin PreFilter
// skipped; for a rejected node, Success before the rejecting plugin, the
// plugin's status there and NotCalled after it (every plugin NotCalled when
// the rejection names no plugin).
func (t *Filter) Cell(node, plugin int) Cell {
	if plugin >= 0 && plugin < len(t.Skipped) && t.Skipped[plugin] {
		return Skip
	}
	if node < 0 || node >= len(t.Nodes) {
		return NotEvaluated
	}
	r := &t.Nodes[node]
	switch r.State {
	case StateFeasible:
		return Success
	case StateDiscarded:
		return Discarded
	case StateRejected:
		switch {
		case r.Plugin < 0 || plugin > r.Plugin:
			return NotCalled
		case plugin < r.Plugin:
			return Success
		}
		return CellOf(r.Code)
	}
	return NotEvaluated
}

// Row is node's cells, a plugin each in the order they ran.
func (t *Filter) Row(node int) []Cell {
	out := make([]Cell, len(t.Plugins))
	for p := range out {
		out[p] = t.Cell(node, p)
	}
	return out
}

// Plugin names filter plugin p, "(no plugin)" when p names none.
func (t *Filter) Plugin(p int) string {
	if p >= 0 && p < len(t.Plugins) {
		return t.Plugins[p]
	}
	return "(no plugin)"
}

// Listed is the nodes a listing of c's Filter shows, in its order: those
// that passed, in the order the scheduler handed them to scoring, then
// those rejected, as recorded (an index outside the matrix is left out).
// Discarded and unevaluated nodes are counted, not listed.
func (t *Filter) Listed(c *recorder.Cycle) []int {
	f := c.Filter
	if f == nil {
		return nil
	}
	out := make([]int, 0, len(f.Feasible)+len(f.Rejected))
	in := func(i int) bool { return i >= 0 && i < len(t.Nodes) }
	for _, i := range f.Feasible {
		if in(i) {
			out = append(out, i)
		}
	}
	for _, r := range f.Rejected {
		if in(r.Node) {
			out = append(out, r.Node)
		}
	}
	return out
}

// nodeIndex is the index of the node named name, -1.
func nodeIndex(c *recorder.Cycle, name string) int {
	if c.Nodes == nil {
		return -1
	}
	for i, n := range c.Nodes.Names {
		if n == name {
			return i
		}
	}
	return -1
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
