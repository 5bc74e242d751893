package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

// placementStory is what a run with placements must repeat: each pod-group
// cycle's candidates in the order tried, with their verdicts and members'
// results, the verdicts about each group of a hierarchy in the order given,
// the members' results and which cycle records each, and each pod's cycles.
// Timings are left out, and so are the nodes of members and pods (a tie
// between nodes is broken at random, in the scheduler as here), except
// whether one was placed.
func placementStory(groups []*recorder.PodGroupCycle, cycles []*recorder.Cycle) []string {
	var out []string
	verdicts := func(vs []recorder.PlacementVerdict) string {
		var s []string
		for _, v := range vs {
			s = append(s, fmt.Sprintf("%s(%d/%d) %s", v.Code, v.Scheduled, v.Remaining, v.Message))
		}
		return strings.Join(s, "; ")
	}
	for _, g := range groups {
		out = append(out, fmt.Sprintf("group %d %s: %s %s", g.Seq, g.Group.Key(), g.Outcome.Result, g.Outcome.Message))
		if p := g.Placements; p != nil {
			out = append(out, fmt.Sprintf("  placements by %s: %s %s, chosen %d", p.Generator, p.Code, p.Message, p.Chosen))
			for _, c := range p.Candidates {
				out = append(out, fmt.Sprintf("  candidate %s %v tried=%v: %s %s [%s]", c.Name, c.Nodes, c.Tried, c.Code, c.Message, verdicts(c.Feasible)))
				for _, m := range c.Members {
					out = append(out, fmt.Sprintf("    %s placed=%v %s %s", m.Pod, m.Node != "", m.Code, m.Message))
				}
			}
		}
		for _, h := range g.Hierarchy {
			out = append(out, fmt.Sprintf("  %s %s: [%s]", h.Kind, h.Name, verdicts(h.Feasible)))
		}
		for _, m := range g.Members {
			out = append(out, fmt.Sprintf("  member %s cycle %d placed=%v %s %s", m.Pod.Name, m.Cycle, m.Node != "", m.Code, m.Message))
		}
	}
	for _, c := range cycles {
		out = append(out, fmt.Sprintf("cycle %d %s attempt %d: %s %s", c.Seq, c.Pod.Key(), c.Attempt, c.Outcome.Result, c.Outcome.Message))
	}
	return out
}

// TestPlacementsTriedInOneOrder runs the fixtures whose pod groups try
// placements (gang-zones: a PodGroup over zones; composite: a
// CompositePodGroup over zones with PodGroups below it) ten times each:
// every run tells the same story. Upstream's TopologyPlacementGenerator
// returns its candidates in map order; without orderPlacements, which
// zone is tried first, and so which failed placement's status is
// reported, changes between runs.
func TestPlacementsTriedInOneOrder(t *testing.T) {
	compositeGates(t)
	const runs = 10
	for _, name := range []string{"gang-zones.yaml", "composite.yaml"} {
		t.Run(name, func(t *testing.T) {
			data := embedded(t, name)
			var first []string
			for i := range runs {
				var mu sync.Mutex
				var groups []*recorder.PodGroupCycle
				_, cycles := runFixture(t, name, data, Options{OnPodGroup: func(g *recorder.PodGroupCycle) {
					mu.Lock()
					groups = append(groups, g)
					mu.Unlock()
				}})
				mu.Lock()
				slices.SortFunc(groups, func(a, b *recorder.PodGroupCycle) int { return a.Seq - b.Seq })
				story := placementStory(groups, cycles)
				mu.Unlock()
				if i == 0 {
					first = story
					if !slices.ContainsFunc(story, func(l string) bool { return strings.Contains(l, "tried=true") || strings.Contains(l, "Unschedulable(") }) {
						t.Fatalf("%s: no placement tried in the first run:\n%s", name, strings.Join(story, "\n"))
					}
					continue
				}
				if diff := cmp.Diff(first, story); diff != "" {
					t.Fatalf("%s: run %d differs from run 1 (-run 1 +run %d):\n%s", name, i+1, i+1, diff)
				}
			}
		})
	}
}

// TestOrderPlacements: candidates come out by name, then by their nodes'
// names, each keeping its nodes in their order; the plugin's slice is
// left as it was.
func TestOrderPlacements(t *testing.T) {
	node := func(name string) fwk.NodeInfo {
		ni := framework.NewNodeInfo()
		ni.SetNode(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}})
		return ni
	}
	in := []*fwk.Placement{
		{Name: "zone-b", Nodes: []fwk.NodeInfo{node("b2"), node("b1")}},
		{Name: "zone-a", Nodes: []fwk.NodeInfo{node("a2")}},
		{Name: "", Nodes: []fwk.NodeInfo{node("y")}},
		{Name: "", Nodes: []fwk.NodeInfo{node("x")}},
		{Name: "zone-a", Nodes: []fwk.NodeInfo{node("a1")}},
	}
	before := slices.Clone(in)
	var got [][]string
	for _, p := range orderPlacements(in) {
		got = append(got, append([]string{p.Name}, placementNodeNames(p)...))
	}
	want := [][]string{{"", "x"}, {"", "y"}, {"zone-a", "a1"}, {"zone-a", "a2"}, {"zone-b", "b2", "b1"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if !slices.Equal(before, in) {
		t.Error("orderPlacements reordered the plugin's slice")
	}
}
