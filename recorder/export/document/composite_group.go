package document

import (
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// HierarchyRow is one group of a composite pod-group cycle's hierarchy,
// as every renderer lists it: indented by its depth, its kind and name,
// its policy, and what the cycle made of it.
type HierarchyRow struct {
	Depth              int
	Kind, Name, Policy string
	Story              string
}

// HierarchyRows lists the hierarchy of a composite pod-group cycle, the
// root first, each group before its children; none for another cycle.
func HierarchyRows(g *recorder.PodGroupCycle) []HierarchyRow {
	var rows []HierarchyRow
	for _, h := range g.Hierarchy {
		rows = append(rows, HierarchyRow{Depth: h.Depth, Kind: h.Kind, Name: h.Name,
			Policy: narrate.HierarchyPolicy(h), Story: narrate.HierarchyGroupStory(g, h)})
	}
	return rows
}
