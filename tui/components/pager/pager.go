// Package pager scrolls lines of text in a window, marking the lines hidden
// below it; the text phase views are pagers over what they render.
package pager

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/layout"
)

// KeyMap holds the pager's keys: vim keys and arrows.
type KeyMap struct {
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
}

// DefaultKeyMap returns the pager's keys.
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

// Model is the pager.
type Model struct {
	Keys   KeyMap
	lines  []string
	scroll int // first line shown
	h      int
}

// New returns an empty pager.
func New() Model { return Model{Keys: DefaultKeyMap()} }

// SetLines replaces the text, keeping the scroll where it still can be.
func (m *Model) SetLines(lines []string) {
	m.lines = lines
	m.Scroll(0)
}

// SetHeight sets how many lines show.
func (m *Model) SetHeight(h int) {
	m.h = h
	m.Scroll(0)
}

// Top shows the text from its first line.
func (m *Model) Top() { m.scroll = 0 }

// Scroll moves the window by n lines, within the text.
func (m *Model) Scroll(n int) {
	m.scroll = layout.Clamp(m.scroll+n, 0, max(len(m.lines)-m.h, 0))
}

// Handles tells whether msg is one of the pager's keys, enabled.
func (m Model) Handles(msg tea.KeyPressMsg) bool {
	k := m.Keys
	return key.Matches(msg, k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown)
}

// Step is how many lines msg scrolls a window h lines high (a page is half
// of it; top and bottom go as far as the text goes), and whether it is one
// of k's keys.
func (k KeyMap) Step(msg tea.KeyPressMsg, h int) (int, bool) {
	page := max(h/2, 1)
	switch {
	case key.Matches(msg, k.Up):
		return -1, true
	case key.Matches(msg, k.Down):
		return 1, true
	case key.Matches(msg, k.PageUp):
		return -page, true
	case key.Matches(msg, k.PageDown):
		return page, true
	case key.Matches(msg, k.Top):
		return -1 << 30, true
	case key.Matches(msg, k.Bottom):
		return 1 << 30, true
	}
	return 0, false
}

// Wheel is how many lines a turn of the mouse wheel moves: -1 up, 1 down.
func Wheel(msg tea.MouseWheelMsg) int {
	switch msg.Button {
	case tea.MouseWheelUp:
		return -1
	case tea.MouseWheelDown:
		return 1
	}
	return 0
}

// Update scrolls with the keys and the mouse wheel.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if n, ok := m.Keys.Step(msg, m.h); ok {
			m.Scroll(n)
		}
	case tea.MouseWheelMsg:
		m.Scroll(Wheel(msg))
	}
	return m, nil
}

// View renders the window, its last line saying how many lines are hidden
// below, and with which key they show.
func (m Model) View() string {
	if m.h <= 0 {
		return ""
	}
	return strings.Join(layout.ScrollLines(m.lines, m.scroll, m.h, m.Keys.Down), "\n")
}
