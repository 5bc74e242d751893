package explain

import (
	"fmt"
	"testing"

	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestGoldens draws the panel on a filter plugin learners know by its
// legacy predicate name.
func TestGoldens(t *testing.T) {
	st := theme.New(true)
	for _, size := range golden.Sizes {
		m := New(&st)
		m.SetSize(size[0], size[1])
		m.SetTopic(Topic{Phase: "Filter", PhaseDoc: "Each plugin says whether the pod can run on each node.", Plugin: "TaintToleration"})
		golden.Check(t, fmt.Sprintf("explain-%dx%d", size[0], size[1]), golden.Screen(m.View(), size[0], size[1]))
	}
}
