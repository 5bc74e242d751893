// Package helpscreen is the "?" screen: every key, generated from the key
// bindings and laid out in titled blocks side by side, the ":" commands, and
// the legends of the glyphs.
package helpscreen

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/keyhint"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// Section is one titled block of the screen: keys, or a note instead of
// them, or ":" commands.
type Section struct {
	Title string
	Keys  []key.Binding
	Note  string // shown instead of keys when set
	// Commands are ":" commands, shown as keys are: what to type, what it does.
	Commands [][2]string
}

// KeyMap holds the screen's keys.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	// Close leaves the screen and Quit the program; the model that shows the
	// screen acts on them.
	Close, Quit key.Binding
}

// DefaultKeyMap returns the screen's keys. q closes the screen like esc and
// ?, as it is a screen over the session; only ctrl+c quits from here.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:   key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down: key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		// The paging keys the panes take, so that those the screen lists
		// scroll the screen too.
		PageUp:   key.NewBinding(key.WithKeys("ctrl+u", "pgup"), key.WithHelp("ctrl+u/pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("ctrl+d", "pgdown"), key.WithHelp("ctrl+d/pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		Close:    key.NewBinding(key.WithKeys("?", "esc", "q"), key.WithHelp("?/esc/q", "close help")),
		Quit:     key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.PageDown, k.Close, k.Quit} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Close, k.Quit}}
}

// Model is the screen.
type Model struct {
	st       *theme.Styles
	Keys     KeyMap
	sections []Section
	scroll   int
	w, h     int
}

// New returns a screen with no sections.
func New(st *theme.Styles) Model { return Model{st: st, Keys: DefaultKeyMap()} }

// SetSections replaces the blocks shown.
func (m *Model) SetSections(s []Section) { m.sections = s }

// SetSize sets the screen's size.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Top scrolls back to the first line.
func (m *Model) Top() { m.scroll = 0 }

// Update scrolls the screen with the keys and the mouse wheel.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	last := max(len(m.lines())-m.h, 0)
	if w, ok := msg.(tea.MouseWheelMsg); ok {
		m.scroll = min(max(m.scroll+pager.Wheel(w), 0), last)
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		page := max(m.h-1, 1)
		switch {
		case key.Matches(k, m.Keys.Up):
			m.scroll = max(m.scroll-1, 0)
		case key.Matches(k, m.Keys.Down):
			m.scroll = min(m.scroll+1, last)
		case key.Matches(k, m.Keys.PageUp):
			m.scroll = max(m.scroll-page, 0)
		case key.Matches(k, m.Keys.PageDown):
			m.scroll = min(m.scroll+page, last)
		case key.Matches(k, m.Keys.Top):
			m.scroll = 0
		case key.Matches(k, m.Keys.Bottom):
			m.scroll = last
		}
	}
	return m, nil
}

// View renders the visible lines.
func (m Model) View() string {
	return strings.Join(layout.ScrollLines(m.lines(), m.scroll, m.h, m.Keys.Down), "\n")
}

// lines renders every block, laid out side by side in as many rows as the
// width needs, then the legends.
func (m Model) lines() []string {
	st := m.st
	hm := help.New()
	hm.ShowAll = true
	hm.Styles.FullKey, hm.Styles.FullDesc, hm.Styles.FullSeparator = st.Key, st.Dim, st.Dim
	var lines []string
	var blocks [][]string
	for _, sec := range m.sections {
		block := []string{st.Header.Render(sec.Title)}
		switch {
		case sec.Note != "":
			block = append(block, st.Dim.Render(sec.Note))
		case sec.Commands != nil:
			w := 0
			for _, c := range sec.Commands {
				w = max(w, ansi.StringWidth(c[0]))
			}
			for _, c := range sec.Commands {
				block = append(block, st.Key.Render(layout.Fit(c[0], w))+" "+st.Dim.Render(c[1]))
			}
		default:
			block = append(block, layout.SplitLines(hm.FullHelpView([][]key.Binding{sec.Keys}))...)
		}
		blocks = append(blocks, block)
	}
	const gap = 3
	for len(blocks) > 0 {
		row, width := [][]string{blocks[0]}, blockWidth(blocks[0])
		for len(row) < len(blocks) && width+gap+blockWidth(blocks[len(row)]) <= m.w {
			width += gap + blockWidth(blocks[len(row)])
			row = append(row, blocks[len(row)])
		}
		blocks = blocks[len(row):]
		joined := layout.Box(row[0], blockWidth(row[0]), blockHeight(row))
		for _, b := range row[1:] {
			joined = layout.SideBySide(joined, layout.Box(b, blockWidth(b), blockHeight(row)), strings.Repeat(" ", gap))
		}
		lines = append(lines, joined...)
		lines = append(lines, "")
	}
	lines = append(lines, st.Title.Render("Filter matrix glyphs"))
	var glyphs []string
	for k := range glyph.NumKinds {
		glyphs = append(glyphs, glyph.Render(st, k)+" "+k.Label())
	}
	lines = append(lines, layout.Flow(glyphs, m.w, "   ")...)
	lines = append(lines, layout.Flow([]string{
		st.Title.Render("Live cluster bindings"),
		st.Agree.Render("=") + " as predicted",
		st.Agree.Render("≈ node") + " tie-break",
		st.Disagree.Render("≠ node") + " missed",
	}, m.w, "   ")...)
	head := st.Title.Render("Keys") + st.Dim.Render("  (") + keyhint.Line(st, m.bar(len(lines)+2).ShortHelp()...) + st.Dim.Render(")")
	return append([]string{head, ""}, lines...)
}

// Bar is the screen's keys as its hint lines show them: page down only
// when there is more than a window of it to page through.
func (m Model) Bar() KeyMap { return m.bar(len(m.lines())) }

// bar is Bar for a screen of n lines.
func (m Model) bar(n int) KeyMap {
	k := m.Keys
	k.PageDown.SetEnabled(n > m.h)
	return k
}

func blockWidth(b []string) int {
	w := 0
	for _, l := range b {
		w = max(w, lipgloss.Width(l))
	}
	return w
}

func blockHeight(row [][]string) int {
	h := 0
	for _, b := range row {
		h = max(h, len(b))
	}
	return h
}
