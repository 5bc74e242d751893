package text

import (
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
)

// Hierarchy prints a composite pod-group cycle's groups, each indented
// under its parent, with its policy and what the cycle made of it.
func (t *Writer) Hierarchy(g *recorder.PodGroupCycle) {
	rows := document.HierarchyRows(g)
	if len(rows) == 0 {
		return
	}
	t.Printf("\nhierarchy (each group under its CompositePodGroup):\n")
	for _, r := range rows {
		t.Printf("   %s%s %s (%s): %s\n", strings.Repeat("  ", r.Depth), r.Kind, r.Name, r.Policy, r.Story)
	}
}
