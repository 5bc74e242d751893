// Package queuephase is the view of the Queue phase: the pod leaving the scheduling queue, the attempt,
// the profile, the node snapshot, the outcome and the time each phase took.
package queuephase

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/components/pluginstatus"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the view's keys: it scrolls.
type KeyMap = pager.KeyMap

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap { return pager.DefaultKeyMap() }

// Model is the view: a pager over the cycle's start.
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

// lines renders the pod, the attempt and the cycle's timings.
func (m Model) lines() []string {
	if m.c == nil {
		return nil
	}
	w := m.w
	c := m.c
	pod := c.Pod.Key()
	if c.Pod.Priority != 0 {
		pod += fmt.Sprintf(" (priority %d)", c.Pod.Priority)
	}
	lines := []string{
		pluginstatus.Field(m.st, "pod", m.st.Bold.Render(pod)),
		pluginstatus.Field(m.st, "attempt", fmt.Sprintf("%d%s", c.Attempt, map[bool]string{true: " (retried after an earlier failure)", false: " (first try)"}[c.Attempt > 1])),
		pluginstatus.Field(m.st, "profile", c.Profile),
		pluginstatus.Field(m.st, "started", c.Start.UTC().Format("2006-01-02 15:04:05.000000 UTC")),
		pluginstatus.Field(m.st, "took", narrate.Duration(c.Duration)+" from the start of the algorithm to the outcome"),
		pluginstatus.Field(m.st, "nodes", fmt.Sprintf("%s in the snapshot · search starts at index %d · stops after %d feasible", analysis.SnapshotSize(c), c.SearchStart, c.NodesToFind)),
	}
	if !c.NodeNamesKnown() {
		lines = append(lines, pluginstatus.Field(m.st, "", m.st.Problem.Render("node names unknown: the recording lacks this cycle's node set, so nodes show as #index")))
	}
	if fp := c.FastPath; fp != nil {
		res := "passed: chosen without a full search"
		if !fp.Feasible {
			res = "failed: full search follows"
		}
		lines = append(lines, pluginstatus.Field(m.st, "fast path", fmt.Sprintf("%s %s %s", fp.Kind, fp.Node, res)))
	}
	if c.BatchHint != "" {
		lines = append(lines, pluginstatus.Field(m.st, "batch hint", c.BatchHint))
	}
	lines = append(lines, pluginstatus.Field(m.st, "outcome", pluginstatus.Outcome(m.st, m.c.Outcome)))
	if len(c.Timings) > 0 {
		lines = append(lines, "", "  "+m.st.Header.Render("time per phase"))
		var longest int64
		for _, t := range c.Timings {
			longest = max(longest, int64(t.Duration))
		}
		barW := max(w-2-16-1-10-1, 4)
		for _, t := range c.Timings {
			n := 0
			if longest > 0 {
				n = int(int64(t.Duration) * int64(barW) / longest)
			}
			lines = append(lines, "  "+layout.Fit(t.Phase, 16)+" "+layout.FitLeft(narrate.Duration(t.Duration), 10)+" "+m.st.Discarded.Render(strings.Repeat("▬", max(n, 1))))
		}
	}
	return lines
}
