package document

import (
	"slices"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// MaxGroupNodes bounds the node columns of a pod-group cycle's members ×
// nodes table in a document: the nodes members were placed on first, then
// the others in the order the first member's cycle listed them.
const MaxGroupNodes = 12

// GroupRow is one member's row of a members × nodes table.
type GroupRow struct {
	Member recorder.GroupMember
	Cells  []recorder.MemberNode
	Where  string
	Seen   string
}

// GroupTable is the members × nodes table Markdown and HTML draw: the
// nodes shown, how many are left out, a row per member in the order the
// cycle took them. cycles holds the members' own cycles by number.
func GroupTable(g *recorder.PodGroupCycle, cycles map[int]*recorder.Cycle) (nodes []string, hidden int, rows []GroupRow) {
	var all []string
	for _, m := range g.Members {
		if c := cycles[m.Cycle]; m.Cycle != 0 && c != nil && c.NodeNamesKnown() {
			all = c.Nodes.Names
			break
		}
	}
	placed := map[string]bool{}
	for _, m := range g.Members {
		if m.Node != "" {
			placed[m.Node] = true
			if !slices.Contains(all, m.Node) {
				all = append(slices.Clip(all), m.Node)
			}
		}
	}
	keep := map[string]bool{}
	for _, n := range all {
		if placed[n] && len(keep) < MaxGroupNodes {
			keep[n] = true
		}
	}
	for _, n := range all {
		if len(keep) < MaxGroupNodes {
			keep[n] = true
		}
	}
	for _, n := range all {
		if keep[n] {
			nodes = append(nodes, n)
		}
	}
	for _, m := range g.Members {
		c := cycles[m.Cycle]
		if m.Cycle == 0 {
			c = nil
		}
		r := GroupRow{Member: m, Where: narrate.MemberWhere(g, m), Seen: narrate.AssumedSeen(m)}
		for _, n := range nodes {
			r.Cells = append(r.Cells, recorder.MemberOn(c, m, n))
		}
		rows = append(rows, r)
	}
	return nodes, len(all) - len(nodes), rows
}

// GroupMark is a pod-group cycle's outcome glyph.
func GroupMark(g *recorder.PodGroupCycle) string {
	switch g.Outcome.Result {
	case recorder.ResultBound:
		return "✓"
	case recorder.ResultUnschedulable:
		return "✗"
	}
	return "!"
}
