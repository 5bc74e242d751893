package livebinding

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws a live cluster's binding that disagreed with the
// prediction of the default fixture's first cycle.
func TestGoldens(t *testing.T) {
	c := recordings.Cycle(t, "default.rec", 0)
	o := &recorder.Observed{Seq: c.Seq, Pod: c.Pod, Node: "node-b", Predicted: c.Outcome.Node}
	st := theme.New(true)
	for _, size := range golden.Sizes {
		lines := Lines(&st, c, analysis.Of(c), o, size[0])
		golden.Check(t, fmt.Sprintf("disagreed-%dx%d", size[0], size[1]), golden.Screen(strings.Join(lines, "\n"), size[0], size[1]))
	}
}
