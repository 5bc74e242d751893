package markdown

import (
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
)

// hierarchy writes a composite pod-group cycle's groups as a table, each
// name indented under its parent.
func (m *Writer) hierarchy(g *recorder.PodGroupCycle) {
	rows := document.HierarchyRows(g)
	if len(rows) == 0 {
		return
	}
	m.Printf("\n### Hierarchy\n\nEach group under its CompositePodGroup, the root first.\n\n| group | kind | policy | what the cycle made of it |\n|---|---|---|---|\n")
	for _, r := range rows {
		m.Printf("| %s`%s` | %s | %s | %s |\n", strings.Repeat("↳ ", r.Depth), Cell(r.Name), r.Kind, Cell(r.Policy), Cell(r.Story))
	}
}
