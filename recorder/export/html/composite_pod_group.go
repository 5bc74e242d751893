package html

import (
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
)

// hierarchy draws a composite pod-group cycle's groups as the Markdown's
// hierarchy writes them.
func (h *Writer) hierarchy(g *recorder.PodGroupCycle) {
	rows := document.HierarchyRows(g)
	if len(rows) == 0 {
		return
	}
	h.Printf("<h3>Hierarchy</h3>\n<p>Each group under its CompositePodGroup, the root first.</p>\n<table><tr><th class=\"node\">group</th><th>kind</th><th>policy</th><th>what the cycle made of it</th></tr>\n")
	for _, r := range rows {
		h.Printf("<tr><td class=\"node\">%s<code>%s</code></td><td>%s</td><td class=\"why\">%s</td><td class=\"why\">%s</td></tr>\n", strings.Repeat("↳ ", r.Depth), Esc(r.Name), Esc(r.Kind), Esc(r.Policy), Esc(r.Story))
	}
	h.Printf("</table>\n")
}
