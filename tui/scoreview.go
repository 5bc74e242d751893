package tui

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

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
func (v *CycleView) scoreLines(w, h int, normalized bool) []string {
	c, a, st := v.c, v.a, v.st
	s := c.Score
	ranges := v.ranges(normalized)
	lay := layoutMatrix(w, len(s.Plugins), v.col, v.maxNameWidth(), 8, 8, 6, 9)
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
		if p == v.col {
			cell = st.Cursor.Render(cell)
		}
		hb.WriteString(cell + " ")
		wb.WriteString(layout.FitLeft(fmt.Sprintf("×%d", pl.Weight), lay.colW-1) + " ")
	}
	trail := "raw"
	if normalized {
		trail = "Σ×w"
	}
	hb.WriteString(layout.FitLeft(trail, 6) + " " + lay.scrolled(len(s.Plugins)))
	lines := []string{st.Header.Render(hb.String()), st.Dim.Render(wb.String())}
	rows, off := v.table.Window(v.rowsHeight())
	for k, n := range rows {
		i := a.Nodes[n].Score
		selected := off+k == v.table.Cursor()
		var b strings.Builder
		b.WriteString(v.rowMark(n, selected))
		b.WriteString(v.rowName(n, lay.nameW, selected) + " ")
		for p := lay.first; p < lay.first+lay.count; p++ {
			vals := s.Plugins[p].Raw
			if normalized {
				vals = s.Plugins[p].NormalizedScores()
			}
			b.WriteString(heat(st, vals[i], ranges[p], lay.colW, selected && p == v.col))
		}
		if normalized {
			b.WriteString(layout.FitLeft(fmt.Sprint(s.Totals[i]), 6))
		}
		lines = append(lines, b.String())
	}
	for len(lines) < h-3 {
		lines = append(lines, "")
	}
	lines = append(lines, v.scoreCellLine(normalized), v.scoreNote(normalized), st.Dim.Render(fmt.Sprintf("shade: %s low → %s high, per plugin column", heatGlyphs[1], heatGlyphs[8])))
	return lines
}

// ranges returns the column ranges of the current cycle.
func (v *CycleView) ranges(normalized bool) []analysis.ColumnRange {
	if normalized {
		return v.a.Ranges[1]
	}
	return v.a.Ranges[0]
}

func (v *CycleView) rowMark(n int, selected bool) string {
	switch {
	case selected:
		return "▸ "
	case n == v.a.Winner:
		return v.st.Chosen.Render("★ ")
	}
	return "  "
}

func (v *CycleView) rowName(n, w int, selected bool) string {
	name := layout.Fit(v.c.NodeName(n), w)
	if selected {
		return v.st.Selected.Render(name)
	}
	return name
}

// scoreCellLine spells out the selected cell: raw → normalized × weight.
func (v *CycleView) scoreCellLine(normalized bool) string {
	n, ok := v.table.Selected()
	s := v.c.Score
	if !ok || v.col >= len(s.Plugins) {
		return ""
	}
	i := v.a.Nodes[n].Score
	pl := &s.Plugins[v.col]
	text := fmt.Sprintf("%s × %s: raw %d", v.st.Bold.Render(v.c.NodeName(n)), v.st.Bold.Render(pl.Name), pl.Raw[i])
	if pl.Normalized != nil {
		text += fmt.Sprintf(" → normalized %d", pl.Normalized[i])
	} else if normalized {
		text += " (no NormalizeScore)"
	}
	return text + fmt.Sprintf(" × weight %d = %d", pl.Weight, s.Weighted(v.col, i))
}

// scoreNote lists plugins that did not score (PreScore Skip) and timings.
func (v *CycleView) scoreNote(normalized bool) string {
	s := v.c.Score
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
	return v.st.Dim.Render(strings.Join(parts, " · "))
}
