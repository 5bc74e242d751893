package bindphase

import (
	"fmt"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws Bind of the default fixture's first cycle.
func TestGoldens(t *testing.T) {
	rec := recordings.Load(t, "default.rec")
	st := theme.New(true)
	for _, size := range golden.Sizes {
		m := New(&st)
		m.SetHeader(&rec.Header)
		m.SetCycle(rec.Cycles[0], recorder.PhaseBind)
		m.SetSize(size[0], size[1])
		golden.Check(t, fmt.Sprintf("bind-%dx%d", size[0], size[1]), golden.Screen(m.View(), size[0], size[1]))
	}
}
