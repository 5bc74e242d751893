package cyclepage

import (
	"fmt"
	"testing"

	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the default fixture's unschedulable cycle on the phase
// that decided it, then a node's detail.
func TestGoldens(t *testing.T) {
	rec := recordings.Load(t, "default.rec")
	st := theme.New(true)
	for _, size := range golden.Sizes {
		v := New(&st)
		v.SetHeader(&rec.Header)
		v.SetSize(size[0], size[1])
		v.OpenCycle(rec.Cycles, 3)
		golden.Check(t, fmt.Sprintf("decisive-%dx%d", size[0], size[1]), golden.Screen(v.View(), size[0], size[1]))
		if !v.OpenNode(rec.Cycles[3].NodeName(0)) {
			t.Fatal("the node detail did not open")
		}
		golden.Check(t, fmt.Sprintf("node-%dx%d", size[0], size[1]), golden.Screen(v.View(), size[0], size[1]))
	}
}
