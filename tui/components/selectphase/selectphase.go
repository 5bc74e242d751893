// Package selectphase is the view of host selection: the chosen node and
// the rule that chose it, how a live cluster's binding compared, the tie set,
// why every other scored node lost, and the nodes that never got that far.
package selectphase

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/livebinding"
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the view's keys: it scrolls.
type KeyMap = pager.KeyMap

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap { return pager.DefaultKeyMap() }

// Model is the host selection view. Only the rows the window reaches are
// built: a cluster may score thousands of nodes.
type Model struct {
	st       *theme.Styles
	Keys     KeyMap
	c        *recorder.Cycle
	a        *analysis.Result
	observed *recorder.Observed
	scroll   int
	w, h     int
}

// New returns a view with no cycle.
func New(st *theme.Styles) Model { return Model{st: st, Keys: DefaultKeyMap()} }

// SetCycle shows c, which a analyzes, from the top.
func (m *Model) SetCycle(c *recorder.Cycle, a *analysis.Result) {
	m.c, m.a, m.scroll = c, a, 0
}

// SetObserved gives the live cluster's binding of the cycle's pod, or nil.
func (m *Model) SetObserved(o *recorder.Observed) { m.observed = o }

// SetSize sets the view's size.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.Scroll(0)
}

// Scroll moves the view by n lines, within the text.
func (m *Model) Scroll(n int) {
	m.scroll = max(m.scroll+n, 0)
	m.scroll = layout.Clamp(m.scroll, 0, max(len(m.lines())-m.h, 0))
}

// Handles tells whether msg is one of the view's keys, enabled.
func (m Model) Handles(msg tea.KeyPressMsg) bool {
	k := m.Keys
	return key.Matches(msg, k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown)
}

// Update scrolls the view.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if n, ok := m.Keys.Step(k, m.h); ok {
			m.Scroll(n)
		}
	}
	return m, nil
}

// View renders the visible lines.
func (m Model) View() string {
	if m.c == nil || m.w <= 0 || m.h <= 0 {
		return ""
	}
	return strings.Join(layout.ScrollLines(m.lines(), m.scroll, m.h, m.Keys.Down), "\n")
}

// lines renders host selection: the rule, how a live cluster's binding
// compared, the top set and why every other node lost.
func (m Model) lines() []string {
	c, a, st, w := m.c, m.a, m.st, m.w
	if c == nil || c.Selection == nil {
		return nil // the phase did not run
	}
	sel := c.Selection
	lines := []string{
		"  chosen: " + st.Chosen.Render("★ "+sel.Node),
		"  rule:   " + st.Bold.Render(sel.Rule),
	}
	lines = append(lines, layout.Wrap("  why:    "+narrate.Selection(c), w, "          ")...)
	lines = append(lines, livebinding.Lines(st, c, a, m.observed, w)...)
	s := c.Score
	switch sel.Rule {
	case recorder.RuleOnlyFeasible, recorder.RuleFastPath:
		lines = append(lines, "")
		lines = append(lines, m.rejectedSummary()...)
		return lines
	}
	if s == nil {
		return lines
	}
	if len(sel.Top) > 1 {
		var names []string
		for _, n := range sel.Top {
			name := c.NodeName(n)
			if n == a.Winner {
				name = st.Chosen.Render(name + " (chosen)")
			} else {
				name = st.Tie.Render(name)
			}
			names = append(names, name)
		}
		lines = append(lines, "", fmt.Sprintf("  %s at %d: %s", st.Tie.Render("tie"), sel.Best, strings.Join(names, ", ")))
	}
	// Only the rows the window can reach are built: the list may be thousands long.
	order := a.ByTotal
	more := 0
	if limit := m.scroll + m.h; len(order) > limit {
		order, more = order[:limit], len(order)-limit
	}
	win := -1
	if a.Winner >= 0 {
		win = a.Nodes[a.Winner].Score
	}
	// Without node names a tie hides which node won: the tied nodes are
	// named as such, the others measured against the best total.
	best, topKnown := sel.Best, win < 0 && len(sel.Top) > 0
	if win >= 0 {
		best = s.Totals[win]
	}
	lines = append(lines, "", "  "+st.Header.Render(layout.Fit("node", 24)+" "+layout.FitLeft("total", 6)+"  why it lost"))
	for _, i := range order {
		n := s.Nodes[i]
		row := layout.Fit(c.NodeName(n), 24) + " " + layout.FitLeft(fmt.Sprint(s.Totals[i]), 6)
		var why string
		switch {
		case i == win:
			row, why = st.Chosen.Render(row), "highest total"
		case win >= 0 && s.Totals[i] == best:
			row, why = st.Tie.Render(row), "tied, lost the tie-break"
		case topKnown && slices.Contains(sel.Top, n):
			row, why = st.Tie.Render(row), "tied for the highest total; which one won is unknown without node names"
		case win >= 0:
			why = fmt.Sprintf("lost by %d: %s", best-s.Totals[i], narrate.Loss(s, win, i))
		case topKnown:
			why = fmt.Sprintf("lost by %d to the highest total", best-s.Totals[i])
		default:
			why = "lower total"
		}
		// The parts of a loss add up to the gap, so they wrap rather than
		// being cut.
		const whyAt = 2 + 24 + 1 + 6 + 2
		for k, l := range layout.Wrap(why, w-whyAt, "") {
			if k == 0 {
				lines = append(lines, "  "+row+"  "+l)
			} else {
				lines = append(lines, strings.Repeat(" ", whyAt)+l)
			}
		}
	}
	if more > 0 {
		lines = append(lines, fmt.Sprintf("  … and %d more scored node(s) (%s scrolls)", more, m.Keys.Down.Help().Key))
	}
	lines = append(lines, "")
	return append(lines, m.rejectedSummary()...)
}

// rejectedSummary counts the nodes that never got to selection, by cause.
func (m Model) rejectedSummary() []string {
	a := m.a
	byPlugin := map[string]int{}
	var notEval, discarded int
	for n := range a.Nodes {
		switch a.Nodes[n].State {
		case analysis.Rejected:
			byPlugin[a.FilterPlugin(a.Nodes[n].Plugin)]++
		case analysis.NotEvaluated:
			if n != a.Winner {
				notEval++
			}
		case analysis.Discarded:
			discarded++
		}
	}
	var lines []string
	keys := make([]string, 0, len(byPlugin))
	for k := range byPlugin {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("  %d node(s) were rejected by %s", byPlugin[k], k))
	}
	if discarded > 0 {
		lines = append(lines, "  "+narrate.NodesNotKept(discarded))
	}
	if notEval > 0 {
		lines = append(lines, fmt.Sprintf("  %d node(s) were not evaluated", notEval))
	}
	if len(lines) > 0 {
		lines = append([]string{"  " + m.st.Header.Render("never in the running")}, lines...)
	}
	return lines
}
