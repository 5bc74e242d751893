// Package nodephase is the view of the node phases over one node table:
// Filter (the node × plugin matrix, or the diagnostic pass's), Score and
// NormalizeScore (heatmaps of raw and normalized scores) and the weighted sum
// (bars stacked by plugin). The node selected stays selected from one phase
// to the next.
package nodephase

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
	"github.com/schedscope/schedscope/tui/components/nodetable"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// Kind is which node phase the view shows.
type Kind uint8

// The node phases.
const (
	Filter Kind = iota
	Score
	Normalize
	Weighted
)

// KeyMap holds the view's keys: the node table's, and the plugin columns'.
type KeyMap struct {
	nodetable.KeyMap
	NextColumn, PrevColumn key.Binding
	// Diagnostic shows, in Filter, the diagnostic pass (every filter on
	// every node) instead of what the scheduler did.
	Diagnostic key.Binding
}

// DefaultKeyMap returns the view's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		KeyMap:     nodetable.DefaultKeyMap(),
		NextColumn: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next plugin")),
		PrevColumn: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "prev plugin")),
		Diagnostic: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "diagnostic matrix")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.NextColumn, k.Diagnostic} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return append(k.KeyMap.FullHelp(), []key.Binding{k.NextColumn, k.PrevColumn, k.Diagnostic})
}

// Model is the node phases' view.
type Model struct {
	st    *theme.Styles
	Keys  KeyMap
	kind  Kind
	c     *recorder.Cycle
	a     *analysis.Result
	all   []int // every node index, the filter view's universe
	table nodetable.Model
	col   int  // the selected plugin column
	diag  bool // show the diagnostic matrix instead of what the scheduler did
	// short are the numbers behind the cycle's resource rejections; nil
	// until the node use is known (or when there are none).
	short *recorder.Shortfalls
	// series is each score plugin's place in its profile's Score point,
	// which picks its bar glyph and colour (SetScoreOrder).
	series map[string]int
	w, h   int
}

// New returns a view with no cycle.
func New(st *theme.Styles) Model {
	return Model{st: st, Keys: DefaultKeyMap(), table: nodetable.New()}
}

// SetScoreOrder gives the score plugins of the shown cycle's profile, in
// the order the profile calls them: a plugin's glyph and colour in the
// weighted sums are its place there, so that it keeps them from cycle to
// cycle (a cycle lists only the plugins that scored). Without it, a
// plugin's place in the cycle picks them.
func (m *Model) SetScoreOrder(names []string) {
	m.series = make(map[string]int, len(names))
	for i, n := range names {
		m.series[n] = i
	}
}

// SetCycle shows c, which a analyzes, on its chosen node.
func (m *Model) SetCycle(c *recorder.Cycle, a *analysis.Result) {
	m.c, m.a, m.short = c, a, nil
	n := len(a.Nodes)
	if cap(m.all) >= n {
		m.all = m.all[:n]
	} else {
		m.all = make([]int, n)
	}
	for k := range m.all {
		m.all[k] = k
	}
	m.table.Focus(a.Winner) // -1 when there is none
}

// SetShortfalls gives the numbers behind the cycle's resource rejections
// (recorder.ShortfallsOf), once the node use as of the cycle is known.
func (m *Model) SetShortfalls(s *recorder.Shortfalls) { m.short = s }

// SetKind shows node phase k: its nodes, sorted and filtered as before, the
// same node selected when it is among them.
func (m *Model) SetKind(k Kind) {
	m.kind = k
	if m.a == nil {
		return
	}
	switch {
	case k == Filter:
		m.table.SetUniverse(m.a, m.all)
	case m.c.Score != nil:
		m.table.SetUniverse(m.a, m.c.Score.Nodes)
	default:
		m.table.SetUniverse(m.a, nil)
	}
	m.col = layout.Clamp(m.col, 0, max(m.numColumns()-1, 0))
	m.table.SetHeight(m.rowsHeight())
}

// SetSize sets the view's size.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.table.SetHeight(m.rowsHeight())
}

// SetActive enables the keys that have something to act on: shown says the
// view is the body (a node detail may cover it), active that it takes the
// keys (its phase ran, nothing covers it).
func (m *Model) SetActive(shown, active bool) {
	m.Keys.NextColumn.SetEnabled(active)
	m.Keys.PrevColumn.SetEnabled(active)
	m.Keys.Sort.SetEnabled(active)
	m.Keys.Show.SetEnabled(active && m.kind == Filter)
	m.Keys.Diagnostic.SetEnabled(shown && m.kind == Filter && m.c != nil && m.c.Diagnostic != nil)
}

// RowsHeight is how many node rows the view shows.
func (m Model) RowsHeight() int { return m.rowsHeight() }

// SetName filters the rows by a node name substring.
func (m *Model) SetName(name string) {
	m.table.SetName(name)
	m.table.SetHeight(m.rowsHeight())
}

// Name is the node name filter.
func (m Model) Name() string { return m.table.Name() }

// SetSort orders the rows.
func (m *Model) SetSort(s nodetable.Sort) { m.table.SetSort(s) }

// SortBy is the rows' order.
func (m Model) SortBy() nodetable.Sort { return m.table.SortBy() }

// Query describes the sort and the filters, for hints.
func (m Model) Query() string { return m.table.Query() }

// Rows are the nodes shown, in order.
func (m Model) Rows() []int { return m.table.Rows() }

// Cursor is the row the cursor is on.
func (m Model) Cursor() int { return m.table.Cursor() }

// Selected is the node under the cursor, ok false when there is none.
func (m Model) Selected() (int, bool) { return m.table.Selected() }

// Column is the selected plugin column.
func (m Model) Column() int { return m.col }

// Plugin names the plugin of the selected column, "" when there is none.
func (m Model) Plugin() string {
	if m.c == nil {
		return ""
	}
	switch m.kind {
	case Filter:
		if m.diag && m.c.Diagnostic != nil && m.col < len(m.c.Diagnostic.Plugins) {
			return m.c.Diagnostic.Plugins[m.col]
		}
		if m.c.Filter != nil && m.col < len(m.c.Filter.Plugins) {
			return m.c.Filter.Plugins[m.col]
		}
	default:
		if m.c.Score != nil && m.col < len(m.c.Score.Plugins) {
			return m.c.Score.Plugins[m.col].Name
		}
	}
	return ""
}

// FocusRejection puts the plugin column, in Filter, on the plugin that
// rejected the selected node, or on the first filter that ran, so that the
// cell line starts on something worth reading.
func (m *Model) FocusRejection() {
	if m.kind != Filter || m.diag || m.c == nil || m.c.Filter == nil {
		return
	}
	if n, ok := m.table.Selected(); ok {
		if r := m.a.Nodes[n]; r.State == analysis.Rejected && r.Plugin >= 0 {
			m.col = r.Plugin
			return
		}
	}
	for p := range m.c.Filter.Plugins {
		if !m.a.Filter.Skipped[p] {
			m.col = p
			return
		}
	}
}

// Handles tells whether msg is one of the view's keys, enabled.
func (m Model) Handles(msg tea.KeyPressMsg) bool {
	k := m.Keys
	return key.Matches(msg, k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.Sort, k.Show, k.NextColumn, k.PrevColumn, k.Diagnostic)
}

// Update moves the cursor and the plugin column, sorts and filters the rows,
// and switches the diagnostic matrix.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, m.Keys.NextColumn):
		if n := m.numColumns(); n > 0 {
			m.col = (m.col + 1) % n
		}
	case key.Matches(k, m.Keys.PrevColumn):
		if n := m.numColumns(); n > 0 {
			m.col = (m.col + n - 1) % n
		}
	case key.Matches(k, m.Keys.Diagnostic):
		m.diag = !m.diag
		m.col = layout.Clamp(m.col, 0, max(m.numColumns()-1, 0))
	default:
		m.table.Keys = m.Keys.KeyMap
		m.table, _ = m.table.Update(msg)
		m.table.SetHeight(m.rowsHeight())
	}
	return m, nil
}

// Move moves the cursor by d rows (the mouse wheel).
func (m *Model) Move(d int) {
	m.table.Move(d)
	m.table.SetHeight(m.rowsHeight())
}

// Click puts the cursor on the row at line y of the view.
func (m *Model) Click(y int) {
	row := y - m.headerLines()
	_, off := m.table.Window(m.rowsHeight())
	if row >= 0 && row < m.rowsHeight() {
		m.table.MoveTo(off + row)
		m.table.SetHeight(m.rowsHeight())
	}
}

// View renders the phase.
func (m Model) View() string {
	if m.c == nil || m.a == nil || m.w <= 0 || m.h <= 0 {
		return ""
	}
	var lines []string
	switch m.kind {
	case Filter:
		lines = m.filterLines(m.w, m.h)
	case Score:
		lines = m.scoreLines(m.w, m.h, false)
	case Normalize:
		lines = m.scoreLines(m.w, m.h, true)
	default:
		lines = m.weightedLines(m.w, m.h)
	}
	return strings.Join(lines, "\n")
}

func (m *Model) numColumns() int {
	if m.c == nil {
		return 0
	}
	switch m.kind {
	case Filter:
		if m.diag && m.c.Diagnostic != nil {
			return len(m.c.Diagnostic.Plugins)
		}
		if m.c.Filter != nil {
			return len(m.c.Filter.Plugins)
		}
	default:
		if m.c.Score != nil {
			return len(m.c.Score.Plugins)
		}
	}
	return 0
}

// rowsHeight is how many node rows fit: the view minus the column header
// and the footer lines.
func (m *Model) rowsHeight() int {
	footer := 3
	if m.kind == Weighted {
		footer = m.weightedLegendHeight(m.w) + 1
	}
	banner := 0
	if m.kind == Filter && m.c != nil && m.c.FastPath != nil {
		banner = 1
	}
	return max(m.h-m.headerLines()-footer-banner, 1)
}

// headerLines is how many column-header lines the phase draws.
func (m *Model) headerLines() int {
	if m.kind == Score || m.kind == Normalize {
		return 2
	}
	return 1
}

// matrixLayout is how a node × plugin matrix fits a width.
type matrixLayout struct {
	nameW, colW, statusW int
	first, count         int // visible plugin columns
}

// layoutMatrix fits a name column, ncols plugin columns around the selected
// one, and a trailing column into w. Room goes first to every plugin column at
// minCol and the trailing column at minTrail (plugin columns scroll when even
// that does not fit), then to the trailing column up to wantTrail, then to the
// plugin columns up to maxCol; what is left widens the trailing column.
func layoutMatrix(w, ncols, sel, maxName, minTrail, wantTrail, minCol, maxCol int) matrixLayout {
	l := matrixLayout{nameW: layout.Clamp(maxName, 8, 28), colW: maxCol}
	if l.nameW > w/4 {
		l.nameW = max(w/4, 8)
	}
	avail := w - 2 - l.nameW - 1 // for the plugin columns and the trailing one
	if ncols > 0 {
		l.colW = minCol
		l.count = layout.Clamp((avail-minTrail)/minCol, 1, ncols)
		if l.count == ncols {
			trail := layout.Clamp(avail-ncols*minCol, minTrail, max(wantTrail, minTrail))
			l.colW = layout.Clamp((avail-trail)/ncols, minCol, maxCol)
		}
	}
	l.first = layout.Clamp(sel-l.count+1, 0, max(ncols-l.count, 0))
	l.statusW = avail - l.count*l.colW
	return l
}

// scrolled says which plugin columns are shown when not all fit, and the
// key that shows the others.
func (l matrixLayout) scrolled(ncols int, next key.Binding) string {
	if l.count >= ncols {
		return ""
	}
	return fmt.Sprintf("plugins %d–%d of %d (%s) ", l.first+1, l.first+l.count, ncols, next.Help().Key)
}

func (m *Model) maxNameWidth() int {
	// Node names are bounded by the visible rows only: measuring every node of a
	// large cluster would cost more than rendering.
	rows, _ := m.table.Window(m.rowsHeight())
	widest := 4
	for _, n := range rows {
		widest = max(widest, len(m.c.NodeName(n)))
	}
	return widest
}

// filterLines renders the Filter phase: fast path, the matrix, the selected
// cell, the PodScheduled summary and the legend.
func (m *Model) filterLines(w, h int) []string {
	c, a, st := m.c, m.a, m.st
	var lines []string
	if fp := c.FastPath; fp != nil {
		style := st.Chosen
		if !fp.Feasible {
			style = st.Unschedulable
		}
		for _, l := range layout.Wrap(narrate.FastPath(fp), w, "  ") {
			lines = append(lines, style.Render(l))
		}
	}
	if a.FastOnly {
		for _, n := range m.table.Rows() {
			if a.Nodes[n].State == analysis.Feasible {
				lines = append(lines, "", "  "+st.Chosen.Render("★ "+c.NodeName(n))+"  the only node filtered: it passed, so it was chosen")
			}
		}
		return lines
	}
	f := c.Filter
	if f == nil {
		return append(lines, st.Dim.Render("Filter was not recorded"))
	}
	plugins := f.Plugins
	diag := m.diag && c.Diagnostic != nil
	if diag {
		plugins = c.Diagnostic.Plugins
	}
	rowsH := m.rowsHeight()
	// The result column asks for its longest visible text: it says why a node
	// failed, which the plugin columns only hint at.
	rows, off := m.table.Window(rowsH)
	want := 0
	for _, n := range rows {
		want = max(want, ansi.StringWidth(m.nodeResultText(n, diag)))
	}
	lay := layoutMatrix(w, len(plugins), m.col, m.maxNameWidth(), 10, want, 3, 6)

	// Column header.
	var hb strings.Builder
	hb.WriteString("  " + layout.Fit("node", lay.nameW) + " ")
	for p := lay.first; p < lay.first+lay.count; p++ {
		// Cut without "…": in two cells "NR" and "NV" tell plugins apart, "N…" would not.
		name := layout.Fit(ansi.Truncate(narrate.Abbrev(plugins[p]), lay.colW-1, ""), lay.colW-1)
		if p == m.col {
			name = st.Cursor.Render(name)
		}
		hb.WriteString(name + " ")
	}
	title := "result"
	if diag {
		title = "diagnostic: every filter on every node"
	}
	hb.WriteString(lay.scrolled(len(plugins), m.Keys.NextColumn) + title)
	lines = append(lines, st.Header.Render(hb.String()))

	for k, n := range rows {
		selected := off+k == m.table.Cursor()
		var b strings.Builder
		mark := "  "
		name := layout.Fit(c.NodeName(n), lay.nameW)
		if n == a.Winner {
			mark = st.Chosen.Render("★ ")
		}
		if selected {
			mark = "▸ "
			name = st.Selected.Render(name)
		}
		b.WriteString(mark + name + " ")
		for p := lay.first; p < lay.first+lay.count; p++ {
			var kind glyph.Kind
			if diag {
				kind, _ = a.DiagCell(n, p)
			} else {
				kind = a.FilterCell(n, p)
			}
			g := kind.Glyph()
			if selected && p == m.col {
				b.WriteString(st.Cursor.Render(g))
			} else {
				b.WriteString(glyph.Style(st, kind).Render(g))
			}
			b.WriteString(strings.Repeat(" ", lay.colW-1))
		}
		b.WriteString(m.nodeResultText(n, diag))
		lines = append(lines, b.String())
	}
	if len(rows) == 0 {
		lines = append(lines, "  "+st.Dim.Render("no node matches "+m.table.Query()))
	}
	summary := layout.Wrap(m.filterSummary(), w, "  ")
	legend := filterLegend(st, w)
	// Spare lines, when the nodes do not fill the body, go to the whole
	// summary, to the rejections grouped by plugin, and then to a second
	// line for the cell under the cursor.
	spare := h - len(lines) - 2 - 1
	if len(summary) > 1 && spare >= len(summary) {
		spare -= len(summary)
	} else {
		summary = summary[:1]
		spare--
	}
	if groups := m.rejectionGroups(w, spare-1); len(groups) > 0 {
		lines = append(lines, "")
		lines = append(lines, groups...)
		spare -= len(groups) + 1
	}
	footer := m.selectedCellLines(plugins, diag, w)
	if len(footer) > 1 && spare < len(footer) {
		// One line, cut where the body ends.
		footer = []string{m.selectedCellLine(plugins, diag, true)}
	}
	for len(lines) < h-len(summary)-len(footer)-1 {
		lines = append(lines, "")
	}
	lines = append(lines, footer...)
	lines = append(lines, summary...)
	return append(lines, legend)
}

// rejectionGroups lists, per rejecting plugin, how many nodes it rejected and why.
// It returns nothing when the groups would not fit in room lines.
func (m *Model) rejectionGroups(w, room int) []string {
	f := m.c.Filter
	if f == nil || len(f.Rejected) == 0 || room < 2 || room < len(f.Plugins)+1 && len(f.Rejected) > room {
		return nil
	}
	type group struct {
		n       int
		code    string
		reasons []string
	}
	byPlugin := map[int]*group{}
	var order []int
	for _, r := range f.Rejected {
		g := byPlugin[r.Plugin]
		if g == nil {
			g = &group{code: r.Code}
			byPlugin[r.Plugin] = g
			order = append(order, r.Plugin)
		}
		g.n++
		for _, reason := range r.Reasons {
			if !slices.Contains(g.reasons, reason) {
				g.reasons = append(g.reasons, reason)
			}
		}
	}
	slices.Sort(order)
	if len(order)+1 > room {
		return nil
	}
	lines := []string{m.st.Header.Render("why nodes were rejected")}
	for _, p := range order {
		g := byPlugin[p]
		lines = append(lines, fmt.Sprintf("  %s %s rejected %d node(s): %s", glyph.Style(m.st, glyph.Of(g.code)).Render(glyph.Of(g.code).Glyph()),
			m.st.Bold.Render(m.a.FilterPlugin(p)), g.n, strings.Join(g.reasons, "; ")))
	}
	// What the pod asks against what is free, when no node had room: the
	// most on one node, and whether the free capacity is fragmented.
	if m.short != nil && len(f.Feasible) == 0 {
		var free []string
		for _, rf := range m.short.Resources {
			free = append(free, layout.Wrap("    "+narrate.ResourceFreeBrief(rf), w, "      ")...)
		}
		if len(lines)+len(free) <= room {
			lines = append(lines, free...)
		}
	}
	return lines
}

// nodeResultText is the result column of a filter row.
func (m *Model) nodeResultText(n int, diag bool) string {
	a, st := m.a, m.st
	if diag {
		var fails []string
		for _, cell := range a.Diag[n] {
			if cell.Code != recorder.CodeSkip && cell.Plugin < len(m.c.Diagnostic.Plugins) {
				fails = append(fails, m.c.Diagnostic.Plugins[cell.Plugin])
			}
		}
		if len(fails) == 0 {
			return st.Success.Render("passes every filter")
		}
		return st.Unschedulable.Render("fails " + strings.Join(fails, ", "))
	}
	r := &a.Nodes[n]
	switch r.State {
	case analysis.Feasible:
		if n == a.Winner {
			return st.Chosen.Render("passed · chosen")
		}
		return st.Success.Render("passed")
	case analysis.Discarded:
		return st.Discarded.Render(narrate.NotKept)
	case analysis.Rejected:
		why := strings.Join(r.Reasons, "; ")
		if list := m.shortfalls(n); len(list) > 0 {
			// The numbers name their resource, and the ⊘ in its
			// column the plugin: they take the room.
			return glyph.Style(st, glyph.Of(r.Code)).Render(narrate.ShortfallsBrief(list))
		}
		return glyph.Style(st, glyph.Of(r.Code)).Render(a.FilterPlugin(r.Plugin) + ": " + why)
	}
	if r.Outside {
		return st.NotEvaluated.Render("not evaluated (outside PreFilter subset)")
	}
	return st.Dim.Render("not evaluated")
}

// shortfalls are the numbers behind node n's rejection for resources, if
// known.
func (m *Model) shortfalls(n int) []recorder.Shortfall {
	if m.short == nil {
		return nil
	}
	return m.short.Nodes[n]
}

// selectedCellLines explain the cell under the cursor in w columns: one
// line, or two for a resource rejection's numbers (briefly when they
// would take more).
func (m *Model) selectedCellLines(plugins []string, diag bool, w int) []string {
	line := m.selectedCellLine(plugins, diag, false)
	if ansi.StringWidth(line) <= w {
		return []string{line}
	}
	lines := layout.Wrap(line, w, "    ")
	if len(lines) > 2 {
		lines = layout.Wrap(m.selectedCellLine(plugins, diag, true), w, "    ")
	}
	if len(lines) > 2 {
		return []string{line}
	}
	return lines
}

// selectedCellLine explains the cell under the cursor; brief words a
// resource rejection's numbers in short.
func (m *Model) selectedCellLine(plugins []string, diag, brief bool) string {
	n, ok := m.table.Selected()
	if !ok || m.col >= len(plugins) {
		return ""
	}
	plugin := plugins[m.col]
	var kind glyph.Kind
	var reasons []string
	if diag {
		kind, reasons = m.a.DiagCell(n, m.col)
	} else {
		kind = m.a.FilterCell(n, m.col)
		if r := &m.a.Nodes[n]; r.State == analysis.Rejected && r.Plugin == m.col {
			reasons = r.Reasons
			if list := m.shortfalls(n); len(list) > 0 && brief {
				reasons = []string{narrate.ShortfallsBrief(list)}
			} else if len(list) > 0 {
				reasons = nil
				for _, s := range list {
					reasons = append(reasons, narrate.Shortfall(s))
				}
			}
		}
	}
	why := map[glyph.Kind]string{
		glyph.Success:      "passed",
		glyph.Skip:         "PreFilter said Skip: nothing to check for this pod",
		glyph.NotCalled:    "not called: an earlier plugin already rejected the node",
		glyph.NotEvaluated: "not evaluated: the search stopped before this node",
		glyph.Discarded:    "passed, but the node was dropped: enough feasible nodes were found",
	}[kind]
	if why == "" {
		why = kind.Label()
	}
	if len(reasons) > 0 {
		why += ": " + strings.Join(reasons, "; ")
	}
	return fmt.Sprintf("%s × %s  %s %s", m.st.Bold.Render(m.c.NodeName(n)), m.st.Bold.Render(plugin),
		glyph.Style(m.st, kind).Render(kind.Glyph()), why)
}

// filterSummary is the PodScheduled message, or the counts when the pod fit.
func (m *Model) filterSummary() string {
	c := m.c
	if c.Outcome.Result != recorder.ResultBound && c.Outcome.Message != "" {
		return m.st.Unschedulable.Render(c.Outcome.Message)
	}
	f := c.Filter
	return fmt.Sprintf("%d/%s nodes passed · %d evaluated from index %d · search stops after %d feasible",
		len(f.Feasible), analysis.SnapshotSize(c), f.Evaluated, c.SearchStart, c.NodesToFind)
}

// filterLegend lists the glyphs of the filter matrix.
func filterLegend(st *theme.Styles, w int) string {
	kinds := []glyph.Kind{glyph.Success, glyph.Unschedulable, glyph.Unresolvable, glyph.Error, glyph.Skip, glyph.NotCalled, glyph.NotEvaluated, glyph.Discarded}
	var parts []string
	for _, k := range kinds {
		if w < 120 {
			parts = append(parts, glyph.Style(st, k).Render(k.Glyph()+k.ShortLabel()))
			continue
		}
		parts = append(parts, glyph.Style(st, k).Render(k.Glyph())+" "+k.Label())
	}
	if w < 120 {
		return strings.Join(parts, " ")
	}
	return strings.Join(parts, "  ")
}

// heatGlyphs shade a score from lowest to highest, so that the heatmap reads
// without colour too.
var heatGlyphs = []string{" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}

// heat renders a value as a shade glyph and number, coloured by its level.
func heat(st *theme.Styles, x int64, r analysis.ColumnRange, w int, selected bool) string {
	level := 0
	switch {
	case r.Hi > r.Lo:
		level = 1 + int((x-r.Lo)*7/(r.Hi-r.Lo))
	case x > 0:
		level = 8
	}
	text := layout.FitLeft(heatGlyphs[level]+fmt.Sprint(x), w-1)
	if selected {
		return st.Cursor.Render(text) + " "
	}
	return st.Heat[min(level*len(st.Heat)/9, len(st.Heat)-1)].Render(text) + " "
}

// scoreLines renders the raw (Score) or normalized (NormalizeScore) heatmap.
func (m *Model) scoreLines(w, h int, normalized bool) []string {
	c, a, st := m.c, m.a, m.st
	s := c.Score
	ranges := m.ranges(normalized)
	lay := layoutMatrix(w, len(s.Plugins), m.col, m.maxNameWidth(), 8, 8, 6, 9)
	var hb, wb strings.Builder
	hb.WriteString("  " + layout.Fit("node", lay.nameW) + " ")
	wb.WriteString("  " + layout.Fit("weight →", lay.nameW) + " ")
	for p := lay.first; p < lay.first+lay.count; p++ {
		pl := &s.Plugins[p]
		name := narrate.Abbrev(pl.Name)
		if normalized && pl.Normalized == nil {
			name += "*"
		}
		cell := layout.FitLeft(name, lay.colW-1)
		if p == m.col {
			cell = st.Cursor.Render(cell)
		}
		hb.WriteString(cell + " ")
		wb.WriteString(layout.FitLeft(fmt.Sprintf("×%d", pl.Weight), lay.colW-1) + " ")
	}
	trail := "raw"
	if normalized {
		trail = "Σ×w"
	}
	hb.WriteString(layout.FitLeft(trail, 6) + " " + lay.scrolled(len(s.Plugins), m.Keys.NextColumn))
	lines := []string{st.Header.Render(hb.String()), st.Dim.Render(wb.String())}
	rows, off := m.table.Window(m.rowsHeight())
	for k, n := range rows {
		i := a.Nodes[n].Score
		selected := off+k == m.table.Cursor()
		var b strings.Builder
		b.WriteString(m.rowMark(n, selected))
		b.WriteString(m.rowName(n, lay.nameW, selected) + " ")
		for p := lay.first; p < lay.first+lay.count; p++ {
			vals := s.Plugins[p].Raw
			if normalized {
				vals = s.Plugins[p].NormalizedScores()
			}
			b.WriteString(heat(st, vals[i], ranges[p], lay.colW, selected && p == m.col))
		}
		if normalized {
			b.WriteString(layout.FitLeft(fmt.Sprint(s.Totals[i]), 6))
		}
		lines = append(lines, b.String())
	}
	for len(lines) < h-3 {
		lines = append(lines, "")
	}
	lines = append(lines, m.scoreCellLine(normalized), m.scoreNote(normalized), st.Dim.Render(fmt.Sprintf("shade: %s low → %s high, per plugin column", heatGlyphs[1], heatGlyphs[8])))
	return lines
}

// ranges returns the column ranges of the current cycle.
func (m *Model) ranges(normalized bool) []analysis.ColumnRange {
	if normalized {
		return m.a.Ranges[1]
	}
	return m.a.Ranges[0]
}

func (m *Model) rowMark(n int, selected bool) string {
	switch {
	case selected:
		return "▸ "
	case n == m.a.Winner:
		return m.st.Chosen.Render("★ ")
	}
	return "  "
}

func (m *Model) rowName(n, w int, selected bool) string {
	name := layout.Fit(m.c.NodeName(n), w)
	if selected {
		return m.st.Selected.Render(name)
	}
	return name
}

// scoreCellLine spells out the selected cell: raw → normalized × weight.
func (m *Model) scoreCellLine(normalized bool) string {
	n, ok := m.table.Selected()
	s := m.c.Score
	if !ok || m.col >= len(s.Plugins) {
		return ""
	}
	i := m.a.Nodes[n].Score
	pl := &s.Plugins[m.col]
	text := fmt.Sprintf("%s × %s: raw %d", m.st.Bold.Render(m.c.NodeName(n)), m.st.Bold.Render(pl.Name), pl.Raw[i])
	if pl.Normalized != nil {
		text += fmt.Sprintf(" → normalized %d", pl.Normalized[i])
	} else if normalized {
		text += " (no NormalizeScore)"
	}
	return text + fmt.Sprintf(" × weight %d = %d", pl.Weight, s.Weighted(m.col, i))
}

// scoreNote lists plugins that did not score (PreScore Skip) and timings.
func (m *Model) scoreNote(normalized bool) string {
	s := m.c.Score
	var skipped []string
	for _, p := range s.PreScore {
		if p.Code == recorder.CodeSkip {
			skipped = append(skipped, p.Plugin)
		}
	}
	var parts []string
	if normalized {
		parts = append(parts, "* no NormalizeScore: raw used")
	} else {
		parts = append(parts, fmt.Sprintf("%d node(s) scored by %d plugin(s)", len(s.Nodes), len(s.Plugins)))
	}
	if len(skipped) > 0 {
		parts = append(parts, "PreScore Skip (no score): "+strings.Join(skipped, ", "))
	}
	return m.st.Dim.Render(strings.Join(parts, " · "))
}

// seriesGlyphs fill the weighted-sum bar segments, one per score plugin, so the
// segments stay apart without colour.
var seriesGlyphs = []string{"█", "▓", "▒", "░", "#", "=", "+", "%", "@", "*"}

func (m *Model) seriesGlyph(p int) string { return m.seriesSegment(p, 1) }

// seriesSegment renders n cells of the bar segment of the cycle's score
// plugin p.
func (m *Model) seriesSegment(p, n int) string {
	st := m.st
	if k, ok := m.series[m.c.Score.Plugins[p].Name]; ok {
		p = k
	}
	return st.Series[p%len(st.Series)].Render(strings.Repeat(seriesGlyphs[p%len(seriesGlyphs)], n))
}

// weightedLegend is the legend of the stacked bars, wrapped to w.
func (m *Model) weightedLegend(w int) []string {
	s := m.c.Score
	if s == nil {
		return nil
	}
	var items []string
	for p := range s.Plugins {
		label := s.Plugins[p].Name
		if w < 120 {
			label = narrate.Abbrev(label)
		}
		text := fmt.Sprintf("%s×%d", label, s.Plugins[p].Weight)
		if p == m.col {
			text = m.st.Cursor.Render(text)
		}
		items = append(items, m.seriesGlyph(p)+" "+text)
	}
	return layout.Flow(items, w, "  ")
}

func (m *Model) weightedLegendHeight(w int) int {
	if m.c == nil || m.c.Score == nil {
		return 1
	}
	return len(m.weightedLegend(w))
}

// weightedLines renders one bar per node, stacked by plugin (normalized score ×
// weight), with totals, best first.
func (m *Model) weightedLines(w, h int) []string {
	c, a, st := m.c, m.a, m.st
	s := c.Score
	var best int64
	for _, t := range s.Totals {
		best = max(best, t)
	}
	nameW := layout.Clamp(m.maxNameWidth(), 8, min(28, max(w/4, 8)))
	const totalW = 6
	barW := max(w-2-nameW-1-totalW-1, 4)
	lines := []string{st.Header.Render("  " + layout.Fit("node", nameW) + " " + layout.Fit("normalized × weight, stacked by plugin", barW) + " " + layout.FitLeft("total", totalW))}
	rows, off := m.table.Window(m.rowsHeight())
	tied := map[int]bool{}
	if sel := c.Selection; sel != nil && len(sel.Top) > 1 {
		for _, n := range sel.Top {
			tied[n] = true
		}
	}
	for k, n := range rows {
		i := a.Nodes[n].Score
		selected := off+k == m.table.Cursor()
		var b strings.Builder
		mark := m.rowMark(n, selected)
		if tied[n] && n != a.Winner && !selected {
			mark = st.Tie.Render("= ")
		}
		b.WriteString(mark + m.rowName(n, nameW, selected) + " ")
		var cum int64
		drawn := 0
		for p := range s.Plugins {
			cum += s.Weighted(p, i)
			end := drawn
			if best > 0 {
				end = int(cum * int64(barW) / best)
			}
			if seg := end - drawn; seg > 0 {
				b.WriteString(m.seriesSegment(p, seg))
				drawn = end
			}
		}
		b.WriteString(strings.Repeat(" ", max(barW-drawn, 0)) + " ")
		total := layout.FitLeft(fmt.Sprint(s.Totals[i]), totalW)
		switch {
		case n == a.Winner:
			total = st.Chosen.Render(total)
		case tied[n]:
			total = st.Tie.Render(total)
		}
		b.WriteString(total)
		lines = append(lines, b.String())
	}
	legend := m.weightedLegend(w)
	for len(lines) < h-len(legend)-1 {
		lines = append(lines, "")
	}
	lines = append(lines, m.weightedCellLine())
	return append(lines, legend...)
}

// weightedCellLine breaks the selected node's total into its parts.
func (m *Model) weightedCellLine() string {
	n, ok := m.table.Selected()
	if !ok {
		return ""
	}
	s := m.c.Score
	i := m.a.Nodes[n].Score
	var parts []string
	for p := range s.Plugins {
		if w := s.Weighted(p, i); w != 0 {
			parts = append(parts, fmt.Sprintf("%s %d×%d", narrate.Abbrev(s.Plugins[p].Name), s.Plugins[p].NormalizedScores()[i], s.Plugins[p].Weight))
		}
	}
	if len(parts) == 0 {
		parts = []string{"every plugin gave 0"}
	}
	return fmt.Sprintf("%s = %s = %d", m.st.Bold.Render(m.c.NodeName(n)), strings.Join(parts, " + "), s.Totals[i])
}
