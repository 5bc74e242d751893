// Package podgroup is the pod-group page: one pod-group cycle (kube-
// scheduler's scheduleOnePodGroup) as a page of its own. It shows the
// group, its policy and minCount; the members × the nodes they saw, with
// each member's tentative placement and the earlier members' placements it
// saw assumed; where each member went or why not; PlacementFeasible's
// verdicts; the candidate placements with TopologyAwareWorkloadScheduling
// (placements.go); why minCount was not met; what was reverted; the group's
// PostFilter (workload-aware preemption) and its PodGroupInitiallyScheduled
// condition. It knows recorder types only; the root gives it the group's
// cycles and the members' own cycles it holds, and opens a member's cycle
// when asked (Selected).
package podgroup

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// Model is the page: the pod-group cycles of one group, one of them shown.
type Model struct {
	st   *theme.Styles
	Keys KeyMap

	// cycles are the group's pod-group cycles in order; at is the one shown.
	cycles []*recorder.PodGroupCycle
	at     int
	// member returns a member's own cycle by its number, nil when the root
	// does not hold it (a replay that has not read it).
	member func(seq int) *recorder.Cycle
	// cursor is the selected member; scroll the first line shown.
	cursor, scroll int
	// explain shows what a pod-group cycle is under the outcome.
	explain bool
	w, h    int
}

// New returns an empty page.
func New(st *theme.Styles) Model {
	return Model{st: st, Keys: DefaultKeyMap(), member: func(int) *recorder.Cycle { return nil }}
}

// Show shows cycles[at], the pod-group cycles of one group; member looks
// up the members' own cycles.
func (m *Model) Show(cycles []*recorder.PodGroupCycle, at int, member func(seq int) *recorder.Cycle) {
	m.cycles = cycles
	m.at = layout.Clamp(at, 0, max(len(cycles)-1, 0))
	if member != nil {
		m.member = member
	}
	m.cursor, m.scroll = 0, 0
}

// Cycle is the pod-group cycle shown, nil before Show.
func (m Model) Cycle() *recorder.PodGroupCycle {
	if m.at < 0 || m.at >= len(m.cycles) {
		return nil
	}
	return m.cycles[m.at]
}

// Selected is the number of the selected member's own cycle, false when
// the cycle never reached the member.
func (m Model) Selected() (int, bool) {
	g := m.Cycle()
	if g == nil || m.cursor >= len(g.Members) || g.Members[m.cursor].Cycle == 0 {
		return 0, false
	}
	return g.Members[m.cursor].Cycle, true
}

// SelectedMember is the member under the cursor, false before Show.
func (m Model) SelectedMember() (recorder.GroupMember, bool) {
	g := m.Cycle()
	if g == nil || m.cursor >= len(g.Members) {
		return recorder.GroupMember{}, false
	}
	return g.Members[m.cursor], true
}

// Nodes are the nodes the members saw (see nodes), nil before Show.
func (m Model) Nodes() []string {
	if m.Cycle() == nil {
		return nil
	}
	return m.nodes()
}

// Select puts the cursor on the member whose own cycle is seq.
func (m *Model) Select(seq int) {
	if g := m.Cycle(); g != nil {
		for i, mem := range g.Members {
			if mem.Cycle == seq && seq != 0 {
				m.cursor = i
			}
		}
	}
	m.keepCursor()
}

// Crumb is the page's place in the title line.
func (m Model) Crumb() string {
	g := m.Cycle()
	if g == nil {
		return "pod group"
	}
	return fmt.Sprintf("pod group %s › group cycle %d", g.Group.Key(), g.Seq)
}

// Position is which of the group's pod-group cycles shows.
func (m Model) Position() string {
	if len(m.cycles) == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", m.at+1, len(m.cycles))
}

// SetSize sets the page's size.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.keepCursor()
}

// Update moves between members and between the group's cycles, and
// scrolls. The root handles Open and Close.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	g := m.Cycle()
	if !ok || g == nil {
		return m, nil
	}
	switch {
	case key.Matches(k, m.Keys.Up):
		m.cursor = max(m.cursor-1, 0)
		m.keepCursor()
	case key.Matches(k, m.Keys.Down):
		m.cursor = min(m.cursor+1, max(len(g.Members)-1, 0))
		m.keepCursor()
	case key.Matches(k, m.Keys.PageDown):
		m.scroll += max(m.h-1, 1)
	case key.Matches(k, m.Keys.PageUp):
		m.scroll -= max(m.h-1, 1)
	case key.Matches(k, m.Keys.Top):
		m.scroll = 0
	case key.Matches(k, m.Keys.Bottom):
		m.scroll = len(m.lines())
	case key.Matches(k, m.Keys.Explain):
		m.explain = !m.explain
		m.scroll = 0
	case key.Matches(k, m.Keys.Prev):
		if m.at > 0 {
			m.Show(m.cycles, m.at-1, nil)
		}
	case key.Matches(k, m.Keys.Next):
		if m.at < len(m.cycles)-1 {
			m.Show(m.cycles, m.at+1, nil)
		}
	}
	m.scroll = layout.Clamp(m.scroll, 0, max(len(m.lines())-m.h, 0))
	return m, nil
}

// keepCursor scrolls so that the selected member's row shows.
func (m *Model) keepCursor() {
	if m.h <= 0 || m.Cycle() == nil {
		return
	}
	row := m.tableTop() + 1 + m.cursor
	m.scroll = layout.ScrollTo(m.scroll, row, m.h, len(m.lines()))
}

// View draws the page.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.Cycle() == nil {
		return m.st.Dim.Render("no pod-group cycle")
	}
	return strings.Join(layout.ScrollLines(m.lines(), m.scroll, m.h, m.Keys.PageDown), "\n")
}

// headLines are the lines above the members table.
func (m Model) headLines() []string {
	g, w := m.Cycle(), m.w
	st := m.st
	var lines []string
	lines = append(lines, layout.Fit(st.Title.Render(fmt.Sprintf("pod-group cycle %d · %s", g.Seq, g.Group.Key()))+
		st.Dim.Render(fmt.Sprintf(" · %s · %d member(s) · %s", narrate.GroupPolicy(g), len(g.Members), narrate.Duration(time.Duration(g.Duration)))), w))
	outcome := st.Success
	if g.Outcome.Result != recorder.ResultBound {
		outcome = st.Unschedulable
	}
	for i, l := range layout.Wrap(narrate.GroupOutcome(g), w, "  ") {
		if i == 0 {
			l = outcome.Render(l)
		}
		lines = append(lines, l)
	}
	if msg := strings.TrimSpace(g.Outcome.Message); msg != "" {
		lines = append(lines, indented(`"`+msg+`"`, w)...)
	}
	if m.explain {
		lines = append(lines, "", st.Title.Render("What a pod-group cycle is"))
		lines = append(lines, indented(narrate.PodGroupCycleDoc, w)...)
		if g.Placements != nil {
			lines = append(append(lines, ""), indented(narrate.PlacementsDoc, w)...)
		}
		if g.Composite() {
			lines = append(lines, indented(narrate.CompositePodGroupDoc, w)...)
		}
	}
	return append(lines, "")
}

// tableTop is the line of the members table's header.
func (m Model) tableTop() int { return len(m.headLines()) }

// lines is the whole page, before scrolling.
func (m Model) lines() []string {
	g := m.Cycle()
	if g == nil {
		return nil
	}
	st, w := m.st, m.w
	lines := m.headLines()
	lines = append(lines, m.table()...)
	lines = append(lines, "  "+st.Dim.Render(layout.Fit(narrate.MemberNodeLegend, w-2)), "")

	if m.cursor < len(g.Members) {
		mem := g.Members[m.cursor]
		head := mem.Pod.Name
		if mem.Cycle != 0 {
			head += fmt.Sprintf(" (its cycle %d: %s opens it)", mem.Cycle, m.Keys.Open.Help().Key)
		}
		lines = append(lines, st.Bold.Render(layout.Fit(head, w)))
		lines = append(lines, indented(narrate.GroupMember(mem), w)...)
		if mem.Final != "" {
			lines = append(lines, indented("sent back to the queue with: "+mem.Final, w)...)
		}
		lines = append(lines, "")
	}
	lines = append(lines, m.hierarchyLines()...)
	if why := narrate.MinCountNotMet(g); why != "" {
		lines = append(lines, st.Bold.Render(narrate.NotMetTitle(g)))
		lines = append(lines, indented(why, w)...)
	}
	if g.Outcome.Result != recorder.ResultBound {
		lines = append(lines, layout.Wrap(st.Bold.Render("Reverted:")+" "+narrate.Placements(g.Reverted()), w, "  ")...)
	}
	if p := g.Placements; p != nil {
		lines = append(blankLine(lines), m.placementLines(p)...)
	}
	if len(g.Feasible) > 0 {
		lines = append(blankLine(lines), st.Bold.Render(layout.Fit(narrate.FeasibleHeading(g), w)))
		when := 0
		for i := range g.Feasible {
			when = max(when, ansi.StringWidth(narrate.VerdictWhen(g, i)))
		}
		when = min(when, max(w/3, 8))
		pad := strings.Repeat(" ", when+4)
		for i, v := range g.Feasible {
			text := fmt.Sprintf("%d scheduled, %d remaining → ", v.Scheduled, v.Remaining) + codeStyle(st, v.Code).Render(v.Code)
			if v.Message != "" {
				text += ": " + v.Message
			}
			for j, l := range layout.Wrap(text, w-len(pad), "") {
				if j == 0 {
					lines = append(lines, "  "+layout.Fit(narrate.VerdictWhen(g, i), when)+"  "+l)
					continue
				}
				lines = append(lines, pad+l)
			}
		}
	}
	if pf := g.PostFilter; pf != nil {
		text := st.Bold.Render("PostFilter (group preemption):") + " " + codeStyle(st, pf.Code).Render(pf.Code)
		if pf.Message != "" {
			text += ": " + pf.Message
		}
		lines = append(blankLine(lines), layout.Wrap(text, w, "  ")...)
	}
	lines = append(lines, layout.Wrap(st.Bold.Render("Condition:")+" "+narrate.CycleCondition(g), w, "  ")...)
	return lines
}

// table is the members × nodes table: its header, then a row per member in
// the order the cycle took them.
func (m Model) table() []string {
	g, st, w := m.Cycle(), m.st, m.w
	nodes := m.nodes()
	nameW := len("member")
	for _, mem := range g.Members {
		nameW = max(nameW, ansi.StringWidth(mem.Pod.Name))
	}
	nameW = min(nameW, max(w/4, 8))
	cycleW := len("cycle")
	// The nodes take the room a short "where" leaves; the ones members
	// were placed on come first when not all fit.
	room := w - 2 - nameW - 1 - cycleW - 1 - 24
	var shown []string
	used := 0
	for _, n := range orderPlacedFirst(g, nodes) {
		cw := cellWidth(n)
		if used+cw+1 > room && len(shown) > 0 {
			break
		}
		shown = append(shown, n)
		used += cw + 1
	}
	hidden := len(nodes) - len(shown)
	if hidden > 0 {
		// Keep the recorded order among those shown.
		keep := map[string]bool{}
		for _, n := range shown {
			keep[n] = true
		}
		shown = shown[:0]
		for _, n := range nodes {
			if keep[n] {
				shown = append(shown, n)
			}
		}
	}
	head := "  " + layout.Fit("member", nameW) + " " + layout.FitLeft("cycle", cycleW) + " "
	for _, n := range shown {
		head += layout.Fit(n, cellWidth(n)) + " "
	}
	where := "where it went"
	if hidden > 0 {
		where = fmt.Sprintf("(+%d nodes) ", hidden) + where
	}
	lines := []string{st.Header.Render(layout.Fit(head+where, w))}
	for i, mem := range g.Members {
		row := layout.Fit(mem.Pod.Name, nameW) + " " + layout.FitLeft(cycleNumber(mem.Cycle), cycleW) + " "
		c := m.member(mem.Cycle)
		if mem.Cycle == 0 {
			c = nil
		}
		for _, n := range shown {
			k := recorder.MemberOn(c, mem, n)
			cell := layout.Fit(k.Glyph(), cellWidth(n))
			switch k {
			case recorder.MemberNodePlaced:
				cell = st.Chosen.Render(cell)
			case recorder.MemberNodeFeasible:
				cell = st.Success.Render(cell)
			case recorder.MemberNodeRejected:
				cell = st.Unschedulable.Render(cell)
			default:
				cell = st.Dim.Render(cell)
			}
			row += cell + " "
		}
		text := narrate.MemberWhere(g, mem)
		if seen := narrate.AssumedSeen(mem); seen != "" {
			text += " · " + seen
		}
		row += text
		if i == m.cursor {
			lines = append(lines, st.Selected.Render("▸ "+layout.Fit(ansi.Strip(row), w-2)))
			continue
		}
		lines = append(lines, "  "+layout.Fit(row, w-2))
	}
	return lines
}

// nodes are the nodes the members saw, as the first member's cycle at hand
// lists them; without one, the nodes the members were placed on.
func (m Model) nodes() []string {
	g := m.Cycle()
	for _, mem := range g.Members {
		if mem.Cycle == 0 {
			continue
		}
		if c := m.member(mem.Cycle); c != nil && c.NodeNamesKnown() {
			return c.Nodes.Names
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, mem := range g.Members {
		if mem.Node != "" && !seen[mem.Node] {
			seen[mem.Node] = true
			out = append(out, mem.Node)
		}
	}
	return out
}

// orderPlacedFirst lists the nodes members were placed on, then the others.
func orderPlacedFirst(g *recorder.PodGroupCycle, nodes []string) []string {
	placed := map[string]bool{}
	for _, mem := range g.Members {
		placed[mem.Node] = mem.Node != ""
	}
	var first, rest []string
	for _, n := range nodes {
		if placed[n] {
			first = append(first, n)
		} else {
			rest = append(rest, n)
		}
	}
	return append(first, rest...)
}

// cellWidth is a node's column: its name, cut to 12 cells.
func cellWidth(n string) int { return layout.Clamp(ansi.StringWidth(n), 1, 12) }

func cycleNumber(seq int) string {
	if seq == 0 {
		return "-"
	}
	return strconv.Itoa(seq)
}

// blankLine ends lines with an empty line, unless they end with one.
func blankLine(lines []string) []string {
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		return lines
	}
	return append(lines, "")
}

// codeStyle is the theme's style of a status code.
func codeStyle(st *theme.Styles, code string) lipgloss.Style { return glyph.Style(st, glyph.Of(code)) }

// indented wraps text to w cells, every line indented by two.
func indented(text string, w int) []string {
	return layout.Wrap("  "+text, w, "  ")
}
