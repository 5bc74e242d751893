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
// scores the scheduler gave, on every scored node. (The embedded fixtures'
// pods all request cpu and memory: BalancedAllocation counts a pod without
// requests as 100m and 200Mi, which a recording does not hold, and the node
// detail says so when its sum differs.)
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
					a, ok := narrate.ScoreArithmetic(pl.Name, c.Nodes.Info[node].Allocatable, use.Requested, c.Requests, pl.Raw[k])
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
