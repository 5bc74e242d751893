package recorder

import "fmt"

// A record whose checksum is valid may still say something impossible: a
// node index past the end of its node set, a plugin index past its plugin
// list, a score list shorter than the nodes it scores. checkCycle and
// checkNodeSet are the one check both readers apply after decoding, so that
// such a record is reported as corrupt, with the field it names, and nothing
// that reads cycles (text, export, TUI) meets an index out of range.

// maxNodeIndex bounds node indices and node counts of a cycle whose node set
// is unknown, as maxIntsUnknownSet bounds its lists.
const maxNodeIndex = maxIntsUnknownSet

// indexCheck checks the indices of one cycle against its node set.
type indexCheck struct {
	// nodes is the size of the node set, or maxNodeIndex when it is unknown.
	nodes int
	// set names the node set in messages; empty when it is unknown.
	set string
}

func newIndexCheck(ns *NodeSet) indexCheck {
	if ns == nil {
		return indexCheck{nodes: maxNodeIndex}
	}
	return indexCheck{nodes: len(ns.Names), set: fmt.Sprintf("node set %d", ns.ID)}
}

// has says whether i is a node index of the set.
func (k indexCheck) has(i int) bool { return i >= 0 && i < k.nodes }

// node checks a node index.
func (k indexCheck) node(field string, i int) error {
	if k.has(i) {
		return nil
	}
	if k.set == "" {
		return fmt.Errorf("%s is %d, not a node index (0 to %d)", field, i, maxNodeIndex-1)
	}
	return fmt.Errorf("%s is %d, not a node of %s, which has %d", field, i, k.set, k.nodes)
}

// nodes checks a list of node indices.
func (k indexCheck) nodeList(field string, idx []int) error {
	for j, i := range idx {
		if !k.has(i) { // the field is named only for the error: a cycle holds thousands
			return k.node(fmt.Sprintf("%s[%d]", field, j), i)
		}
	}
	return nil
}

// count checks a number of nodes.
func (k indexCheck) count(field string, n int) error {
	if n >= 0 && n <= k.nodes {
		return nil
	}
	if k.set == "" {
		return fmt.Errorf("%s is %d, not a number of nodes (0 to %d)", field, n, maxNodeIndex)
	}
	return fmt.Errorf("%s is %d, not a number of nodes of %s, which has %d", field, n, k.set, k.nodes)
}

// plugin checks a plugin index into list, named listName; -1 ("no plugin")
// is allowed when none is set.
func plugin(field string, p int, list []string, listName string, none bool) error {
	if isPlugin(p, list, none) {
		return nil
	}
	return fmt.Errorf("%s is %d, not a plugin of %s, which lists %d", field, p, listName, len(list))
}

// isPlugin says whether p indexes list, or is -1 when none is set.
func isPlugin(p int, list []string, none bool) bool {
	return p >= 0 && p < len(list) || none && p == -1
}

// aligned checks that a list aligned with another has its length.
func aligned(field string, n int, with string, want int) error {
	if n == want {
		return nil
	}
	return fmt.Errorf("%s has %d values, but %s has %d", field, n, with, want)
}

// checkCycle checks every index and count of a decoded cycle against its
// node set (c.Nodes, when known) and its plugin lists. Field names are the
// record's JSON keys.
func checkCycle(c *Cycle) error {
	if c.Seq < 1 {
		return fmt.Errorf("seq is %d: cycles are numbered from 1", c.Seq)
	}
	if c.Attempt < 0 {
		return fmt.Errorf("attempt is %d, not a number of attempts", c.Attempt)
	}
	k := newIndexCheck(c.Nodes)
	for i, nu := range c.NodeUse {
		if err := k.node(fmt.Sprintf("nodeUse[%d].n", i), nu.Node); err != nil {
			return err
		}
	}
	// The search may start past the end of a node set that shrank since the
	// previous cycle (the scheduler takes it modulo the count), so it is only
	// bounded as an index.
	if c.SearchStart < 0 || c.SearchStart >= maxNodeIndex {
		return fmt.Errorf("searchStart is %d, not a node index (0 to %d)", c.SearchStart, maxNodeIndex-1)
	}
	if err := k.count("nodesToFind", c.NodesToFind); err != nil {
		return err
	}
	if f := c.Filter; f != nil {
		if err := checkFilter(k, f); err != nil {
			return err
		}
	}
	if d := c.Diagnostic; d != nil {
		for i, cell := range d.Cells {
			if k.has(cell.Node) && isPlugin(cell.Plugin, d.Plugins, false) {
				continue
			}
			field := fmt.Sprintf("diagnostic.cells[%d]", i)
			if err := k.node(field+".n", cell.Node); err != nil {
				return err
			}
			if err := plugin(field+".p", cell.Plugin, d.Plugins, "diagnostic.plugins", false); err != nil {
				return err
			}
		}
	}
	if s := c.Score; s != nil {
		if err := checkScore(k, s); err != nil {
			return err
		}
	}
	if s := c.Selection; s != nil {
		if err := k.nodeList("selection.top", s.Top); err != nil {
			return err
		}
	}
	return nil
}

func checkFilter(k indexCheck, f *FilterPhase) error {
	if err := k.nodeList("filter.feasible", f.Feasible); err != nil {
		return err
	}
	if err := k.nodeList("filter.discarded", f.Discarded); err != nil {
		return err
	}
	for i, r := range f.Rejected {
		if k.has(r.Node) && isPlugin(r.Plugin, f.Plugins, true) {
			continue // named only for an error, as nodeList does
		}
		field := fmt.Sprintf("filter.rejected[%d]", i)
		if err := k.node(field+".n", r.Node); err != nil {
			return err
		}
		if err := plugin(field+".p", r.Plugin, f.Plugins, "filter.plugins", true); err != nil {
			return err
		}
	}
	if err := k.count("filter.evaluated", f.Evaluated); err != nil {
		return err
	}
	if f.Durations != nil {
		if err := aligned("filter.ns", len(f.Durations), "filter.plugins", len(f.Plugins)); err != nil {
			return err
		}
	}
	if f.Calls != nil {
		if err := aligned("filter.calls", len(f.Calls), "filter.plugins", len(f.Plugins)); err != nil {
			return err
		}
	}
	return nil
}

func checkScore(k indexCheck, s *ScorePhase) error {
	if err := k.nodeList("score.nodes", s.Nodes); err != nil {
		return err
	}
	n := len(s.Nodes)
	if err := aligned("score.totals", len(s.Totals), "score.nodes", n); err != nil {
		return err
	}
	for i, p := range s.Plugins {
		field := fmt.Sprintf("score.plugins[%d]", i)
		if err := aligned(field+".raw", len(p.Raw), "score.nodes", n); err != nil {
			return err
		}
		if p.Normalized != nil {
			if err := aligned(field+".normalized", len(p.Normalized), "score.nodes", n); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkNodeSet checks that a node set's details are aligned with its names.
func checkNodeSet(ns *NodeSet) error {
	if ns.Info != nil {
		return aligned("nodeSet.info", len(ns.Info), "nodeSet.names", len(ns.Names))
	}
	return nil
}
