package prompt

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the command prompt empty (its placeholder), then with
// the completions of "p".
func TestGoldens(t *testing.T) {
	st := theme.New(true)
	for _, size := range golden.Sizes {
		m := New(&st)
		m.SetWidth(size[0])
		m.Open(Request{Prefix: ":", Placeholders: []string{"cycle N · phase NAME · filter TEXT · help · q (tab completes)", "cycle N · help · q"},
			Completions: []string{"cycle ", "phase filter", "phase prefilter", "pods", "problems"}})
		golden.Check(t, fmt.Sprintf("empty-%dx%d", size[0], size[1]), golden.Screen(m.View(), size[0], size[1]))
		m, _ = m.Update(tea.KeyPressMsg{Code: 'p', Text: "p"})
		m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
		golden.Check(t, fmt.Sprintf("completions-%dx%d", size[0], size[1]), golden.Screen(m.View(), size[0], size[1]))
	}
}
