// Package nodes is the Nodes view (:nodes): every node of the cluster as
// one cycle saw it, with what it could give (allocatable against what was
// requested on it, pods, taints, cordoned) and what that cycle did with it
// (chosen, feasible, rejected by which plugin), one row each.
package nodes

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the view's keys.
type KeyMap struct {
	// The moving keys: up, down, a page, first and last.
	pager.KeyMap
	// Open opens the selected node's detail in its cycle; Filter asks for
	// the text the nodes are filtered by; Close leaves the view. The model
	// that opened the view acts on them.
	Open   key.Binding
	Filter key.Binding
	Close  key.Binding
}

// DefaultKeyMap returns the view's keys.
func DefaultKeyMap() KeyMap {
	k := KeyMap{KeyMap: pager.DefaultKeyMap(),
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "node detail")),
		Filter: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Close:  key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "back"))}
	k.Top.SetHelp("g", "first")
	k.Bottom.SetHelp("G", "last")
	return k
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Filter, k.Up, k.Down, k.PageDown, k.Close}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Open, k.Filter, k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.Close}}
}

// Row is one node as the cycle saw it.
type Row struct {
	// Short is Verdict with the plugin abbreviated, for narrow windows.
	Short string
	Name  string
	// Requested and Allocatable are cpu (millicores), memory (bytes) and
	// pods, as the scheduler counts them.
	Requested, Allocatable map[string]int64
	Taints                 int
	Unschedulable          bool
	// Verdict says what the cycle did with the node; Kind styles it.
	Verdict string
	Kind    glyph.Kind
}

// Model is the Nodes view.
type Model struct {
	st   *theme.Styles
	Keys KeyMap

	seq  int
	rows []Row
	// noUsage says what was placed on the nodes is not known (a replay
	// that has not read every cycle before).
	noUsage bool
	filter  string
	shown   []int // rows matching filter
	cursor  int
	offset  int
	w, h    int
}

// New returns an empty view.
func New(st *theme.Styles) Model { return Model{st: st, Keys: DefaultKeyMap()} }

// SetCycle shows the nodes of cycle c, with what was placed on them as of
// it (usage: recorder.UsageAt up to c).
func (m *Model) SetCycle(c *recorder.Cycle, usage *recorder.Usage) {
	m.seq, m.rows, m.cursor, m.offset, m.noUsage = c.Seq, nil, 0, 0, usage == nil
	a := analysis.Of(c)
	for i := range c.NumNodes() {
		name := c.NodeName(i)
		r := Row{Name: name}
		if ns := c.Nodes; ns != nil && i < len(ns.Info) {
			info := ns.Info[i]
			r.Allocatable, r.Taints, r.Unschedulable = info.Allocatable, len(info.Taints), info.Unschedulable
		}
		if usage != nil {
			if u, ok := usage.Node(name); ok {
				r.Requested = u.Requested
			}
		}
		r.Verdict, r.Short, r.Kind = verdict(c, a, i)
		m.rows = append(m.rows, r)
	}
	slices.SortStableFunc(m.rows, func(x, y Row) int { return strings.Compare(x.Name, y.Name) })
	m.SetFilter(m.filter)
}

// verdict words what cycle c did with node i, and the same with the
// plugin abbreviated.
func verdict(c *recorder.Cycle, a *analysis.Result, i int) (string, string, glyph.Kind) {
	same := func(s string, k glyph.Kind) (string, string, glyph.Kind) { return s, s, k }
	if a.Winner == i || c.Outcome.Node != "" && c.Outcome.Node == c.NodeName(i) {
		return same("★ chosen", glyph.Success)
	}
	if i >= len(a.Nodes) {
		return same("not evaluated", glyph.NotEvaluated)
	}
	n := a.Nodes[i]
	switch n.State {
	case analysis.Feasible:
		if n.Score >= 0 && c.Score != nil {
			return same(fmt.Sprintf("✓ scored %d", c.Score.Totals[n.Score]), glyph.Success)
		}
		return same("✓ feasible", glyph.Success)
	case analysis.Discarded:
		return same(narrate.NotKept, glyph.Discarded)
	case analysis.Rejected:
		plugin, why := a.FilterPlugin(n.Plugin), ""
		if len(n.Reasons) > 0 {
			why = ": " + n.Reasons[0]
		}
		return "✗ " + plugin + why, "✗ " + narrate.Abbrev(plugin) + why, glyph.Of(n.Code)
	}
	return same("not evaluated (the search stopped first)", glyph.NotEvaluated)
}

// Filter is the text the nodes are filtered by.
func (m Model) Filter() string { return m.filter }

// SetFilter keeps the nodes whose name, verdict or a taint count contains
// s (case-insensitive).
func (m *Model) SetFilter(s string) {
	m.filter = s
	m.shown = m.shown[:0]
	for i, r := range m.rows {
		if s == "" || strings.Contains(strings.ToLower(r.Name+" "+r.Verdict), strings.ToLower(s)) {
			m.shown = append(m.shown, i)
		}
	}
	m.cursor = layout.Clamp(m.cursor, 0, max(len(m.shown)-1, 0))
	m.keepVisible()
}

// SetSize sets the view's size.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.keepVisible()
}

// Crumb names the view in the title line.
func (m Model) Crumb() string {
	crumb := fmt.Sprintf("nodes as cycle %d saw them", m.seq)
	if m.filter != "" {
		crumb += " /" + m.filter
	}
	return crumb
}

// Position is the cursor's row of the rows shown, for the title line.
func (m Model) Position() string {
	if len(m.shown) == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d", m.cursor+1, len(m.shown))
}

// Selected is the node under the cursor.
func (m Model) Selected() (string, bool) {
	if m.cursor >= len(m.shown) {
		return "", false
	}
	return m.rows[m.shown[m.cursor]].Name, true
}

func (m Model) bodyHeight() int { return max(m.h-3, 1) }

func (m *Model) keepVisible() {
	h := m.bodyHeight()
	switch {
	case m.cursor < m.offset:
		m.offset = m.cursor
	case m.cursor >= m.offset+h:
		m.offset = m.cursor - h + 1
	}
	m.offset = layout.Clamp(m.offset, 0, max(len(m.shown)-h, 0))
}

// Update moves the cursor with the keys and the mouse wheel.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	n := 0
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		n, _ = m.Keys.Step(msg, m.bodyHeight())
	case tea.MouseWheelMsg:
		n = pager.Wheel(msg)
	}
	m.cursor = layout.Clamp(m.cursor+n, 0, max(len(m.shown)-1, 0))
	m.keepVisible()
	return m, nil
}

// share words requested against allocatable for resource r: "1500m/4
// 38%", without the percentage when narrow.
func share(r string, req, alloc map[string]int64, narrow bool) string {
	a := alloc[r]
	if a == 0 {
		return "-"
	}
	q := req[r]
	s := narrate.Quantity(r, q) + "/" + narrate.Quantity(r, a)
	if narrow {
		return s
	}
	return fmt.Sprintf("%s %d%%", s, q*100/a)
}

// narrowWidth is the width below which the table abbreviates.
const narrowWidth = 120

// View renders the table: one row a node, the cursor's reversed.
func (m Model) View() string {
	st := m.st
	nameW := 8
	for _, r := range m.rows {
		nameW = max(nameW, len(r.Name))
	}
	nameW = min(nameW, max(m.w/4, 12))
	narrow := m.w < narrowWidth
	cpuW, memW, podsW, taintsW := 16, 18, 10, 10
	if narrow {
		cpuW, memW, podsW, taintsW = 10, 11, 7, 8
	}
	row := func(name, cpu, mem, pods, taints, verdict string) string {
		return layout.Fit(name, nameW) + "  " + layout.Fit(cpu, cpuW) + "  " + layout.Fit(mem, memW) + "  " + layout.Fit(pods, podsW) + "  " + layout.Fit(taints, taintsW) + "  " + verdict
	}
	lines := []string{
		st.Title.Render(fmt.Sprintf("Nodes (%d)", len(m.rows))) + st.Dim.Render(fmt.Sprintf(" as cycle %d saw them: requested of allocatable, and what the cycle did", m.seq)),
		st.Header.Render("  " + row("NODE", "CPU", "MEMORY", "PODS", "TAINTS", "IN THIS CYCLE")),
	}
	if len(m.shown) == 0 {
		lines = append(lines, "  "+st.Dim.Render(fmt.Sprintf("no node matches %q", m.filter)))
	}
	if m.noUsage {
		lines[0] += st.Dim.Render(" (what is requested on them: not read yet, open a cycle's node detail)")
	}
	end := min(m.offset+m.bodyHeight(), len(m.shown))
	for k := m.offset; k < end; k++ {
		r := m.rows[m.shown[k]]
		taints := fmt.Sprint(r.Taints)
		if r.Unschedulable {
			taints += " cordon"
		}
		pods := "-"
		if a := r.Allocatable["pods"]; a > 0 {
			pods = fmt.Sprintf("%d/%d", r.Requested["pods"], a)
		}
		style := glyph.Style(st, r.Kind)
		if strings.HasPrefix(r.Verdict, "★") {
			style = st.Chosen
		}
		v := r.Verdict
		if narrow {
			v = r.Short
		}
		line := row(r.Name, share("cpu", r.Requested, r.Allocatable, narrow), share("memory", r.Requested, r.Allocatable, narrow), pods, taints, style.Render(v))
		if k == m.cursor {
			lines = append(lines, st.Selected.Render("▸ "+layout.Fit(ansi.Strip(line), m.w-2)))
			continue
		}
		lines = append(lines, "  "+layout.Fit(line, m.w-2))
	}
	return strings.Join(lines, "\n")
}
