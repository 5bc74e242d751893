package tui

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/layout"
)

// seriesGlyphs fill the weighted-sum bar segments, one per score plugin, so the
// segments stay apart without colour.
var seriesGlyphs = []string{"█", "▓", "▒", "░", "#", "=", "+", "%", "@", "*"}

func (v *CycleView) seriesGlyph(p int) string { return v.seriesSegment(p, 1) }

// seriesSegment renders n cells of plugin p's bar segment.
func (v *CycleView) seriesSegment(p, n int) string {
	st := v.st
	return st.Series[p%len(st.Series)].Render(strings.Repeat(seriesGlyphs[p%len(seriesGlyphs)], n))
}

// weightedLegend is the legend of the stacked bars, wrapped to w.
func (v *CycleView) weightedLegend(w int) []string {
	s := v.c.Score
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
		if p == v.col {
			text = v.st.Cursor.Render(text)
		}
		items = append(items, v.seriesGlyph(p)+" "+text)
	}
	return layout.Flow(items, w, "  ")
}

func (v *CycleView) weightedLegendHeight(w int) int {
	if v.c == nil || v.c.Score == nil {
		return 1
	}
	return len(v.weightedLegend(w))
}

// weightedLines renders one bar per node, stacked by plugin (normalized score ×
// weight), with totals, best first.
func (v *CycleView) weightedLines(w, h int) []string {
	c, a, st := v.c, v.a, v.st
	s := c.Score
	var best int64
	for _, t := range s.Totals {
		best = max(best, t)
	}
	nameW := layout.Clamp(v.maxNameWidth(), 8, min(28, max(w/4, 8)))
	const totalW = 6
	barW := max(w-2-nameW-1-totalW-1, 4)
	lines := []string{st.Header.Render("  " + layout.Fit("node", nameW) + " " + layout.Fit("normalized × weight, stacked by plugin", barW) + " " + layout.FitLeft("total", totalW))}
	rows, off := v.table.Window(v.rowsHeight())
	tied := map[int]bool{}
	if sel := c.Selection; sel != nil && len(sel.Top) > 1 {
		for _, n := range sel.Top {
			tied[n] = true
		}
	}
	for k, n := range rows {
		i := a.Nodes[n].Score
		selected := off+k == v.table.Cursor()
		var b strings.Builder
		mark := v.rowMark(n, selected)
		if tied[n] && n != a.Winner && !selected {
			mark = st.Tie.Render("= ")
		}
		b.WriteString(mark + v.rowName(n, nameW, selected) + " ")
		var cum int64
		drawn := 0
		for p := range s.Plugins {
			cum += s.Weighted(p, i)
			end := drawn
			if best > 0 {
				end = int(cum * int64(barW) / best)
			}
			if seg := end - drawn; seg > 0 {
				b.WriteString(v.seriesSegment(p, seg))
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
	legend := v.weightedLegend(w)
	for len(lines) < h-len(legend)-1 {
		lines = append(lines, "")
	}
	lines = append(lines, v.weightedCellLine())
	return append(lines, legend...)
}

// weightedCellLine breaks the selected node's total into its parts.
func (v *CycleView) weightedCellLine() string {
	n, ok := v.table.Selected()
	if !ok {
		return ""
	}
	s := v.c.Score
	i := v.a.Nodes[n].Score
	var parts []string
	for p := range s.Plugins {
		if w := s.Weighted(p, i); w != 0 {
			parts = append(parts, fmt.Sprintf("%s %d×%d", narrate.Abbrev(s.Plugins[p].Name), s.Plugins[p].NormalizedScores()[i], s.Plugins[p].Weight))
		}
	}
	if len(parts) == 0 {
		parts = []string{"every plugin gave 0"}
	}
	return fmt.Sprintf("%s = %s = %d", v.st.Bold.Render(v.c.NodeName(n)), strings.Join(parts, " + "), s.Totals[i])
}
