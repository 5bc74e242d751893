// Package bindphase is the view of one extension point of the binding
// cycle (Reserve, Permit, PreBind, Bind or PostBind): the point's time, the
// status each plugin returned, Unreserve when a later step failed, and the
// cycle's outcome.
package bindphase

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/components/pluginstatus"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the view's keys: it scrolls.
type KeyMap struct {
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
}

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		PageUp:   key.NewBinding(key.WithKeys("ctrl+u", "pgup"), key.WithHelp("ctrl+u", "page up")),
		PageDown: key.NewBinding(key.WithKeys("ctrl+d", "pgdown"), key.WithHelp("ctrl+d", "page down")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Down} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown}}
}

// Model is the view of one binding extension point of a cycle.
type Model struct {
	st     *theme.Styles
	Keys   KeyMap
	header *recorder.Header // for the plugins a profile enables; may be nil
	c      *recorder.Cycle
	point  string
	scroll int
	w, h   int
}

// New returns a view with no cycle.
func New(st *theme.Styles) Model { return Model{st: st, Keys: DefaultKeyMap()} }

// SetHeader gives the view the recording's header, which says which plugins
// a profile enables.
func (m *Model) SetHeader(h *recorder.Header) { m.header = h }

// SetCycle shows extension point point (recorder.PhaseReserve, PhasePermit,
// PhasePreBind, PhaseBind or PhasePostBind) of c, from the top.
func (m *Model) SetCycle(c *recorder.Cycle, point string) {
	m.c, m.point, m.scroll = c, point, 0
}

// SetSize sets the view's size.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.Scroll(0)
}

// Scroll moves the view by n lines.
func (m *Model) Scroll(n int) {
	m.scroll = layout.Clamp(m.scroll+n, 0, max(len(m.lines())-m.h, 0))
}

// Update scrolls the view.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	page := max(m.h/2, 1)
	switch {
	case key.Matches(k, m.Keys.Up):
		m.Scroll(-1)
	case key.Matches(k, m.Keys.Down):
		m.Scroll(1)
	case key.Matches(k, m.Keys.PageUp):
		m.Scroll(-page)
	case key.Matches(k, m.Keys.PageDown):
		m.Scroll(page)
	case key.Matches(k, m.Keys.Top):
		m.Scroll(-1 << 30)
	case key.Matches(k, m.Keys.Bottom):
		m.Scroll(1 << 30)
	}
	return m, nil
}

// View renders the visible lines.
func (m Model) View() string {
	if m.c == nil || m.w <= 0 || m.h <= 0 {
		return ""
	}
	return strings.Join(layout.ScrollLines(m.lines(), m.scroll, m.h, m.Keys.Down), "\n")
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
