package narrate

import (
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

func placementCycle(chosen int, fit ...bool) *recorder.PodGroupCycle {
	p := &recorder.PlacementPhase{Generator: "TopologyPlacementGenerator", TopologyKey: "zone", Code: recorder.CodeSuccess, Chosen: chosen}
	for i, f := range fit {
		c := recorder.PlacementCandidate{Name: string(rune('a' + i)), Nodes: []string{"n" + string(rune('a'+i))}, Tried: true,
			Members: []recorder.PlacementMember{{Pod: "m0", Node: "n" + string(rune('a'+i)), Code: recorder.CodeSuccess}}}
		c.Code = "Unschedulable"
		c.Message = "minCount (2) cannot be satisfied"
		if f {
			c.Code, c.Message = recorder.CodeSuccess, ""
		}
		p.Candidates = append(p.Candidates, c)
	}
	return &recorder.PodGroupCycle{Seq: 1, Group: recorder.PodGroupRef{Namespace: "default", Name: "g"}, Placements: p,
		Members: []recorder.GroupMember{{Pod: recorder.PodRef{Namespace: "default", Name: "m0"}, Cycle: 3, Node: "nb"}},
		Outcome: recorder.GroupOutcome{Result: recorder.ResultBound}}
}

// The words of a pod-group cycle's placements: the heading, each
// candidate's result, the choice, the heading of the verdicts and the
// member's story all name the placement.
func TestPlacementWords(t *testing.T) {
	tests := []struct {
		name string
		g    *recorder.PodGroupCycle
		want []string
	}{
		{"scored", func() *recorder.PodGroupCycle {
			g := placementCycle(2, true, true)
			g.Placements.Scored = true
			return g
		}(), []string{
			"2 candidate(s) from TopologyPlacementGenerator, one per zone; the group fit in 2, scored by the PlacementScore plugins",
			"chosen: fit, 1 of 1 member(s) placed",
			"chosen: b, the highest total",
			"PlacementFeasible in b (chosen)",
			"fit on node nb in placement b (chosen of 2)",
		}},
		{"one fit", placementCycle(2, false, true), []string{
			"the group fit in 1, taken without scoring",
			"Unschedulable: minCount (2) cannot be satisfied (1 of 1 member(s) placed)",
			"chosen: b, the only candidate the group fit in",
		}},
		{"none fit", func() *recorder.PodGroupCycle {
			g := placementCycle(0, false, false)
			g.Outcome.Result = recorder.ResultUnschedulable
			return g
		}(), []string{
			"the group fit in 0",
			"no candidate fit: the members' rows and PlacementFeasible's verdicts are those of the first one tried, a,",
			"PlacementFeasible in a (first tried)",
			"in placement a (the first tried of 2; the group fit in none)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.g.Placements
			all := []string{PlacementsHeading(p), PlacementChosen(p), FeasibleHeading(tt.g), MemberThroughGroup(tt.g, tt.g.Members[0])}
			for k := range p.Candidates {
				all = append(all, PlacementResult(p, k))
			}
			got := strings.Join(all, "\n")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("the words lack %q:\n%s", w, got)
				}
			}
		})
	}
}
