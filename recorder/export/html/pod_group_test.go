package html

import (
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
)

// A pod-group cycle recorded with TopologyAwareWorkloadScheduling
// (tui/testdata/gang-zones.rec) draws its candidate placements as a table,
// the chosen one marked; a placement's recorded name is escaped.
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
	c := train.Placements.ChosenCandidate()
	c.Name = "<script>zone</script>"
	var out strings.Builder
	h := &Writer{Out: document.Out{W: &out}}
	h.PodGroup(train, nil)
	page := out.String()
	for _, want := range []string{
		"<h3>Placements</h3>",
		`<td class="node">▶ &lt;script&gt;zone&lt;/script&gt;</td>`,
		"PodGroupPodsCount 2→100",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<script>") {
		t.Errorf("the page has a raw <script> from a recorded placement name")
	}
}
