package prefilterphase

import (
	"fmt"
	"testing"

	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the phase of the preemption fixture's first cycle.
func TestGoldens(t *testing.T) {
	c := recordings.Cycle(t, "preemption.rec", 0)
	st := theme.New(true)
	for _, size := range golden.Sizes {
		m := New(&st)
		m.SetCycle(c)
		m.SetSize(size[0], size[1])
		golden.Check(t, fmt.Sprintf("phase-%dx%d", size[0], size[1]), golden.Screen(m.View(), size[0], size[1]))
	}
}
