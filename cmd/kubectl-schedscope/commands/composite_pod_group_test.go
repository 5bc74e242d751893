package commands

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/recorder"
)

// compositeFixture is the embedded fixture of composite pod groups.
var compositeFixture = filepath.Join("..", "..", "..", "fixtures", "gated", "composite.yaml")

const compositeGates = "--feature-gates=GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true"

// TestCompositePodGroupOutputs: explain --pod-group of a CompositePodGroup
// (or of a PodGroup under one) tells the hierarchy in text, Markdown and
// HTML — each group's policy, the child overruled by its parent, why
// minGroupCount was not met, and no condition on the CompositePodGroup —
// and -o json carries it as the schema describes.
func TestCompositePodGroupOutputs(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"text", []string{"--pod-group", "pair"}, []string{
			"pod-group cycle 2 · group default/pair · CompositePodGroup: gang, minGroupCount 2 · 4 member(s)",
			"pair-0: tentatively on b",
			"hierarchy (each group under its CompositePodGroup):\n   CompositePodGroup pair (gang, minGroupCount 2): 1 of its 2 group(s) could be placed; not satisfied",
			"     PodGroup pair-0 (gang, minCount 2): 2 of 2 member(s) placed; reverted: its parent pair was not satisfied; PodGroupInitiallyScheduled=False (Unschedulable)\n",
			"minGroupCount 2 was not met: 1 of the 2 group(s) under pair could be placed (pair-0, reverted with the rest); not placed: pair-1",
			"   after pair-1                 1 scheduled, 0 remaining → Unschedulable",
			"condition: none on the CompositePodGroup (kube-scheduler v1.37.1 writes none)",
		}},
		{"a leaf finds its root", []string{"--pod-group", "default/ring-1"}, []string{
			"pod-group cycle 1 · group default/ring · CompositePodGroup: gang, minGroupCount 2, one topology.kubernetes.io/zone",
			"     PodGroup ring-1 (gang, minCount 2): 2 of 2 member(s) placed; bound; PodGroupInitiallyScheduled=True (Scheduled)",
		}},
		{"markdown", []string{"--pod-group", "pair", "-o", "markdown"}, []string{
			"**Why minGroupCount was not met:** minGroupCount 2 was not met",
			"### Hierarchy\n",
			"| ↳ `pair-0` | PodGroup | gang, minCount 2 | 2 of 2 member\\(s\\) placed; reverted: its parent pair was not satisfied; PodGroupInitiallyScheduled=False \\(Unschedulable\\) |\n",
			"| `pair-0-0` | 8 |",
		}},
		{"html", []string{"--pod-group", "pair", "-o", "html"}, []string{
			"<h3>Hierarchy</h3>",
			`<tr><td class="node">↳ <code>pair-1</code></td><td>PodGroup</td><td class="why">gang, minCount 2</td>`,
			"<p><b>Why minGroupCount was not met:</b> minGroupCount 2 was not met",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, append([]string{"explain", "-f", compositeFixture, compositeGates}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("the output does not hold %q:\n%s", want, out)
				}
			}
		})
	}
	t.Run("json", func(t *testing.T) {
		out, errOut, code := run(t, "explain", "-f", compositeFixture, compositeGates, "-o", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		doc := checkExport(t, out, -1)
		var pair *recorder.PodGroupCycle
		for _, g := range doc.PodGroups {
			if g.Group.Name == "pair" && pair == nil {
				pair = g
			}
		}
		if pair == nil || !pair.Composite() {
			t.Fatalf("no composite pod-group cycle of pair in %v", doc.PodGroups)
		}
		h := pair.HierarchyGroupOf(recorder.KindPodGroupKind, "pair-0")
		if h == nil || !pair.OverruledByParent(*h) || h.Condition == nil || h.Condition.Status != "False" || pair.Members[0].PodGroup != "pair-0" {
			t.Errorf("pair's cycle in JSON: hierarchy %+v, members %+v", pair.Hierarchy, pair.Members)
		}
	})
	t.Run("refused without the gate", func(t *testing.T) {
		_, errOut, code := run(t, "explain", "-f", compositeFixture, "--feature-gates=GenericWorkload=true")
		if code == 0 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "composite.yaml:31: ") || !strings.Contains(errOut, compositeGates) {
			t.Errorf("exit %d, stderr %q: want one line naming the file, line and the gates", code, errOut)
		}
	})
}
