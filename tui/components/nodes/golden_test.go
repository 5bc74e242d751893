package nodes

import (
	"fmt"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the nodes as the default fixture's last cycle saw them.
func TestGoldens(t *testing.T) {
	rec := recordings.Load(t, "default.rec")
	st := theme.New(true)
	for _, size := range golden.Sizes {
		m := New(&st)
		m.SetSize(size[0], size[1])
		m.SetCycle(rec.Cycles[3], recorder.UsageAt(rec.Cycles, 3))
		golden.Check(t, fmt.Sprintf("nodes-%dx%d", size[0], size[1]), golden.Screen(m.View(), size[0], size[1]))
	}
}
