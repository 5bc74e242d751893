package pluginstatus

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the PreFilter statuses of the preemption fixture's
// first cycle and its outcome.
func TestGoldens(t *testing.T) {
	c := recordings.Cycle(t, "preemption.rec", 0)
	st := theme.New(true)
	for _, size := range golden.Sizes {
		var ps []recorder.PluginStatus
		if c.PreFilter != nil {
			ps = c.PreFilter.Plugins
		}
		lines := append(Table(&st, ps, size[0]), "", Field(&st, "outcome", Outcome(&st, c.Outcome)))
		golden.Check(t, fmt.Sprintf("table-%dx%d", size[0], size[1]), golden.Screen(strings.Join(lines, "\n"), size[0], size[1]))
	}
}
