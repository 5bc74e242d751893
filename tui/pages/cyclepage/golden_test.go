package cyclepage

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
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

// A score plugin keeps its glyph in the weighted sums from cycle to cycle
// of one profile, though cycles list only the plugins that scored (the
// default fixture's cycle 1 has no NodeAffinity score, its cycle 3 has).
func TestSeriesGlyphKeptAcrossCycles(t *testing.T) {
	rec := recordings.Load(t, "default.rec")
	st := theme.New(true)
	glyphOf := func(i int, plugin string) string {
		v := New(&st)
		v.SetHeader(&rec.Header)
		v.SetSize(80, 24)
		v.SetCycle(rec.Cycles, i)
		v.SetPhase(Weighted)
		screen := ansi.Strip(v.View())
		at := strings.Index(screen, " "+plugin+"×")
		if at < 0 {
			t.Fatalf("cycle %d: no %s in the legend:\n%s", rec.Cycles[i].Seq, plugin, screen)
		}
		r := []rune(screen[:at])
		return string(r[len(r)-1])
	}
	for _, plugin := range []string{"NRF", "TT", "IL"} {
		if a, b := glyphOf(0, plugin), glyphOf(2, plugin); a != b {
			t.Errorf("%s is drawn %q in cycle 1 and %q in cycle 3", plugin, a, b)
		}
	}
}

// A long pod name in the cycle's header gives up its middle so that the
// outcome after it shows, and keeps its suffix (issue 41).
func TestHeaderKeepsTheOutcome(t *testing.T) {
	rec := recordings.Load(t, "default.rec")
	c := *rec.Cycles[3]
	c.Pod.Namespace, c.Pod.Name = "shop", "checkout-service-966fb979-g6jq8"
	st := theme.New(true)
	v := New(&st)
	v.SetHeader(&rec.Header)
	v.SetSize(80, 24)
	v.OpenCycle([]*recorder.Cycle{&c}, 0)
	head := strings.Split(ansi.Strip(v.View()), "\n")[0]
	if !strings.Contains(head, "Unschedulable") || !strings.Contains(head, "…-g6jq8 · attempt 1") {
		t.Errorf("header %q: want the outcome and the pod's suffix", head)
	}
}
