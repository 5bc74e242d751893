// Package prefilterphase is the view of the PreFilter phase: the status each plugin returned, and the node
// subset PreFilter narrowed Filter to.
package prefilterphase

import (
	"fmt"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/pluginstatus"
	"github.com/schedscope/schedscope/tui/components/textphase"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the view's keys: it scrolls.
type KeyMap = textphase.KeyMap

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap { return textphase.DefaultKeyMap() }

// Model is the view: a pager over what PreFilter did.
type Model = textphase.Model

// New returns a view with no cycle.
func New(st *theme.Styles) Model { return textphase.New(st, lines) }

// lines renders PreFilter: status per plugin and the node subset.
func lines(st *theme.Styles, c *recorder.Cycle, w int) []string {
	if c == nil || c.PreFilter == nil {
		return nil // the phase did not run
	}
	pf := c.PreFilter
	lines := []string{"  aggregated status: " + glyph.Code(st, pf.Code) + " " + pf.Message, ""}
	lines = append(lines, pluginstatus.Table(st, pf.Plugins, w)...)
	lines = append(lines, "")
	if pf.NodeSubset != nil {
		lines = append(lines, "  "+narrate.NodeSubset(pf, analysis.SnapshotSize(c), len(pf.NodeSubset)))
	} else {
		lines = append(lines, st.Dim.Render("  no node subset: every node is a candidate for Filter"))
	}
	var skipped int
	for _, p := range pf.Plugins {
		if p.Code == recorder.CodeSkip {
			skipped++
		}
	}
	if skipped > 0 {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  %d plugin(s) said Skip: their Filter will not run for this pod", skipped)))
	}
	return lines
}
