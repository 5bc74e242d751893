package commands

import (
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine/featuregates"
)

const placementGates = "--feature-gates=GenericWorkload=true,TopologyAwareWorkloadScheduling=true"

// TestExplainPodGroupPlacements: the embedded gang-zones fixture, run with
// TopologyAwareWorkloadScheduling, explains its groups' candidate
// placements in text, and -o json holds them, valid against the schema,
// with the members linked to the cycles of the placement submitted.
func TestExplainPodGroupPlacements(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	out, errOut, code := run(t, "explain", "-f", "gang-zones", placementGates, "--pod-group", "train")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"placements: 2 candidate(s) from TopologyPlacementGenerator, one per topology.kubernetes.io/zone; the group fit in 2, scored by the PlacementScore plugins",
		"zone-a  nodes a1,a2",
		"zone-b  nodes b1",
		" ▶ ",
		"PodGroupPodsCount 2→100",
		"the highest total",
		"PlacementFeasible in zone-",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain --pod-group train lacks %q:\n%s", want, out)
		}
	}

	out, errOut, code = run(t, "explain", "-f", "gang-zones", placementGates, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := checkExport(t, out, -1)
	if len(doc.PodGroups) != 2 {
		t.Fatalf("%d pod-group cycles, want train's and infer's", len(doc.PodGroups))
	}
	seqs := map[int]string{}
	for _, c := range doc.Cycles {
		seqs[c.Seq] = c.Pod.Name
	}
	for _, g := range doc.PodGroups {
		if g.Placements == nil || len(g.Placements.Candidates) != 2 {
			t.Errorf("%s: placements %+v, want two candidates", g.Group.Name, g.Placements)
			continue
		}
		for _, m := range g.Members {
			if m.Cycle != 0 && seqs[m.Cycle] != m.Pod.Name {
				t.Errorf("%s: member %s links cycle %d, which is %q's", g.Group.Name, m.Pod.Name, m.Cycle, seqs[m.Cycle])
			}
		}
	}
	if !strings.Contains(out, `"placements": {`) || !strings.Contains(out, `"generator": "TopologyPlacementGenerator"`) {
		t.Errorf("the JSON lacks the placements")
	}
}
