package problems

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws a problem, a message and a long problem that wraps.
func TestGoldens(t *testing.T) {
	notes := []Note{
		{Kind: Problem, Text: "cycle 3 could not be read: torn record at offset 1234"},
		{Kind: Message, Text: "no cycle of pod \"web\""},
		{Kind: Problem, Text: "the recording's node set 2 is missing: " + strings.Repeat("the cycles that use it show node indices, not names; ", 4)},
	}
	st := theme.New(true)
	for _, size := range golden.Sizes {
		m := New(&st)
		m.SetSize(size[0], size[1])
		m.SetNotes(notes)
		golden.Check(t, fmt.Sprintf("problems-%dx%d", size[0], size[1]), golden.Screen(m.View(), size[0], size[1]))
	}
}
