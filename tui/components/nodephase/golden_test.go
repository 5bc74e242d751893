package nodephase

import (
	"fmt"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the Filter matrix of the default fixture's
// unschedulable cycle, and the score phases of its first (bound) cycle, at
// each golden size.
func TestGoldens(t *testing.T) {
	rec := recordings.Load(t, "default.rec")
	st := theme.New(true)
	for _, size := range golden.Sizes {
		for _, k := range []struct {
			name string
			kind Kind
			c    *recorder.Cycle
		}{{"filter", Filter, rec.Cycles[3]}, {"score", Score, rec.Cycles[0]}, {"normalize", Normalize, rec.Cycles[0]}, {"weighted", Weighted, rec.Cycles[0]}} {
			c := k.c
			m := New(&st)
			m.SetCycle(c, analysis.Of(c))
			m.SetKind(k.kind)
			m.SetSize(size[0], size[1])
			m.SetActive(true, true)
			golden.Check(t, fmt.Sprintf("%s-%dx%d", k.name, size[0], size[1]), golden.Screen(m.View(), size[0], size[1]))
		}
	}
}
