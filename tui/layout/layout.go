// Package layout fits text into cells: cutting and padding to a width,
// boxing lines to a size, wrapping, flowing and windowing them. Widths are
// in terminal cells, and ANSI styling is kept.
package layout

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// Fit makes s exactly w cells wide: longer text is cut and ends in "…", shorter
// text is padded with spaces. ANSI styling is kept.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-sw)
}

// FitLeft right-aligns s in w cells.
func FitLeft(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return strings.Repeat(" ", w-sw) + s
}

// Box lays lines out as exactly h lines of exactly w cells.
func Box(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = Fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}

// SplitLines splits rendered text into lines.
func SplitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}

// Wrap breaks plain text into lines of at most w cells at spaces, with indent
// before every line after the first.
func Wrap(s string, w int, indent string) []string {
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

// SideBySide joins two equally tall columns with a separator.
func SideBySide(left, right []string, sep string) []string {
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

// Clamp bounds v to [lo, hi]; hi < lo yields lo.
func Clamp(v, lo, hi int) int {
	if v > hi {
		v = hi
	}
	if v < lo {
		v = lo
	}
	return v
}

// ScrollTo returns the offset that keeps cursor visible in a window of h rows.
func ScrollTo(offset, cursor, h, n int) int {
	if h <= 0 {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+h {
		offset = cursor - h + 1
	}
	return Clamp(offset, 0, max(n-h, 0))
}

// Flow lays items out left to right, breaking lines between items only.
func Flow(items []string, w int, sep string) []string {
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

// ScrollLines windows text lines, marking hidden lines below with the key
// that scrolls down.
func ScrollLines(lines []string, off, h int, down key.Binding) []string {
	off = Clamp(off, 0, max(len(lines)-h, 0))
	end := min(off+h, len(lines))
	out := lines[off:end]
	if end < len(lines) && h > 0 {
		out = append(out[:len(out)-1:len(out)-1], fmt.Sprintf("  … %d more line(s), %s scrolls", len(lines)-end+1, down.Help().Key))
	}
	return out
}
