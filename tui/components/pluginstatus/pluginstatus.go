// Package pluginstatus renders what plugins answered at an extension point,
// as the text phase views show it: the status table (plugin, status code,
// time, reasons), the cycle's outcome, and labelled fields.
package pluginstatus

import (
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// Field renders a "label  value" line, the label in a dim column.
func Field(st *theme.Styles, label, value string) string {
	return "  " + st.Dim.Render(layout.Fit(label, 16)) + " " + value
}

// Outcome is the cycle's outcome in one line, in its colour.
func Outcome(st *theme.Styles, o recorder.Outcome) string {
	switch o.Result {
	case recorder.ResultBound:
		return st.Success.Render(narrate.Outcome(o))
	case recorder.ResultUnschedulable:
		return st.Unschedulable.Render(narrate.Outcome(o))
	}
	return st.Error.Render(narrate.Outcome(o))
}

// Table renders plugin statuses with durations and reasons, w cells wide at
// most for the plugin names (a third of it).
func Table(st *theme.Styles, ps []recorder.PluginStatus, w int) []string {
	nameW := 12
	for _, p := range ps {
		nameW = max(nameW, len(p.Plugin))
	}
	nameW = min(nameW, max(w/3, 12))
	lines := []string{"  " + st.Header.Render(layout.Fit("plugin", nameW)+" "+layout.Fit("status", 30)+" "+layout.FitLeft("took", 8)+"  reasons")}
	for _, p := range ps {
		reasons := strings.Join(nonEmpty(p.Reasons), "; ")
		if p.Timeout > 0 {
			reasons = strings.TrimPrefix(reasons+"; wait up to "+p.Timeout.String(), "; ")
		}
		lines = append(lines, "  "+layout.Fit(p.Plugin, nameW)+" "+layout.Fit(glyph.Code(st, p.Code), 30)+" "+layout.FitLeft(narrate.Duration(p.Duration), 8)+"  "+reasons)
	}
	return lines
}

func nonEmpty(s []string) []string {
	var out []string
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			out = append(out, x)
		}
	}
	return out
}
