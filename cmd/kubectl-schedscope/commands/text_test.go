package commands

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
)

// writeCycles writes a recording of cycles and returns its path.
func writeCycles(t *testing.T, cycles ...*recorder.Cycle) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := recorder.NewWriter(&buf, recorder.Header{SchedscopeVersion: "test", KubernetesVersion: "v1.37.1", Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cycles {
		if err := w.WriteCycle(c); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "x.rec")
	writeFile(t, path, buf.String(), 0o600)
	return path
}

// scoredCycle is a cycle that filtered three nodes, rejected one and scored
// two: node-b (#1) won over node-a (#0).
func scoredCycle(seq int, pod string, nodes *recorder.NodeSet) *recorder.Cycle {
	return &recorder.Cycle{
		Seq: seq, Pod: recorder.PodRef{Namespace: "default", Name: pod}, Profile: "default-scheduler", Attempt: 1, Nodes: nodes,
		NodesToFind: 3,
		PreFilter:   &recorder.PreFilterPhase{Code: recorder.CodeSuccess, Plugins: []recorder.PluginStatus{{Plugin: "NodeResourcesFit", Code: recorder.CodeSuccess}}},
		Filter: &recorder.FilterPhase{Plugins: []string{"NodeResourcesFit"}, Feasible: []int{0, 1}, Evaluated: 3,
			Rejected: []recorder.NodeStatus{{Node: 2, Plugin: 0, Code: recorder.CodeUnschedulable, Reasons: []string{"Insufficient cpu"}}}},
		Score: &recorder.ScorePhase{Nodes: []int{0, 1}, Totals: []int64{40, 90},
			Plugins: []recorder.ScorePlugin{{Name: "NodeResourcesFit", Weight: 1, Raw: []int64{40, 90}}}},
		Selection: &recorder.Selection{Node: "node-b", Top: []int{1}, Best: 90, Rule: recorder.RuleHighestScore},
		Outcome:   recorder.Outcome{Result: recorder.ResultBound, Node: "node-b"},
	}
}

func TestTextMakesControlCharactersVisible(t *testing.T) {
	nodes := &recorder.NodeSet{ID: 1, Names: []string{"node-a", "node-b", "node-c\x1b[31m"}}
	evil := "api\x1b]0;PWNED\x07\x1b[2J"
	c := scoredCycle(1, evil, nodes)
	c.Filter.Rejected[0].Reasons = []string{"Insufficient cpu\nresult: bound to node-x"}
	c.PreFilter.Plugins = append(c.PreFilter.Plugins, recorder.PluginStatus{Plugin: "Evil\u202eNIGULP", Code: recorder.CodeUnschedulable, Reasons: []string{""}})
	path := writeCycles(t, c)

	out, errOut, code := run(t, "replay", path, "--no-tui")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for i, b := range []byte(out) {
		if b < 0x20 && b != '\n' || b == 0x7f {
			t.Fatalf("output holds control byte %#x at %d: %q", b, i, out[max(0, i-20):min(len(out), i+20)])
		}
	}
	for _, want := range []string{
		`pod default/api\x1b]0;PWNED\x07\x1b[2J`,
		`node-c\x1b[31m`,
		`Insufficient cpu\nresult: bound to node-x`,
		`Evil\u202eNIGULP`,
		"Unschedulable: (no reason given)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\nresult: bound to node-x") {
		t.Error("a reason forged a line of its own")
	}

	// Errors that list the recording's pods are as safe.
	_, errOut, _ = run(t, "replay", path, "--no-tui", "--pod", "ghost")
	if strings.ContainsRune(errOut, 0x1b) || !strings.Contains(errOut, `its pods are default/api\x1b]0;PWNED`) {
		t.Errorf("stderr %q, want the pod named with its escape visible", errOut)
	}

	// JSON keeps the data as recorded, escaped by encoding/json.
	out, _, _ = run(t, "replay", path, "--no-tui", "-o", "json")
	doc := checkExport(t, out, 1)
	if strings.ContainsRune(out, 0x1b) || doc.Cycles[0].Pod.Name != evil || doc.Cycles[0].PreFilter.Plugins[1].Reasons[0] != "" {
		t.Errorf("JSON pod %q, reasons %q; want them as recorded, escaped", doc.Cycles[0].Pod.Name, doc.Cycles[0].PreFilter.Plugins[1].Reasons)
	}
}

func TestTextWithoutNodeNames(t *testing.T) {
	nodes := &recorder.NodeSet{ID: 1, Names: []string{"node-a", "node-b", "node-c"}}
	tie := scoredCycle(2, "api", nodes)
	tie.Score.Totals = []int64{90, 90}
	tie.Score.Plugins[0].Raw = []int64{90, 90}
	tie.Selection = &recorder.Selection{Node: "node-b", Top: []int{0, 1}, Best: 90, Rule: recorder.RuleTie}
	path := writeCycles(t, scoredCycle(1, "web", nodes), tie)
	// Drop the node set: the cycles remain, their node names are unknown.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	writeFile(t, path, lines[0]+strings.Join(lines[2:], ""), 0o600)

	out, errOut, code := run(t, "replay", path, "--no-tui")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"node names unknown: node set 1 is missing from the recording or damaged; nodes are shown by index (#0, #1, …).",
		"3 nodes evaluated (of a node set that is unknown), starting at index 0",
		"✓ #0 ", "✓ #1 ", "✗ #2 ",
		// cycle 1: the winner is found by its recorded index.
		"5. Select host — node-b: highest total score\n   #0 lost by 50: NodeResourcesFit −50\n",
		// cycle 2: a tie among unnamed nodes cannot say which one won.
		"which scored node is node-b cannot be told without the node names; the others' totals are compared with the best, 90.\n   #0 tied at 90.\n   #1 tied at 90.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{" ? ", "lost by -", "of 0 nodes"} {
		if strings.Contains(out, bad) {
			t.Errorf("output holds %q:\n%s", bad, out)
		}
	}

	out, _, _ = run(t, "replay", path, "--no-tui", "-o", "json")
	var doc export.Document
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Cycles[0].Filter.Feasible; len(got) != 2 || got[0] != "#0" || doc.Cycles[0].Filter.Rejected[0].Node != "#2" {
		t.Errorf("JSON names feasible %q, rejected %+v; want #0, #1 and #2 as in text", got, doc.Cycles[0].Filter.Rejected)
	}
}

func TestTextSelectionNeverShowsANegativeLoss(t *testing.T) {
	// A recording (hand-made or from a buggy writer) whose chosen node did
	// not have the highest total.
	c := scoredCycle(1, "web", &recorder.NodeSet{ID: 1, Names: []string{"node-a", "node-b", "node-c"}})
	c.Selection = &recorder.Selection{Node: "node-a", Top: []int{0}, Best: 40, Rule: recorder.RuleHighestScore}
	out, errOut, code := run(t, "replay", writeCycles(t, c), "--no-tui")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := "   node-b scored 90, more than node-a, and was not chosen.\n"; !strings.Contains(out, want) || strings.Contains(out, "lost by -") {
		t.Errorf("output lacks %q or shows a negative loss:\n%s", want, out)
	}
}
