package engine

import (
	"strings"
	"testing"

	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// TestScoreArithmeticMatchesTheScheduler works NodeResourcesFit's and
// NodeResourcesBalancedAllocation's raw scores out of what every embedded
// fixture's cycles record (the node's allocatable, what was placed on it,
// the pod's requests), as the node detail does, and compares them with the
// scores the scheduler gave, on every scored node. resources-fit's
// besteffort pod requests nothing: NodeResourcesFit counts it at the
// scheduler's defaults (Cycle.NonZeroRequests), and that is checked too.
func TestScoreArithmeticMatchesTheScheduler(t *testing.T) {
	checked := map[string]int{}
	for _, name := range fixtures.Names() {
		if !strings.HasSuffix(name, ".yaml") {
			continue
		}
		_, cycles := runFixture(t, name, embedded(t, name), Options{})
		for i, c := range cycles {
			if c.Score == nil {
				continue
			}
			if c.Requests == nil {
				t.Fatalf("%s: cycle %d records no requests of its pod", name, c.Seq)
			}
			usage := recorder.UsageAt(cycles, i)
			for _, pl := range c.Score.Plugins {
				for k, node := range c.Score.Nodes {
					use, _ := usage.Node(c.NodeName(node))
					a, ok := narrate.ScoreArithmetic(pl.Name, narrate.ScoreInputs{Allocatable: c.Nodes.Info[node].Allocatable,
						Requested: use.Requested, NonZeroRequested: use.NonZero, Pod: c.Requests, NonZeroPod: c.NonZeroRequests}, pl.Raw[k])
					if !ok {
						continue
					}
					checked[pl.Name]++
					if !a.Matches {
						t.Errorf("%s cycle %d node %s: %s raw %d, worked out otherwise: %q", name, c.Seq, c.NodeName(node), pl.Name, pl.Raw[k], a.Lines)
					}
				}
			}
		}
	}
	if checked["NodeResourcesFit"] < 20 || checked["NodeResourcesBalancedAllocation"] < 20 {
		t.Errorf("worked out %v scores; want at least 20 of each", checked)
	}
}
