package diffview

import (
	"fmt"
	"testing"

	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the default fixture's unschedulable cycle against
// itself, as a re-run that changed nothing is shown.
func TestGoldens(t *testing.T) {
	rec := recordings.Load(t, "default.rec")
	before, after := rec.Cycles[3], rec.Cycles[3]
	st := theme.New(true)
	for _, size := range golden.Sizes {
		v := New(&st)
		v.SetSize(size[0], size[1])
		v.SetRun(Run{Label: "4'", Seq: before.Seq, Before: before, After: after, Changes: []string{"nothing"}})
		golden.Check(t, fmt.Sprintf("diff-%dx%d", size[0], size[1]), golden.Screen(v.View(), size[0], size[1]))
	}
}
