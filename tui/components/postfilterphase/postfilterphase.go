// Package postfilterphase is the view of the PostFilter phase: preemption's statuses, its candidates and
// victims, and the node it nominated.
package postfilterphase

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/components/pluginstatus"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the view's keys: it scrolls.
type KeyMap = pager.KeyMap

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap { return pager.DefaultKeyMap() }

// Model is the view: a pager over what PostFilter did.
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

// lines renders PostFilter: preemption statuses, candidates, victims.
func (m Model) lines() []string {
	if m.c == nil || m.c.PostFilter == nil {
		return nil // the phase did not run
	}
	w := m.w
	pf := m.c.PostFilter
	lines := []string{"  result: " + glyph.Code(m.st, pf.Code)}
	lines = append(lines, layout.Wrap("  "+pf.Message, w, "    ")...)
	lines = append(lines, "")
	lines = append(lines, pluginstatus.Table(m.st, pf.Plugins, w)...)
	if len(pf.Candidates) > 0 {
		lines = append(lines, "", "  "+m.st.Header.Render("candidates: nodes where evicting pods would make room"))
		for _, cand := range pf.Candidates {
			mark := "  "
			if cand.Node == pf.NominatedNode {
				mark = m.st.Chosen.Render("★ ")
			}
			lines = append(lines, "  "+mark+layout.Fit(cand.Node, 20)+" victims: "+podList(cand.Victims))
		}
	}
	if pf.NominatedNode != "" {
		lines = append(lines, "", "  nominated node: "+m.st.Chosen.Render(pf.NominatedNode)+m.st.Dim.Render("  the pod waits for the victims to leave and is retried"))
	}
	if len(pf.Victims) > 0 {
		lines = append(lines, "", "  "+m.st.Header.Render("victims evicted"))
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
