package otel

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

// A pod-group cycle recorded with TopologyAwareWorkloadScheduling
// (tui/testdata/gang-zones.rec) says on its SchedulePodGroup span which
// placement was chosen, with an event a candidate carrying its nodes,
// members and scores.
func TestPodGroupPlacementTrace(t *testing.T) {
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "..", "tui", "testdata", "gang-zones.rec"))
	if err != nil {
		t.Fatal(err)
	}
	var train *recorder.PodGroupCycle
	for _, g := range rec.PodGroups {
		if g.Group.Name == "train" {
			train = g
		}
	}
	if train == nil || train.Placements.ChosenCandidate() == nil {
		t.Fatal("gang-zones.rec: train has no chosen placement; the recording changed")
	}
	chosen := train.Placements.ChosenCandidate()
	spans, _ := exportAll(t, func(e *Exporter) {
		e.Begin(rec.Header)
		e.PodGroup(train)
	})
	groups := named(spans, "SchedulePodGroup")
	if len(groups) != 1 {
		t.Fatalf("%d SchedulePodGroup spans, want 1", len(groups))
	}
	s := groups[0]
	for key, want := range map[string]string{
		"schedscope.pod_group.placement.generator":    "TopologyPlacementGenerator",
		"schedscope.pod_group.placement.topology_key": "topology.kubernetes.io/zone",
		"schedscope.pod_group.placement.chosen":       chosen.Name,
		"schedscope.pod_group.placement.candidates":   "2",
		"schedscope.pod_group.placement.fitting":      "2",
		"schedscope.pod_group.placement.scored":       "true",
	} {
		if got := attr(s, key).Emit(); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	var events int
	for _, ev := range s.Events {
		if ev.Name != "placement" {
			continue
		}
		events++
		if attrOf(ev.Attributes, "schedscope.pod_group.placement.name") != chosen.Name {
			continue
		}
		if got := attrOf(ev.Attributes, "schedscope.pod_group.placement.is_chosen"); got != "true" {
			t.Errorf("the chosen candidate's event has is_chosen %q", got)
		}
		if got, want := attrOf(ev.Attributes, "schedscope.pod_group.placement.total"), strconv.FormatInt(chosen.Total, 10); got != want {
			t.Errorf("the chosen candidate's total is %q, want %s as recorded", got, want)
		}
		if got := attrOf(ev.Attributes, "schedscope.pod_group.placement.members"); got != `["train-0@b1","train-1@b1"]` {
			t.Errorf("the chosen candidate's members are %s", got)
		}
	}
	if events != 2 {
		t.Errorf("%d placement events, want one a candidate (2)", events)
	}
}
