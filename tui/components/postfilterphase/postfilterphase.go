// Package postfilterphase is the view of the PostFilter phase: preemption's statuses, its candidates and
// victims, and the node it nominated.
package postfilterphase

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/components/pluginstatus"
	"github.com/schedscope/schedscope/tui/components/textphase"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the view's keys: it scrolls.
type KeyMap = textphase.KeyMap

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap { return textphase.DefaultKeyMap() }

// Model is the view: a pager over what PostFilter did.
type Model = textphase.Model

// New returns a view with no cycle.
func New(st *theme.Styles) Model { return textphase.New(st, lines) }

// lines renders PostFilter: preemption statuses, candidates, victims.
func lines(st *theme.Styles, c *recorder.Cycle, w int) []string {
	if c == nil || c.PostFilter == nil {
		return nil // the phase did not run
	}
	pf := c.PostFilter
	lines := []string{"  result: " + glyph.Code(st, pf.Code)}
	lines = append(lines, layout.Wrap("  "+pf.Message, w, "    ")...)
	lines = append(lines, "")
	// A plugin with nothing to do says so, where upstream gives no reason.
	plugins := make([]recorder.PluginStatus, len(pf.Plugins))
	for i, s := range pf.Plugins {
		plugins[i] = s
		if why := narrate.PostFilterStatus(s); why != "" {
			plugins[i].Reasons = []string{why}
		}
	}
	lines = append(lines, pluginstatus.Table(st, plugins, w)...)
	if len(pf.Candidates) > 0 {
		lines = append(lines, "", "  "+st.Header.Render("candidates: nodes where evicting pods would make room"))
		for _, cand := range pf.Candidates {
			mark := "  "
			if cand.Node == pf.NominatedNode {
				mark = st.Chosen.Render("★ ")
			}
			lines = append(lines, "  "+mark+layout.Fit(cand.Node, 20)+" victims: "+podList(cand.Victims))
		}
	}
	if pf.NominatedNode != "" {
		lines = append(lines, "", "  nominated node: "+st.Chosen.Render(pf.NominatedNode)+st.Dim.Render("  the pod waits for the victims to leave and is retried"))
	}
	if len(pf.Victims) > 0 {
		lines = append(lines, "", "  "+st.Header.Render("victims evicted"))
		for _, p := range pf.Victims {
			lines = append(lines, fmt.Sprintf("    %s (priority %d) on %s", p.Key(), p.Priority, p.Node))
		}
	}
	return lines
}

func podList(ps []recorder.PodRef) string {
	if len(ps) == 0 {
		return "none"
	}
	var s []string
	for _, p := range ps {
		s = append(s, fmt.Sprintf("%s (prio %d)", p.Key(), p.Priority))
	}
	return strings.Join(s, ", ")
}
