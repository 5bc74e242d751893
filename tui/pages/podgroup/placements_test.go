package podgroup

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/internal/golden"
)

// The pages of tui/testdata/gang-zones.rec, recorded from
// fixtures/gated/gang-zones.yaml with GenericWorkload and
// TopologyAwareWorkloadScheduling on: train fit in both zones and one was
// chosen by score; infer fit in neither.
func TestPlacementGoldens(t *testing.T) {
	tests := []struct {
		name, group string
		keys        []string
	}{
		{name: "zones-train", group: "train", keys: []string{"pgdown"}},
		{name: "zones-infer", group: "infer", keys: []string{"pgdown"}},
		{name: "zones-explain", group: "train", keys: []string{"e"}},
	}
	for _, tt := range tests {
		for _, size := range golden.Sizes {
			name := fmt.Sprintf("%s-%dx%d", tt.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				m := pageOf(t, "gang-zones.rec", tt.group, size[0], size[1])
				for _, k := range tt.keys {
					m, _ = m.Update(press(k))
				}
				got := ansi.Strip(m.View())
				for i, l := range strings.Split(got, "\n") {
					if w := ansi.StringWidth(l); w > size[0] {
						t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, w, size[0], l)
					}
				}
				golden.Check(t, name, golden.Screen(m.View(), size[0], size[1]))
			})
		}
	}
}

// TestPlacementsShowTheChoice checks the facts the Placements section must
// tell, whatever the layout: each zone a candidate with its nodes, each
// one's members, the scores per plugin, the one chosen; and for a group
// that fit nowhere, why in each zone.
func TestPlacementsShowTheChoice(t *testing.T) {
	m := pageOf(t, "gang-zones.rec", "train", 200, 80)
	got := ansi.Strip(m.View())
	p := m.Cycle().Placements
	if p == nil {
		t.Fatal("gang-zones.rec: train's cycle has no placements; it was not recorded with TopologyAwareWorkloadScheduling")
	}
	chosen := p.ChosenCandidate()
	if chosen == nil || !p.Scored {
		t.Fatalf("gang-zones.rec: train's placements were not scored and chosen (%+v); the fixture changed", p)
	}
	for _, want := range []string{
		"Placements",
		"2 candidate(s) from TopologyPlacementGenerator, one per topology.kubernetes.io/zone; the group fit in 2, scored",
		"zone-a [a1,a2]",
		"zone-b [b1]",
		"▶ ",
		"train-0→b1, train-1→b1",
		"PodGroupPodsCount 2→100",
		"chosen: " + chosen.Name + ", the highest total",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("train's page does not say %q:\n%s", want, got)
		}
	}
	m = pageOf(t, "gang-zones.rec", "infer", 200, 80)
	got = ansi.Strip(m.View())
	for _, want := range []string{
		"the group fit in 0",
		"Unschedulable: minCount (3) cannot be satisfied: 2 scheduled, 0 remaining (2 of 3 member(s) placed)",
		"no candidate fit",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("infer's page does not say %q:\n%s", want, got)
		}
	}
}
