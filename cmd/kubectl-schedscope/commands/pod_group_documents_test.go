package commands

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/recorder/export/otel/otlptest"
)

// gangRecording is the TUI's recording of engine/testdata/gang.yaml.
var gangRecording = filepath.Join("..", "..", "..", "tui", "testdata", "gang.rec")

// TestPodGroupDocuments: the Markdown and HTML of a run with pod groups
// (replay -o markdown|html, explain -o markdown|html) carry each pod-group
// cycle — members × nodes with the tentative placements and what each
// member saw assumed, why minCount was not met, what was reverted,
// PlacementFeasible's verdicts, the group PostFilter and the condition —
// and each member's cycle tells its story through its group.
func TestPodGroupDocuments(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	markdown := []string{
		"## Pod-group cycle 2 · `default/infer` · ✗ Unschedulable: the tentative placements were reverted and no member was bound\n",
		"gang, minCount 3 · 3 member(s)",
		"| member | cycle | s1 | s2 | where it went | saw assumed |\n",
		"| `infer-2` | 5 | ✗ | ✗ | fit nowhere: 0/2 nodes are available: 2 Insufficient cpu | saw infer-0 on s",
		"**Why minCount was not met:** minCount 3 was not met: 2 of the 3 member\\(s\\) tried fit",
		"**Reverted:** infer-0 on s",
		"| after infer-2 | 2 | 0 | `Unschedulable` minCount \\(3\\) cannot be satisfied: 2 scheduled, 0 remaining |\n",
		"**Group PostFilter (workload-aware preemption):** `UnschedulableAndUnresolvable` pod group preemption",
		"**Condition:** PodGroupInitiallyScheduled=False \\(Unschedulable\\)",
		"## Pod-group cycle 1 · `default/train` · ✓ bound: its 2 placed member\\(s\\) went to binding together\n",
		"**Condition:** PodGroupInitiallyScheduled=True \\(Scheduled\\)",
	}
	html := []string{
		`<h2 id="pod-group-cycle-2">Pod-group cycle 2 · <code>default/infer</code> · ✗ Unschedulable: the tentative placements were reverted and no member was bound</h2>`,
		`<tr><td class="node">infer-2</td><td><a href="#cycle-5">5</a></td><td class="reject" title="rejected">✗</td><td class="reject" title="rejected">✗</td><td class="why">fit nowhere: 0/2 nodes are available: 2 Insufficient cpu</td><td class="why">saw infer-0 on s`,
		`<p><b>Why minCount was not met:</b> minCount 3 was not met`,
		`<p><b>Reverted:</b> infer-0 on s`,
		`<tr><td class="why">after infer-2</td><td>2</td><td>0</td><td class="why"><code>Unschedulable</code> minCount (3) cannot be satisfied: 2 scheduled, 0 remaining</td></tr>`,
		`<p><b>Group PostFilter (workload-aware preemption):</b> <code>UnschedulableAndUnresolvable</code>`,
		`<p><b>Condition:</b> PodGroupInitiallyScheduled=False (Unschedulable)`,
		`<a href="#pod-group-cycle-2">pod-group cycle 2</a>`,
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"replay markdown", []string{"replay", gangRecording, "--no-tui", "-o", "markdown"}, append(markdown,
			"**Pod group:** fit on node s2 \\(counting infer-0 on s1, the earlier members assumed\\), but the group default/infer failed in pod-group cycle 2")},
		{"replay html", []string{"replay", gangRecording, "--no-tui", "-o", "html"}, html},
		{"explain markdown", []string{"explain", "-f", gangFixture, gangGates, "-o", "markdown"}, append(markdown, "**Pod group:** fit on node s")},
		{"explain html", []string{"explain", "-f", gangFixture, gangGates, "-o", "html"}, html},
		{"explain one group markdown", []string{"explain", "-f", gangFixture, gangGates, "--pod-group", "infer", "-o", "markdown"}, markdown[:9]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("the document does not hold %q:\n%s", want, out)
				}
			}
		})
	}
}

// TestPodGroupTraces: a pod-group cycle reaches the OTLP endpoint as a
// SchedulePodGroup trace, sent while recording and when a recording is
// exported.
func TestPodGroupTraces(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	groupRoots := func(t *testing.T, spans []otlptest.Span) map[string]otlptest.Span {
		t.Helper()
		out := map[string]otlptest.Span{}
		for _, r := range otlptest.Roots(spans) {
			if r.Name == "SchedulePodGroup" {
				out[r.Attrs["schedscope.pod_group.name"]] = r
			}
		}
		return out
	}
	check := func(t *testing.T, roots map[string]otlptest.Span) {
		t.Helper()
		infer, train := roots["infer"], roots["train"]
		if infer.Attrs["scheduler.result"] != "unschedulable" || infer.Attrs["schedscope.pod_group.min_count"] != "3" || !strings.Contains(infer.Attrs["schedscope.pod_group.reverted"], "infer-0@") {
			t.Errorf("infer's SchedulePodGroup: %v", infer.Attrs)
		}
		if train.Attrs["scheduler.result"] != "scheduled" {
			t.Errorf("train's SchedulePodGroup: %v", train.Attrs)
		}
	}
	t.Run("record", func(t *testing.T) {
		rcv := otlptest.Start(t)
		rec, _ := recordWith(t, "-f", gangFixture, gangGates, "--otlp-endpoint", rcv.HTTP)
		if len(rec.PodGroups) != 2 {
			t.Fatalf("%d pod-group cycles recorded, want 2", len(rec.PodGroups))
		}
		check(t, groupRoots(t, rcv.Spans(t, len(rec.Cycles)+2)))
	})
	t.Run("export", func(t *testing.T) {
		rcv := otlptest.Start(t)
		out, errOut, code := run(t, "export", "--otlp", rcv.HTTP, gangRecording)
		if code != 0 {
			t.Fatalf("export: exit %d: %s", code, errOut)
		}
		if !strings.Contains(out, "otlp: sent 5 cycles and 2 pod-group cycle(s) as traces") {
			t.Errorf("export said %q", out)
		}
		check(t, groupRoots(t, rcv.Spans(t, 7)))
	})
}
