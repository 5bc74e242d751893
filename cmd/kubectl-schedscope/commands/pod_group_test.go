package commands

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/recorder"
)

var gangFixture = filepath.Join("..", "..", "..", "engine", "testdata", "gang.yaml")

const gangGates = "--feature-gates=GenericWorkload=true"

// TestExplainPodGroup: explain --pod-group prints the group's cycle
// (members × nodes with the tentative placements, why minCount was not met,
// what was reverted, PlacementFeasible's verdicts, the condition), and
// explain --pod tells a member's story through its group.
func TestExplainPodGroup(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"group", []string{"--pod-group", "pg/infer"}, []string{
			"pod-group cycle 2 · group default/infer · gang, minCount 3 · 3 member(s)",
			"result: Unschedulable: the tentative placements were reverted and no member was bound",
			"   member   cycle  s1 s2\n",
			"   infer-0  3      ●  ○   tentatively on s1\n",
			"   infer-1  4      ✗  ●   tentatively on s2; counting infer-0 on s1 (assumed)\n",
			"   infer-2  5      ✗  ✗   fit nowhere: 0/2 nodes are available: 2 Insufficient cpu; counting infer-0 on s1, infer-1 on s2 (assumed)\n",
			"minCount 3 was not met: 2 of the 3 member(s) tried fit (3 queued); PlacementFeasible: 2 scheduled, 0 remaining → Unschedulable: minCount (3) cannot be satisfied: 2 scheduled, 0 remaining\n",
			"reverted: infer-0 on s1, infer-1 on s2\n",
			"   after infer-1                2 scheduled, 1 remaining → Wait: minCount (3) is not yet satisfied: 2 scheduled, 1 remaining\n",
			"condition: PodGroupInitiallyScheduled=False (Unschedulable): minCount (3) cannot be satisfied",
			"cycle 5 · pod default/infer-2",
			"queue story of pod group default/infer (its members move together):\n",
			"UnscheduledPodAdd → Unschedulable (gated)\n",
			"ScheduleAttemptFailure → Backoff\n",
		}},
		{"member waiting for its group", []string{"--pod", "batch-0"}, []string{
			"default/batch-0  Gated: waiting for pod group default/batch: 1 of minCount 2 members exist\n",
			"held by GangScheduling's PreEnqueue until minCount members of default/batch exist",
		}},
		{"bound group", []string{"--pod-group", "default/train"}, []string{
			"pod-group cycle 1 · group default/train · gang, minCount 2 · 2 member(s)",
			"result: bound: its 2 placed member(s) went to binding together",
			"condition: PodGroupInitiallyScheduled=True (Scheduled)",
		}},
		{"member", []string{"--pod", "infer-1"}, []string{
			"cycle 4 · pod default/infer-1",
			"pod group: fit on node s2 (counting infer-0 on s1, the earlier members assumed), but the group default/infer failed in pod-group cycle 2: minCount (3) cannot be satisfied: 2 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor; the tentative placements were reverted (infer-0 on s1, infer-1 on s2)\n",
			"pod-group cycle 2 · group default/infer",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, append([]string{"explain", "-f", gangFixture, gangGates}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	_, errOut, code := run(t, "explain", "-f", gangFixture, gangGates, "--pod-group", "batch")
	checkOneLine(t, errOut, `no pod-group cycle for "batch" in`)
	if code == 0 || !strings.Contains(errOut, "its pod groups are default/train, default/infer") {
		t.Errorf("--pod-group batch (waiting for members, no cycle): exit %d, %q", code, errOut)
	}
}

// TestExplainPodGroupJSON: -o json holds the pod-group cycles, valid
// against the schema, with the members linked to their cycles.
func TestExplainPodGroupJSON(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	out, errOut, code := run(t, "explain", "-f", gangFixture, gangGates, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := checkExport(t, out, -1)
	if len(doc.PodGroups) != 2 {
		t.Fatalf("%d pod-group cycles, want train's and infer's", len(doc.PodGroups))
	}
	infer := doc.PodGroups[1]
	if infer.Group.Name != "infer" || infer.Outcome.Result != recorder.ResultUnschedulable || len(infer.Reverted()) != 2 {
		t.Errorf("infer's group cycle %+v, want Unschedulable with two placements reverted", infer)
	}
	seqs := map[int]string{}
	for _, c := range doc.Cycles {
		seqs[c.Seq] = c.Pod.Name
	}
	for _, m := range infer.Members {
		if seqs[m.Cycle] != m.Pod.Name {
			t.Errorf("member %s links cycle %d, which is %q's", m.Pod.Name, m.Cycle, seqs[m.Cycle])
		}
	}
}

// TestRecordPodGroups: a recording keeps the pod-group cycles, verify
// counts them, recorder.Load reads them back, and replay prints them as
// explain does (text, and JSON valid against the schema).
func TestRecordPodGroups(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	rec := filepath.Join(t.TempDir(), "gang.rec")
	if _, errOut, code := run(t, "record", "-f", gangFixture, gangGates, "-o", rec); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	out, errOut, code := run(t, "verify", rec)
	if code != 0 || !strings.Contains(out, "2 pod-group cycles\n") {
		t.Errorf("verify: exit %d (%s):\n%s", code, errOut, out)
	}
	r, err := recorder.LoadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.PodGroups) != 2 || r.PodGroups[1].Group.Name != "infer" || len(r.Problems) != 0 {
		t.Errorf("loaded %d pod-group cycles (problems %v), want train's and infer's", len(r.PodGroups), r.Problems)
	}
	out, errOut, code = run(t, "replay", rec, "--no-tui", "--pod", "infer-1")
	for _, w := range []string{
		"pod group: fit on node s2 (counting infer-0 on s1, the earlier members assumed), but the group default/infer failed in pod-group cycle 2",
		"   infer-1  4      ✗  ●   tentatively on s2; counting infer-0 on s1 (assumed)\n",
		"reverted: infer-0 on s1, infer-1 on s2\n",
	} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("replay --no-tui --pod infer-1: exit %d (%s), output lacks %q:\n%s", code, errOut, w, out)
		}
	}
	out, errOut, code = run(t, "replay", rec, "--no-tui", "-o", "json")
	if code != 0 {
		t.Fatalf("replay -o json: exit %d: %s", code, errOut)
	}
	if doc := checkExport(t, out, 5); len(doc.PodGroups) != 2 {
		t.Errorf("replay -o json: %d pod-group cycles, want 2", len(doc.PodGroups))
	}
}
