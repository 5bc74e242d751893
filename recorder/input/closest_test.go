package input

import (
	"slices"
	"testing"
)

func TestClosest(t *testing.T) {
	pods := []string{"default/web", "default/api", "default/trainer", "default/huge", "batch/web-2"}
	for _, tt := range []struct {
		name       string
		candidates []string
		want       []string
	}{
		{"webb", pods, []string{"default/web", "batch/web-2"}},
		{"default/trainr", pods, []string{"default/trainer"}},
		{"zzzzzz", pods, nil},
		{"preemptoin", []string{"autoscaler", "budgets", "default", "preemption", "volumes"}, []string{"preemption"}},
		{"web", []string{"web"}, nil}, // not a typo
	} {
		if got := Closest(tt.name, tt.candidates); !slices.Equal(got, tt.want) {
			t.Errorf("Closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	if got, want := DidYouMean("webb", pods[:2]), " (did you mean default/web?)"; got != want {
		t.Errorf("DidYouMean = %q, want %q", got, want)
	}
}
