package podgroup

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/layout"
)

// placementLines are the Placements section of a pod-group cycle run with
// TopologyAwareWorkloadScheduling: how the candidates were generated, then
// a line per candidate (▶ the chosen one: its name, nodes and what became
// of it), what its members did there and its scores, and the choice.
func (m Model) placementLines(p *recorder.PlacementPhase) []string {
	st, w := m.st, m.w
	lines := []string{st.Bold.Render("Placements")}
	lines = append(lines, indented(narrate.PlacementsHeading(p), w)...)
	nameW := 0
	for k := range p.Candidates {
		nameW = max(nameW, len(narrate.PlacementName(&p.Candidates[k])))
	}
	nameW = min(nameW, max(w/4, 8))
	for k := range p.Candidates {
		c := &p.Candidates[k]
		mark := "  "
		if p.Chosen == k+1 {
			mark = st.Chosen.Render("▶ ")
		}
		result := narrate.PlacementResult(p, k)
		style := st.Dim
		switch {
		case p.Chosen == k+1:
			style = st.Chosen
		case c.Fit():
			style = st.Success
		case c.Tried:
			style = st.Unschedulable
		}
		head := fmt.Sprintf("%d. %s ", k+1, layout.Fit(narrate.PlacementName(c), nameW))
		nodes := "[" + strings.Join(c.Nodes, ",") + "] "
		text := head + nodes + style.Render(result)
		for i, l := range layout.Wrap(text, w-2, "   ") {
			if i == 0 {
				l = mark + l
			} else {
				l = "  " + l
			}
			lines = append(lines, l)
		}
		var detail []string
		if c.Tried {
			detail = append(detail, narrate.PlacementMembers(c))
		}
		if s := narrate.PlacementScores(c); s != "" {
			detail = append(detail, s)
		}
		for _, d := range detail {
			lines = append(lines, layout.Wrap("     "+st.Dim.Render(d), w, "       ")...)
		}
	}
	if s := narrate.PlacementChosen(p); s != "" {
		lines = append(lines, indented(s, w)...)
	}
	return lines
}
