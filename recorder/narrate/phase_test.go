package narrate

import (
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

func TestStepNamed(t *testing.T) {
	index := func(name string) int {
		for i, s := range Steps() {
			if s.Name == name {
				return i
			}
		}
		t.Fatalf("no step %q", name)
		return -1
	}
	tests := []struct {
		name string
		want string
		ok   bool
	}{
		{"Filter", recorder.PhaseFilter, true},
		{"predicates", recorder.PhaseFilter, true},
		{"PRIORITIES", recorder.PhaseScore, true},
		{"postf", recorder.PhasePostFilter, true},
		{"normalize", recorder.PhaseNormalize, true},
		{"NormalizeScore", recorder.PhaseNormalize, true},
		{"Weighted sum", PhaseWeighted, true},
		{"weightedsum", PhaseWeighted, true},
		{"sum", PhaseWeighted, true},
		{"select host", PhaseSelect, true},
		{"selecthost", PhaseSelect, true},
		{"queue", PhaseQueue, true},
		{"filt", "", false},
		{"", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := StepNamed(tc.name)
			if ok != tc.ok || ok && got != index(tc.want) {
				t.Errorf("StepNamed(%q) = %d, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
			}
		})
	}
	// Every step has a PhaseDoc, and no two steps share a name.
	seen := map[string]string{}
	for _, s := range Steps() {
		if PhaseDoc(s.Name) == "" {
			t.Errorf("step %q has no PhaseDoc", s.Name)
		}
		for _, n := range s.Names() {
			if other, dup := seen[n]; dup {
				t.Errorf("%q names both %s and %s", n, other, s.Name)
			}
			seen[n] = s.Name
		}
	}
}
