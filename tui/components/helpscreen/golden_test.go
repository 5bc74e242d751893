package helpscreen

import (
	"fmt"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws sections of keys, a note and commands.
func TestGoldens(t *testing.T) {
	b := func(k, what string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, what)) }
	sections := []Section{
		{Title: "Moving", Keys: []key.Binding{b("k", "up"), b("j", "down"), b("g", "first"), b("G", "last")}},
		{Title: "Engine", Keys: []key.Binding{b("space", "pause"), b("s", "step")}, Note: "replay: no engine"},
		{Title: "Cycles", Keys: []key.Binding{b("enter", "open cycle"), b("n", "next failure")}},
		{Title: "Commands (after :)", Commands: [][2]string{{":cycle N", "open cycle N"}, {":q", "quit"}}},
	}
	st := theme.New(true)
	for _, size := range golden.Sizes {
		m := New(&st)
		m.SetSize(size[0], size[1])
		m.SetSections(sections)
		golden.Check(t, fmt.Sprintf("help-%dx%d", size[0], size[1]), golden.Screen(m.View(), size[0], size[1]))
	}
}
