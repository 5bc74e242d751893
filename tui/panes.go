package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/components/queuephase"
	"github.com/schedscope/schedscope/tui/layout"
)

// focus says which pane takes the keys.
type focus uint8

const (
	focusList focus = iota
	focusCycle
)

// wideWidth is the width from which the list and the cycle sit side by side.
const wideWidth = 150

func (m Model) wide() bool { return m.w >= wideWidth }

// listWidth is the cycle list's width. Side by side, the list narrows while a
// cycle is open, so that the cycle's tables get the room.
func (m Model) listWidth() int {
	if !m.wide() {
		return m.w
	}
	if m.focus == focusCycle {
		return layout.Clamp(m.w/5, 36, 48)
	}
	return layout.Clamp(m.w*38/100, 50, 90)
}

// setFocus moves the keys to pane f and lays the panes out for it.
func (m *Model) setFocus(f focus) {
	if m.focus != f {
		m.focus = f
		m.layout()
	}
}

// syncView shows the list's selected cycle in the cycle view, unless the user
// is inside a cycle (then new cycles must not pull it away).
func (m *Model) syncView() {
	i := m.list.Selected()
	if m.focus == focusCycle {
		i = m.view.Index()
	}
	m.showCycle(i)
}

// showCycle shows cycle index i, with the cluster's binding of its pod, in the
// cycle view.
func (m *Model) showCycle(i int) { m.present(i, false) }

// present shows cycle index i in the cycle view, on its decisive phase when
// decisive is set; a cycle not read yet is asked for (reads) and the view
// says so until it comes.
func (m *Model) present(i int, decisive bool) {
	if i < 0 || i >= len(m.cycles) {
		return
	}
	c := m.cycles[i]
	if c == nil {
		if m.want != i || decisive {
			m.want, m.wantOpen = i, decisive
		}
		m.view.Await(i, m.pendingText(i))
		return
	}
	m.want = -1
	if m.opts.Recording != nil {
		if evict := m.window.use(i); evict >= 0 {
			m.cycles[evict] = nil
		}
	}
	if decisive {
		m.view.OpenCycle(m.cycles, i)
	} else {
		m.view.SetCycle(m.cycles, i)
	}
	m.view.SetObserved(m.observed.of(c.Seq))
	note := ""
	if m.list.Tags()[i] == "" {
		note, _ = m.list.Mark(c.Seq)
	}
	m.view.SetMark(note)
	m.view.SetGroup(m.groupTopic(c.Seq))
	m.view.SetQueueMoves(queuephase.Moves(m.queueOf[c.Pod.Key()], c))
}

// open focuses the cycle view on cycle index i, on the phase that decided its
// outcome.
func (m *Model) open(i int) {
	if i < 0 || i >= len(m.cycles) {
		return
	}
	m.list.Select(i)
	m.list.SetFollow(false)
	m.present(i, true)
	m.setFocus(focusCycle)
}

// step focuses the cycle view on cycle index i, keeping the phase when it ran
// there too (for ]/[ from inside a cycle).
func (m *Model) step(i int) {
	if i < 0 || i >= len(m.cycles) {
		return
	}
	m.list.Select(i)
	m.list.SetFollow(false)
	m.showCycle(i)
	m.setFocus(focusCycle)
}

func (m Model) handleCycleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.view.Keys.Back):
		if !m.view.Back() && !m.backToStory() {
			m.setFocus(focusList)
			m.list.Select(m.view.Index())
		}
		return m, nil
	case key.Matches(msg, m.view.Keys.NextFailure, m.view.Keys.PrevFailure):
		dir := 1
		if key.Matches(msg, m.view.Keys.PrevFailure) {
			dir = -1
		}
		m.list.Select(m.view.Index())
		if m.list.JumpFailure(dir) {
			m.step(m.list.Selected())
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.view, cmd = m.view.Update(msg)
	return m, cmd
}

func (m *Model) handleClick(mouse tea.Mouse) {
	y := mouse.Y - 1 // below the title line
	if y < 0 || y >= m.h-rootChrome || m.top() != nil {
		return
	}
	if m.wide() && mouse.X > m.listWidth() {
		x := mouse.X - m.listWidth() - 1 // where the user saw it, before the list narrows
		if m.focus != focusCycle && len(m.cycles) > 0 {
			m.setFocus(focusCycle)
			m.list.SetFollow(false)
		}
		m.view.Click(x, y)
		return
	}
	if m.wide() || m.focus == focusList {
		if m.wide() {
			m.setFocus(focusList)
		}
		m.list.Click(y)
		m.syncView()
		return
	}
	m.view.Click(mouse.X, y)
}

// panes draws the cycle list and the cycle view, h lines high: side by
// side on a wide screen, else the one with the keys.
func (m Model) panes(h int) []string {
	switch {
	case m.wide():
		left := layout.SplitLines(m.list.View())
		right := layout.SplitLines(m.view.View())
		sep := m.st.Border.Render("│")
		return layout.SideBySide(layout.Box(left, m.listWidth(), h), layout.Box(right, m.w-m.listWidth()-1, h), sep)
	case m.focus == focusCycle:
		return layout.Box(layout.SplitLines(m.view.View()), m.w, h)
	}
	return layout.Box(layout.SplitLines(m.list.View()), m.w, h)
}

// shownCycle is the cycle the keys act on: the open one, or the one selected
// in the list.
func (m Model) shownCycle() *recorder.Cycle {
	if m.focus == focusCycle {
		return m.view.Cycle()
	}
	if i := m.list.Selected(); i >= 0 && i < len(m.cycles) {
		return m.cycles[i]
	}
	return nil
}
