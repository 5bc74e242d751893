package podgroup

import (
	"strings"

	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/tui/layout"
)

// hierarchyLines are the groups of a composite pod-group cycle, each under
// its CompositePodGroup, with its policy and what the cycle made of it;
// none for a cycle of a PodGroup alone.
func (m Model) hierarchyLines() []string {
	rows := document.HierarchyRows(m.Cycle())
	if len(rows) == 0 {
		return nil
	}
	st, w := m.st, m.w
	lines := []string{st.Bold.Render("Hierarchy")}
	for _, r := range rows {
		indent := "  " + strings.Repeat("  ", r.Depth)
		head := indent + st.Bold.Render(r.Kind+" "+r.Name) + st.Dim.Render(" ("+r.Policy+")")
		lines = append(lines, layout.Wrap(head, w, indent+"  ")...)
		lines = append(lines, layout.Wrap(indent+"  "+r.Story, w, indent+"  ")...)
	}
	return append(lines, "")
}
