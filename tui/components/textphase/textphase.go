// Package textphase is a phase view that is text: a pager over the lines a
// phase's Render words for a cycle at a width. The Queue, PreFilter,
// PostFilter and Reserve … PostBind views are textphase models with their
// own Render.
package textphase

import (
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/theme"
)

// Render words what a phase of c did, in lines at most w cells wide; nil
// when the phase did not run.
type Render func(st *theme.Styles, c *recorder.Cycle, w int) []string

// KeyMap holds the view's keys: it scrolls.
type KeyMap = pager.KeyMap

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap { return pager.DefaultKeyMap() }

// Model is the view: a pager over what render words of the cycle.
type Model struct {
	pager.Model
	st     *theme.Styles
	c      *recorder.Cycle
	w      int
	render Render
}

// New returns a view with no cycle that words one with render.
func New(st *theme.Styles, render Render) Model {
	return Model{Model: pager.New(), st: st, render: render}
}

// SetCycle shows c, from the top.
func (m *Model) SetCycle(c *recorder.Cycle) {
	m.c = c
	m.SetLines(m.lines())
	m.Top()
}

// SetRender words the cycle with render from now on, keeping the scroll.
func (m *Model) SetRender(render Render) {
	m.render = render
	m.SetLines(m.lines())
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

func (m Model) lines() []string {
	if m.c == nil || m.render == nil {
		return nil
	}
	return m.render(m.st, m.c, m.w)
}
