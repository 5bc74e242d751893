package pods

import (
	"fmt"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the preemption fixture's pods, then the first one's
// story.
func TestGoldens(t *testing.T) {
	rec := recordings.Load(t, "preemption.rec")
	var entries []recorder.CycleEntry
	for _, c := range rec.Cycles {
		entries = append(entries, recorder.EntryOf(c))
	}
	st := theme.New(true)
	for _, size := range golden.Sizes {
		p := New(&st)
		p.SetSize(size[0], size[1])
		p.SetData(entries, rec.Cycles, nil, nil, false, nil, nil)
		golden.Check(t, fmt.Sprintf("pods-%dx%d", size[0], size[1]), golden.Screen(p.View(), size[0], size[1]))
		if !p.ShowStory(rec.Cycles[0].Pod.Key()) {
			t.Fatalf("no story of %s", rec.Cycles[0].Pod.Key())
		}
		golden.Check(t, fmt.Sprintf("story-%dx%d", size[0], size[1]), golden.Screen(p.View(), size[0], size[1]))
	}
}
