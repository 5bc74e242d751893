package tui

import (
	"strings"

	"github.com/schedscope/schedscope/tui/layout"
)

// The first-run hint: on a user's first session, three lines over the bottom
// of the body say where to look first. The first key closes it (and does
// what it does, but esc); cmd remembers that it was seen (Options.FirstRun).

// firstRunLines are the hint's lines, each with the keys it names.
func (m *Model) firstRunLines() [][2]string {
	return [][2]string{
		{"n", " goes to the next pod that did not fit; enter opens it: each phase says why"},
		{"←/→", " step through a cycle's phases, PreFilter to Bind; e explains the one shown"},
		{"kubectl schedscope learn", " lists guided lessons; ? lists every key"},
	}
}

// firstRunOverlay draws the hint over the last lines of body.
func (m *Model) firstRunOverlay(body []string) []string {
	w := m.w
	rule := m.st.Border.Render(strings.Repeat("─", w))
	panel := []string{rule, m.st.Title.Render(layout.Fit("new here? (any key closes this; it is not shown again)", w))}
	for _, l := range m.firstRunLines() {
		panel = append(panel, layout.Fit("  "+m.st.Key.Render(l[0])+l[1], w))
	}
	if len(panel) >= len(body) {
		panel = panel[len(panel)-len(body):]
	}
	return append(body[:len(body)-len(panel)], panel...)
}
