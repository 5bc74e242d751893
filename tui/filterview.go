package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

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

// scrolled says which plugin columns are shown when not all fit.
func (l matrixLayout) scrolled(ncols int) string {
	if l.count >= ncols {
		return ""
	}
	return fmt.Sprintf("plugins %d–%d of %d (tab) ", l.first+1, l.first+l.count, ncols)
}

func (v *CycleView) maxNameWidth() int {
	// Node names are bounded by the visible rows only: measuring every node of a
	// large cluster would cost more than rendering.
	rows, _ := v.table.Window(v.rowsHeight())
	m := 4
	for _, n := range rows {
		m = max(m, len(v.c.NodeName(n)))
	}
	return m
}

// filterLines renders the Filter phase: fast path, the matrix, the selected
// cell, the PodScheduled summary and the legend.
func (v *CycleView) filterLines(w, h int) []string {
	c, a, st := v.c, v.a, v.st
	var lines []string
	if fp := c.FastPath; fp != nil {
		what := "nominated node"
		if fp.Kind == recorder.FastPathBatch {
			what = "batch hint"
		}
		if fp.Feasible {
			lines = append(lines, st.Chosen.Render(fmt.Sprintf("fast path: %s %s passed every filter; no other node was filtered", what, fp.Node)))
		} else {
			lines = append(lines, st.Unschedulable.Render(fmt.Sprintf("fast path: %s %s failed (%s %s); full search below", what, fp.Node, fp.Code, strings.Join(fp.Reasons, "; "))))
		}
	}
	if a.FastOnly {
		for _, n := range v.table.Rows() {
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
	diag := v.diag && c.Diagnostic != nil
	if diag {
		plugins = c.Diagnostic.Plugins
	}
	rowsH := v.rowsHeight()
	// The result column asks for its longest visible text: it says why a node
	// failed, which the plugin columns only hint at.
	rows, off := v.table.Window(rowsH)
	want := 0
	for _, n := range rows {
		want = max(want, ansi.StringWidth(v.nodeResultText(n, diag)))
	}
	lay := layoutMatrix(w, len(plugins), v.col, v.maxNameWidth(), 10, want, 3, 6)

	// Column header.
	var hb strings.Builder
	hb.WriteString("  " + layout.Fit("node", lay.nameW) + " ")
	for p := lay.first; p < lay.first+lay.count; p++ {
		// Cut without "…": in two cells "NR" and "NV" tell plugins apart, "N…" would not.
		name := layout.Fit(ansi.Truncate(narrate.Abbrev(plugins[p]), lay.colW-1, ""), lay.colW-1)
		if p == v.col {
			name = st.Cursor.Render(name)
		}
		hb.WriteString(name + " ")
	}
	title := "result"
	if diag {
		title = "diagnostic: every filter on every node"
	}
	hb.WriteString(lay.scrolled(len(plugins)) + title)
	lines = append(lines, st.Header.Render(hb.String()))

	for k, n := range rows {
		selected := off+k == v.table.Cursor()
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
			if selected && p == v.col {
				b.WriteString(st.Cursor.Render(g))
			} else {
				b.WriteString(glyph.Style(st, kind).Render(g))
			}
			b.WriteString(strings.Repeat(" ", lay.colW-1))
		}
		b.WriteString(v.nodeResultText(n, diag))
		lines = append(lines, b.String())
	}
	if len(rows) == 0 {
		lines = append(lines, "  "+st.Dim.Render("no node matches "+v.table.Query()))
	}
	footer := []string{v.selectedCellLine(plugins, diag)}
	summary := layout.Wrap(v.filterSummary(), w, "  ")
	legend := filterLegend(st, w)
	// Spare lines, when the nodes do not fill the body, go to the whole
	// summary and to the rejections grouped by plugin.
	spare := h - len(lines) - 2 - 1
	if len(summary) > 1 && spare >= len(summary) {
		spare -= len(summary)
	} else {
		summary = summary[:1]
		spare--
	}
	if groups := v.rejectionGroups(w, spare-1); len(groups) > 0 {
		lines = append(lines, "")
		lines = append(lines, groups...)
	}
	for len(lines) < h-len(summary)-2 {
		lines = append(lines, "")
	}
	lines = append(lines, footer...)
	lines = append(lines, summary...)
	return append(lines, legend)
}

// rejectionGroups lists, per rejecting plugin, how many nodes it rejected and why.
// It returns nothing when the groups would not fit in room lines.
func (v *CycleView) rejectionGroups(w, room int) []string {
	f := v.c.Filter
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
	lines := []string{v.st.Header.Render("why nodes were rejected")}
	for _, p := range order {
		g := byPlugin[p]
		lines = append(lines, fmt.Sprintf("  %s %s rejected %d node(s): %s", glyph.Style(v.st, glyph.Of(g.code)).Render(glyph.Of(g.code).Glyph()),
			v.st.Bold.Render(v.a.FilterPlugin(p)), g.n, strings.Join(g.reasons, "; ")))
	}
	return lines
}

// nodeResultText is the result column of a filter row.
func (v *CycleView) nodeResultText(n int, diag bool) string {
	a, st := v.a, v.st
	if diag {
		var fails []string
		for _, cell := range a.Diag[n] {
			if cell.Code != recorder.CodeSkip && cell.Plugin < len(v.c.Diagnostic.Plugins) {
				fails = append(fails, v.c.Diagnostic.Plugins[cell.Plugin])
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
		return st.Discarded.Render("passed, not kept (enough feasible nodes)")
	case analysis.Rejected:
		return glyph.Style(st, glyph.Of(r.Code)).Render(a.FilterPlugin(r.Plugin) + ": " + strings.Join(r.Reasons, "; "))
	}
	if r.Outside {
		return st.NotEvaluated.Render("not evaluated (outside PreFilter subset)")
	}
	return st.Dim.Render("not evaluated")
}

// selectedCellLine explains the cell under the cursor.
func (v *CycleView) selectedCellLine(plugins []string, diag bool) string {
	n, ok := v.table.Selected()
	if !ok || v.col >= len(plugins) {
		return ""
	}
	plugin := plugins[v.col]
	var kind glyph.Kind
	var reasons []string
	if diag {
		kind, reasons = v.a.DiagCell(n, v.col)
	} else {
		kind = v.a.FilterCell(n, v.col)
		if r := &v.a.Nodes[n]; r.State == analysis.Rejected && r.Plugin == v.col {
			reasons = r.Reasons
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
	return fmt.Sprintf("%s × %s  %s %s", v.st.Bold.Render(v.c.NodeName(n)), v.st.Bold.Render(plugin),
		glyph.Style(v.st, kind).Render(kind.Glyph()), why)
}

// filterSummary is the PodScheduled message, or the counts when the pod fit.
func (v *CycleView) filterSummary() string {
	c := v.c
	if c.Outcome.Result != recorder.ResultBound && c.Outcome.Message != "" {
		return v.st.Unschedulable.Render(c.Outcome.Message)
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
