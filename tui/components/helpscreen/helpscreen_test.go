package helpscreen

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/theme"
)

func screen(w, h int) Model {
	st := theme.New(true)
	m := New(&st)
	m.SetSize(w, h)
	m.SetSections([]Section{
		{Title: "Moving", Keys: []key.Binding{key.NewBinding(key.WithKeys("j"), key.WithHelp("↓/j", "down"))}},
		{Title: "Engine", Keys: []key.Binding{key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "step"))}, Note: "replay: no engine"},
		{Title: "Commands (after :)", Commands: [][2]string{{":cycle N", "open cycle N"}, {":q", "quit"}}},
	})
	return m
}

func TestHelpListsEveryBinding(t *testing.T) {
	k := DefaultKeyMap()
	listed := map[key.Help]bool{}
	for _, col := range k.FullHelp() {
		for _, b := range col {
			listed[b.Help()] = true
		}
	}
	for name, b := range map[string]key.Binding{"Up": k.Up, "Down": k.Down, "PageUp": k.PageUp, "PageDown": k.PageDown, "Top": k.Top, "Bottom": k.Bottom, "Close": k.Close, "Quit": k.Quit} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
}

func TestView(t *testing.T) {
	got := ansi.Strip(screen(120, 40).View())
	for _, want := range []string{"Keys  (?/esc/q close help · ctrl+c quit)", "Moving", "↓/j down", "replay: no engine", ":cycle N open cycle N", "✓ Success", "Live cluster bindings"} {
		if !strings.Contains(got, want) {
			t.Errorf("screen lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "s step") {
		t.Errorf("a section with a note lists its keys:\n%s", got)
	}
	// Wide enough, the blocks sit side by side.
	if !strings.Contains(got, "Moving") || !strings.Contains(strings.SplitN(got[strings.Index(got, "Moving"):], "\n", 2)[0], "Engine") {
		t.Errorf("the blocks are not side by side at 120 columns:\n%s", got)
	}
}

// TestUpdateScrolls: down scrolls, up comes back; the scroll stops at the end.
func TestUpdateScrolls(t *testing.T) {
	first := func(m Model) string { return strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0] }
	m := screen(40, 5)
	top := first(m)
	m, _ = m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if first(m) == top {
		t.Fatal("j did not scroll")
	}
	for range 100 {
		m, _ = m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	}
	end := first(m)
	m, _ = m.Update(tea.KeyPressMsg{Code: 'k', Text: "k"})
	if first(m) == end {
		t.Error("k after the end should move at once")
	}
	m.Top()
	if first(m) != top {
		t.Error("Top should go back to the first line")
	}
}

// TestPagingKeysScroll: the paging keys the screen lists (ctrl+d and PgDn,
// ctrl+u and PgUp, g and G) scroll it, a page at a time.
func TestPagingKeysScroll(t *testing.T) {
	at := func(m Model) int { return m.scroll }
	const h = 5
	for _, down := range []tea.KeyPressMsg{{Code: 'd', Mod: tea.ModCtrl}, {Code: tea.KeyPgDown}} {
		m := screen(40, h)
		m, _ = m.Update(down)
		if at(m) != h-1 {
			t.Errorf("%s scrolled to line %d, want a page down (%d)", down, at(m), h-1)
		}
	}
	for _, up := range []tea.KeyPressMsg{{Code: 'u', Mod: tea.ModCtrl}, {Code: tea.KeyPgUp}} {
		m := screen(40, h)
		m, _ = m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
		end := at(m)
		if end < 2*(h-1) {
			t.Fatalf("G went to line %d: the screen is too short for this test", end)
		}
		m, _ = m.Update(up)
		if at(m) != end-(h-1) {
			t.Errorf("%s from line %d went to %d, want a page up", up, end, at(m))
		}
		if m, _ = m.Update(tea.KeyPressMsg{Code: 'g', Text: "g"}); at(m) != 0 {
			t.Errorf("g went to line %d, want the top", at(m))
		}
	}
}

// TestWheelScrolls: the mouse wheel scrolls the screen as j and k do (the
// cycle view, the lists and the problems view scroll with it too).
func TestWheelScrolls(t *testing.T) {
	m := screen(40, 5)
	m, _ = m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	m, _ = m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.scroll != 2 {
		t.Fatalf("two turns down scrolled to line %d, want 2", m.scroll)
	}
	m, _ = m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.scroll != 1 {
		t.Errorf("a turn up went to line %d, want 1", m.scroll)
	}
	for range 100 {
		m, _ = m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	}
	if last := len(m.lines()) - m.h; m.scroll != last {
		t.Errorf("the wheel went to line %d, past or short of the end %d", m.scroll, last)
	}
}

// TestPageDownHintOnlyWhenThereIsMore: the screen's hints name page down
// only while there is more than a window of it; where it all fits, the
// key would do nothing.
func TestPageDownHintOnlyWhenThereIsMore(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		want bool
	}{{40, 5, true}, {200, 50, false}} {
		m := screen(tc.w, tc.h)
		head := strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0]
		if got := strings.Contains(head, "page down"); got != tc.want {
			t.Errorf("%dx%d: the title's hint %q names page down: %v, want %v", tc.w, tc.h, head, got, tc.want)
		}
		if got := m.Bar().PageDown.Enabled(); got != tc.want {
			t.Errorf("%dx%d: Bar's page down is enabled: %v, want %v", tc.w, tc.h, got, tc.want)
		}
	}
}
