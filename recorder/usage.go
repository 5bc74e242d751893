package recorder

import (
	"iter"
	"maps"
)

// Usage rebuilds, from the NodeUse deltas of a sequence of cycles, what was placed
// on each node as each cycle saw it. Feed it cycles in recording order.
type Usage struct {
	byNode map[string]NodeUse
}

// NewUsage returns an empty Usage.
func NewUsage() *Usage { return &Usage{byNode: map[string]NodeUse{}} }

// Apply records the deltas that c carries. Entries older than what is already
// known for a node are ignored, so cycles that were emitted out of start order
// cannot roll a node back.
func (u *Usage) Apply(c *Cycle) {
	for _, nu := range c.NodeUse {
		name := c.NodeName(nu.Node)
		if old, ok := u.byNode[name]; ok && old.Generation > nu.Generation {
			continue
		}
		u.byNode[name] = nu
	}
}

// Node returns the last known use of the named node.
func (u *Usage) Node(name string) (NodeUse, bool) {
	nu, ok := u.byNode[name]
	return nu, ok
}

// All returns every node whose use is known, with its last known use.
func (u *Usage) All() iter.Seq2[string, NodeUse] { return maps.All(u.byNode) }

// UsageAt rebuilds the use of every node as cycle index upto (into cycles) saw it.
func UsageAt(cycles []*Cycle, upto int) *Usage {
	u := NewUsage()
	for i := 0; i <= upto && i < len(cycles); i++ {
		u.Apply(cycles[i])
	}
	return u
}

// ForSet returns what is known of every node of c's node set, indexed into
// that set.
func (u *Usage) ForSet(c *Cycle) []NodeUse {
	var out []NodeUse
	for i := 0; i < c.NumNodes(); i++ {
		if nu, ok := u.byNode[c.NodeName(i)]; ok {
			nu.Node = i
			out = append(out, nu)
		}
	}
	return out
}
