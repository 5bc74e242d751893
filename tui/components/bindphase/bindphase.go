// Package bindphase is the view of one extension point of the binding
// cycle (Reserve, Permit, PreBind, Bind or PostBind): the point's time, the
// status each plugin returned, Unreserve when a later step failed, and the
// cycle's outcome.
package bindphase

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/components/pluginstatus"
	"github.com/schedscope/schedscope/tui/components/textphase"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the view's keys: it scrolls.
type KeyMap = textphase.KeyMap

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap { return textphase.DefaultKeyMap() }

// Model is the view of one binding extension point of a cycle: a pager
// over what the point did.
type Model struct {
	textphase.Model
	header *recorder.Header // for the plugins a profile enables; may be nil
	point  string
}

// New returns a view with no cycle.
func New(st *theme.Styles) Model { return Model{Model: textphase.New(st, nil)} }

// SetHeader gives the view the recording's header, which says which plugins
// a profile enables.
func (m *Model) SetHeader(h *recorder.Header) {
	m.header = h
	m.SetRender(render(h, m.point))
}

// SetCycle shows extension point point (recorder.PhaseReserve, PhasePermit,
// PhasePreBind, PhaseBind or PhasePostBind) of c, from the top.
func (m *Model) SetCycle(c *recorder.Cycle, point string) {
	m.point = point
	m.SetRender(render(m.header, point))
	m.Model.SetCycle(c)
}

// Update scrolls the view.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.Model, cmd = m.Model.Update(msg)
	return m, cmd
}

// statuses are the point's plugin statuses in c.
func statuses(c *recorder.Cycle, point string) []recorder.PluginStatus {
	switch point {
	case recorder.PhaseReserve:
		return c.Reserve
	case recorder.PhasePermit:
		return c.Permit
	case recorder.PhasePreBind:
		return c.PreBind
	case recorder.PhaseBind:
		return c.Bind
	case recorder.PhasePostBind:
		return c.PostBind
	}
	return nil
}

// render words the point: status and duration per plugin, the point's
// time, and the outcome.
func render(h *recorder.Header, point string) textphase.Render {
	return func(st *theme.Styles, c *recorder.Cycle, w int) []string {
		var lines []string
		for _, t := range c.Timings {
			if t.Phase == point || (point == recorder.PhasePermit && t.Phase == recorder.PhaseWaitOnPermit) {
				lines = append(lines, pluginstatus.Field(st, t.Phase+" took", narrate.Duration(t.Duration)))
			}
		}
		if ps := statuses(c, point); len(ps) > 0 {
			lines = append(lines, "")
			lines = append(lines, pluginstatus.Table(st, ps, w)...)
		} else {
			lines = append(lines, "", "  "+st.Dim.Render(noStatusWhy(h, c, point)))
		}
		if point == recorder.PhaseReserve && len(c.Unreserve) > 0 {
			lines = append(lines, "", "  "+st.Unschedulable.Render("Unreserve: a later step failed, so the reservations were undone"))
			lines = append(lines, pluginstatus.Table(st, c.Unreserve, w)...)
		}
		return append(lines, "", pluginstatus.Field(st, "outcome", pluginstatus.Outcome(st, c.Outcome)))
	}
}

// noStatusWhy says why the extension point has no plugin statuses.
func noStatusWhy(h *recorder.Header, c *recorder.Cycle, point string) string {
	if h != nil {
		if p := h.Profile(c.Profile); p != nil {
			for _, ep := range p.ExtensionPoints {
				if ep.Name == point {
					var names []string
					for _, pl := range ep.Plugins {
						names = append(names, pl.Name)
					}
					return fmt.Sprintf("no plugin returned a status here; enabled in the profile: %s", strings.Join(names, ", "))
				}
			}
			return fmt.Sprintf("no %s plugin is enabled in profile %s", point, c.Profile)
		}
	}
	return "no plugin status was recorded at " + point
}
