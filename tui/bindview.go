package tui

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/components/pluginstatus"
)

// bindLines renders Reserve, Permit, PreBind, Bind or PostBind: status and
// duration per plugin, the phase's time, and the outcome.
func (v *CycleView) bindLines(w int) []string {
	c := v.c
	var name string
	var ps []recorder.PluginStatus
	switch v.phase {
	case phReserve:
		name, ps = recorder.PhaseReserve, c.Reserve
	case phPermit:
		name, ps = recorder.PhasePermit, c.Permit
	case phPreBind:
		name, ps = recorder.PhasePreBind, c.PreBind
	case phBind:
		name, ps = recorder.PhaseBind, c.Bind
	case phPostBind:
		name, ps = recorder.PhasePostBind, c.PostBind
	}
	var lines []string
	for _, t := range c.Timings {
		if t.Phase == name || (name == recorder.PhasePermit && t.Phase == recorder.PhaseWaitOnPermit) {
			lines = append(lines, pluginstatus.Field(v.st, t.Phase+" took", narrate.Duration(t.Duration)))
		}
	}
	if len(ps) > 0 {
		lines = append(lines, "")
		lines = append(lines, pluginstatus.Table(v.st, ps, w)...)
	} else {
		lines = append(lines, "", "  "+v.st.Dim.Render(v.noStatusWhy(name)))
	}
	if v.phase == phReserve && len(c.Unreserve) > 0 {
		lines = append(lines, "", "  "+v.st.Unschedulable.Render("Unreserve: a later step failed, so the reservations were undone"))
		lines = append(lines, pluginstatus.Table(v.st, c.Unreserve, w)...)
	}
	lines = append(lines, "", pluginstatus.Field(v.st, "outcome", pluginstatus.Outcome(v.st, v.c.Outcome)))
	return lines
}

// noStatusWhy says why an extension point has no plugin statuses.
func (v *CycleView) noStatusWhy(point string) string {
	if v.header != nil {
		if p := v.header.Profile(v.c.Profile); p != nil {
			for _, ep := range p.ExtensionPoints {
				if ep.Name == point {
					var names []string
					for _, pl := range ep.Plugins {
						names = append(names, pl.Name)
					}
					return fmt.Sprintf("no plugin returned a status here; enabled in the profile: %s", strings.Join(names, ", "))
				}
			}
			return fmt.Sprintf("no %s plugin is enabled in profile %s", point, v.c.Profile)
		}
	}
	return "no plugin status was recorded at " + point
}
