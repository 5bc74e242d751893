// Package prefilterphase is the view of the PreFilter phase: the status each plugin returned, and the node
// subset PreFilter narrowed Filter to.
package prefilterphase

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/components/pluginstatus"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the view's keys: it scrolls.
type KeyMap = pager.KeyMap

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap { return pager.DefaultKeyMap() }

// Model is the view: a pager over what PreFilter did.
type Model struct {
	pager.Model
	st *theme.Styles
	c  *recorder.Cycle
	w  int
}

// New returns a view with no cycle.
func New(st *theme.Styles) Model { return Model{Model: pager.New(), st: st} }

// SetCycle shows c, from the top.
func (m *Model) SetCycle(c *recorder.Cycle) {
	m.c = c
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

// lines renders PreFilter: status per plugin and the node subset.
func (m Model) lines() []string {
	if m.c == nil || m.c.PreFilter == nil {
		return nil // the phase did not run
	}
	w := m.w
	pf := m.c.PreFilter
	lines := []string{"  aggregated status: " + glyph.Code(m.st, pf.Code) + " " + pf.Message, ""}
	lines = append(lines, pluginstatus.Table(m.st, pf.Plugins, w)...)
	lines = append(lines, "")
	if pf.NodeSubset != nil {
		lines = append(lines, fmt.Sprintf("  %s narrowed filtering to %d of %s node(s): %s", strings.Join(pf.SubsetPlugins, ", "),
			len(pf.NodeSubset), analysis.SnapshotSize(m.c), strings.Join(pf.NodeSubset, ", ")))
	} else {
		lines = append(lines, m.st.Dim.Render("  no node subset: every node is a candidate for Filter"))
	}
	var skipped int
	for _, p := range pf.Plugins {
		if p.Code == recorder.CodeSkip {
			skipped++
		}
	}
	if skipped > 0 {
		lines = append(lines, m.st.Dim.Render(fmt.Sprintf("  %d plugin(s) said Skip: their Filter will not run for this pod", skipped)))
	}
	return lines
}
