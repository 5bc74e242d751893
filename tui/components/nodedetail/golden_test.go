package nodedetail

import (
	"fmt"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the detail of a node the default fixture's last cycle
// rejected, with what the cycles before had placed on it.
func TestGoldens(t *testing.T) {
	rec := recordings.Load(t, "default.rec")
	c := rec.Cycles[3]
	st := theme.New(true)
	for _, size := range golden.Sizes {
		d := New(&st, c, analysis.Of(c), 0)
		d.SetUsage(recorder.UsageAt(rec.Cycles, 3))
		d.SetSize(size[0], size[1])
		golden.Check(t, fmt.Sprintf("node-%dx%d", size[0], size[1]), golden.Screen(d.View(), size[0], size[1]))
	}
}
