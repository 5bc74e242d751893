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
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/components/pluginstatus"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the view's keys: it scrolls.
type KeyMap = pager.KeyMap

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap { return pager.DefaultKeyMap() }

// Model is the view of one binding extension point of a cycle: a pager
// over what the point did.
type Model struct {
	pager.Model
	st     *theme.Styles
	header *recorder.Header // for the plugins a profile enables; may be nil
	c      *recorder.Cycle
	point  string
	w      int
}

// New returns a view with no cycle.
func New(st *theme.Styles) Model { return Model{Model: pager.New(), st: st} }

// SetHeader gives the view the recording's header, which says which plugins
// a profile enables.
func (m *Model) SetHeader(h *recorder.Header) {
	m.header = h
	m.SetLines(m.lines())
}

// SetCycle shows extension point point (recorder.PhaseReserve, PhasePermit,
// PhasePreBind, PhaseBind or PhasePostBind) of c, from the top.
func (m *Model) SetCycle(c *recorder.Cycle, point string) {
	m.c, m.point = c, point
	m.SetLines(m.lines())
	m.Top()
}

// SetSize sets the view's size.
func (m *Model) SetSize(w, h int) {
	m.w = w
	m.SetLines(m.lines())
	m.SetHeight(h)
}

// Update scrolls the view.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.Model, cmd = m.Model.Update(msg)
	return m, cmd
}

// View renders the visible lines.
func (m Model) View() string {
	if m.c == nil || m.w <= 0 {
		return ""
	}
	return m.Model.View()
}

// statuses are the point's plugin statuses in the cycle.
func (m Model) statuses() []recorder.PluginStatus {
	c := m.c
	switch m.point {
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

// lines renders the point: status and duration per plugin, the point's
// time, and the outcome.
func (m Model) lines() []string {
	if m.c == nil {
		return nil
	}
	c, st, w := m.c, m.st, m.w
	var lines []string
	for _, t := range c.Timings {
		if t.Phase == m.point || (m.point == recorder.PhasePermit && t.Phase == recorder.PhaseWaitOnPermit) {
			lines = append(lines, pluginstatus.Field(st, t.Phase+" took", narrate.Duration(t.Duration)))
		}
	}
	if ps := m.statuses(); len(ps) > 0 {
		lines = append(lines, "")
		lines = append(lines, pluginstatus.Table(st, ps, w)...)
	} else {
		lines = append(lines, "", "  "+st.Dim.Render(m.noStatusWhy()))
	}
	if m.point == recorder.PhaseReserve && len(c.Unreserve) > 0 {
		lines = append(lines, "", "  "+st.Unschedulable.Render("Unreserve: a later step failed, so the reservations were undone"))
		lines = append(lines, pluginstatus.Table(st, c.Unreserve, w)...)
	}
	return append(lines, "", pluginstatus.Field(st, "outcome", pluginstatus.Outcome(st, c.Outcome)))
}

// noStatusWhy says why the extension point has no plugin statuses.
func (m Model) noStatusWhy() string {
	if m.header != nil {
		if p := m.header.Profile(m.c.Profile); p != nil {
			for _, ep := range p.ExtensionPoints {
				if ep.Name == m.point {
					var names []string
					for _, pl := range ep.Plugins {
						names = append(names, pl.Name)
					}
					return fmt.Sprintf("no plugin returned a status here; enabled in the profile: %s", strings.Join(names, ", "))
				}
			}
			return fmt.Sprintf("no %s plugin is enabled in profile %s", m.point, m.c.Profile)
		}
	}
	return "no plugin status was recorded at " + m.point
}
