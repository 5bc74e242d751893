package cyclelist

import (
	"fmt"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the preemption fixture's cycles, a mark among them.
func TestGoldens(t *testing.T) {
	rec := recordings.Load(t, "preemption.rec")
	st := theme.New(true)
	for _, size := range golden.Sizes {
		l := New(&st)
		l.SetSize(size[0], size[1])
		for _, c := range rec.Cycles {
			l.Append(recorder.EntryOf(c))
		}
		l.SetMark(rec.Cycles[0].Seq, "the victim")
		golden.Check(t, fmt.Sprintf("list-%dx%d", size[0], size[1]), golden.Screen(l.View(), size[0], size[1]))
	}
}
