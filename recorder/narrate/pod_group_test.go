package narrate

import (
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

func TestMinCountVerdict(t *testing.T) {
	placed := func(nodes ...string) []recorder.GroupMember {
		var out []recorder.GroupMember
		for i, n := range nodes {
			out = append(out, recorder.GroupMember{Pod: recorder.PodRef{Name: "m" + string(rune('0'+i))}, Cycle: i + 1, Node: n})
		}
		return out
	}
	tests := []struct {
		name string
		g    *recorder.PodGroupCycle
		want string
	}{
		{"gang met", &recorder.PodGroupCycle{Policy: recorder.PolicyGang, MinCount: 2, Members: placed("s1", "s2"), Outcome: recorder.GroupOutcome{Result: recorder.ResultBound}},
			"met: 2 placed, minCount 2"},
		{"gang not met", &recorder.PodGroupCycle{Policy: recorder.PolicyGang, MinCount: 3, Members: placed("s1", "s2", ""), Outcome: recorder.GroupOutcome{Result: recorder.ResultUnschedulable}},
			"not met: 2 placed, minCount 3"},
		{"basic", &recorder.PodGroupCycle{Policy: recorder.PolicyBasic, Members: placed("s1", ""), Outcome: recorder.GroupOutcome{Result: recorder.ResultBound}},
			"1 placed (basic)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MinCountVerdict(tt.g); got != tt.want {
				t.Errorf("MinCountVerdict = %q, want %q", got, tt.want)
			}
		})
	}
}
