package markdown

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
)

// A pod-group cycle recorded with TopologyAwareWorkloadScheduling
// (tui/testdata/gang-zones.rec) writes its candidate placements as a
// table, the chosen one marked, with their scores; and a recorded string
// in them reads as text.
func TestPodGroupPlacements(t *testing.T) {
	rec, err := recorder.LoadFile("../../../tui/testdata/gang-zones.rec")
	if err != nil {
		t.Fatal(err)
	}
	var train *recorder.PodGroupCycle
	for _, g := range rec.PodGroups {
		if g.Group.Name == "train" {
			train = g
		}
	}
	if train == nil || train.Placements == nil || train.Placements.ChosenCandidate() == nil {
		t.Fatal("gang-zones.rec: train has no chosen placement; the recording changed")
	}
	chosen := train.Placements.ChosenCandidate().Name
	var out strings.Builder
	m := &Writer{Out: document.Out{W: &out}}
	m.PodGroup(train, nil)
	md := out.String()
	for _, want := range []string{
		"### Placements",
		"| # | placement | nodes | result | members | scores |",
		"**▶ `" + chosen + "`**",
		"PodGroupPodsCount 2→100",
		"### PlacementFeasible in " + chosen + " \\(chosen\\)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}

	const evil = "<b>x</b>|[l](javascript:1)"
	setStrings(reflect.ValueOf(train.Placements).Elem(), evil)
	out.Reset()
	m.PodGroup(train, nil)
	for _, raw := range []string{"<b>", "[l]", "](", "x</b>|"} {
		if strings.Contains(out.String(), raw) {
			t.Errorf("the Markdown has %q from a recorded placement:\n%s", raw, out.String())
		}
	}
}
