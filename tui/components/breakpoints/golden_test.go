package breakpoints

import (
	"fmt"
	"testing"

	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the form with a pod pattern and Unschedulable set.
func TestGoldens(t *testing.T) {
	st := theme.New(true)
	for _, size := range golden.Sizes {
		f := New(&st, Values{Pod: "default/web-*", Unschedulable: true})
		golden.Check(t, fmt.Sprintf("form-%dx%d", size[0], size[1]), golden.Screen(f.View(), size[0], size[1]))
	}
}
