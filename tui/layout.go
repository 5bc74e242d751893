package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// fit makes s exactly w cells wide: longer text is cut and ends in "…", shorter
// text is padded with spaces. ANSI styling is kept.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-sw)
}

// fitLeft right-aligns s in w cells.
func fitLeft(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return strings.Repeat(" ", w-sw) + s
}

// box lays lines out as exactly h lines of exactly w cells.
func box(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}

// splitLines splits rendered text into lines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}

// wrap breaks plain text into lines of at most w cells at spaces, with indent
// before every line after the first.
func wrap(s string, w int, indent string) []string {
	if w <= len(indent)+4 {
		return []string{s}
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		lead := para[:len(para)-len(strings.TrimLeft(para, " "))]
		line := ""
		for _, word := range strings.Fields(para) {
			switch {
			case line == "":
				line = lead + word
			case ansi.StringWidth(line)+1+ansi.StringWidth(word) <= w:
				line += " " + word
			default:
				out = append(out, line)
				line = indent + word
			}
		}
		out = append(out, line)
	}
	return out
}

// sideBySide joins two equally tall columns with a separator.
func sideBySide(left, right []string, sep string) []string {
	out := make([]string, max(len(left), len(right)))
	for i := range out {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = l + sep + r
	}
	return out
}

// clamp bounds v to [lo, hi]; hi < lo yields lo.
func clamp(v, lo, hi int) int {
	if v > hi {
		v = hi
	}
	if v < lo {
		v = lo
	}
	return v
}

// scrollTo returns the offset that keeps cursor visible in a window of h rows.
func scrollTo(offset, cursor, h, n int) int {
	if h <= 0 {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+h {
		offset = cursor - h + 1
	}
	return clamp(offset, 0, max(n-h, 0))
}

// humanQty prints a resource amount in the units NodeInfo.Allocatable uses.
func humanQty(resource string, v int64) string {
	switch resource {
	case "cpu":
		if v%1000 == 0 {
			return fmt.Sprintf("%d", v/1000)
		}
		return fmt.Sprintf("%dm", v)
	case "memory", "ephemeral-storage":
		const gi, mi = 1 << 30, 1 << 20
		switch {
		case v >= gi && v%gi == 0:
			return fmt.Sprintf("%dGi", v/gi)
		case v >= gi:
			return fmt.Sprintf("%.1fGi", float64(v)/gi)
		case v >= mi:
			return fmt.Sprintf("%dMi", v/mi)
		case v >= 1<<10:
			return fmt.Sprintf("%dKi", v/(1<<10))
		}
	}
	return fmt.Sprintf("%d", v)
}

// ansiStrip removes styling, for rows that are re-styled as a whole.
func ansiStrip(s string) string { return ansi.Strip(s) }

// flow lays items out left to right, breaking lines between items only.
func flow(items []string, w int, sep string) []string {
	var lines []string
	line := ""
	for _, it := range items {
		if line != "" && ansi.StringWidth(line+sep+it) > w {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += sep
		}
		line += it
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
