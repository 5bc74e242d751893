package export

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/schema"
)

// testCycle is a bound cycle over nodes with one plugin in Filter and Score.
func testCycle(seq int, nodes *recorder.NodeSet) *recorder.Cycle {
	return &recorder.Cycle{
		Seq: seq, Pod: recorder.PodRef{Namespace: "default", Name: "web"}, Profile: "default-scheduler", Attempt: 1,
		Start: time.Date(2026, 1, 1, 0, 0, seq, 0, time.UTC), Nodes: nodes,
		Filter: &recorder.FilterPhase{Plugins: []string{"NodeResourcesFit"}, Feasible: []int{0},
			Rejected: []recorder.NodeStatus{{Node: 1, Plugin: 0, Code: recorder.CodeUnschedulable, Reasons: []string{"Insufficient cpu"}}}, Evaluated: 2},
		Score:   &recorder.ScorePhase{Nodes: []int{0}, Plugins: []recorder.ScorePlugin{{Name: "NodeResourcesFit", Weight: 1, Raw: []int64{42}}}, Totals: []int64{42}},
		Outcome: recorder.Outcome{Result: recorder.ResultBound, Node: "a"},
	}
}

func TestExportCycleSpellsOutNodes(t *testing.T) {
	nodes := &recorder.NodeSet{ID: 1, Names: []string{"a", "b", "c"}}
	c := testCycle(7, nodes)
	c.Duration = 2400 * time.Microsecond
	c.Filter.Feasible = recorder.Ints[int]{0, 2}
	c.Filter.Durations = []time.Duration{1500 * time.Nanosecond}
	c.Filter.Calls = []int{3}
	c.Diagnostic = &recorder.DiagnosticFilter{Plugins: []string{"NodeResourcesFit", "TaintToleration"}, Cells: []recorder.DiagnosticCell{{Node: 1, Plugin: 1, Code: recorder.CodeUnschedulable, Reasons: []string{"taint"}}}}
	c.Score = &recorder.ScorePhase{
		Nodes: recorder.Ints[int]{2, 0},
		Plugins: []recorder.ScorePlugin{
			{Name: "NodeResourcesFit", Weight: 1, Raw: recorder.Ints[int64]{10, 20}},
			{Name: "TaintToleration", Weight: 3, Raw: recorder.Ints[int64]{0, 1}, Normalized: recorder.Ints[int64]{100, 0}},
		},
		Totals: recorder.Ints[int64]{310, 20},
	}
	c.Selection = &recorder.Selection{Node: "c", Top: recorder.Ints[int]{2}, Best: 310, Rule: recorder.RuleHighestScore}
	c.NodeUse = []recorder.NodeUse{{Node: 2, Generation: 4, Requested: map[string]int64{"cpu": 500}}}
	c.Timings = []recorder.PhaseTiming{{Phase: recorder.PhaseFilter, Duration: time.Millisecond}}

	got := NewCycle(c)
	if diff := cmp.Diff([]string{"a", "b", "c"}, got.Nodes); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	wantFilter := &Filter{
		Plugins: []string{"NodeResourcesFit"}, Feasible: []string{"a", "c"}, Evaluated: 2,
		Rejected:    []NodeStatus{{Node: "b", Plugin: "NodeResourcesFit", Code: recorder.CodeUnschedulable, Reasons: []string{"Insufficient cpu"}}},
		PluginCalls: []PluginCalls{{Plugin: "NodeResourcesFit", Calls: 3, Duration: Duration(1500 * time.Nanosecond)}},
	}
	if diff := cmp.Diff(wantFilter, got.Filter); diff != "" {
		t.Errorf("filter (-want +got):\n%s", diff)
	}
	wantDiag := &Diagnostic{Plugins: c.Diagnostic.Plugins, Cells: []NodeStatus{{Node: "b", Plugin: "TaintToleration", Code: recorder.CodeUnschedulable, Reasons: []string{"taint"}}}}
	if diff := cmp.Diff(wantDiag, got.Diagnostic); diff != "" {
		t.Errorf("diagnostic (-want +got):\n%s", diff)
	}
	wantScores := []NodeScore{
		{Node: "c", Total: 310, Scores: []PluginScore{{Plugin: "NodeResourcesFit", Raw: 10, Normalized: 10, Weighted: 10}, {Plugin: "TaintToleration", Raw: 0, Normalized: 100, Weighted: 300}}},
		{Node: "a", Total: 20, Scores: []PluginScore{{Plugin: "NodeResourcesFit", Raw: 20, Normalized: 20, Weighted: 20}, {Plugin: "TaintToleration", Raw: 1, Normalized: 0, Weighted: 0}}},
	}
	if diff := cmp.Diff(wantScores, got.Score.Nodes); diff != "" {
		t.Errorf("score rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&Selection{Node: "c", Rule: recorder.RuleHighestScore, Explanation: "highest total score", Best: 310, Top: []string{"c"}}, got.Selection); diff != "" {
		t.Errorf("selection (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]NodeUse{{Node: "c", Generation: 4, Requested: map[string]int64{"cpu": 500}}}, got.NodeUse); diff != "" {
		t.Errorf("node use (-want +got):\n%s", diff)
	}

	data, err := json.Marshal(NewDocument(recorder.Header{KubernetesVersion: "v1.37.1"}, []*recorder.Cycle{c}, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"format":"schedscope-export","schemaVersion":1`, `"duration":"2.4ms"`, `"duration":"1.5µs"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if bad := schema.CompactKeys(doc, ""); len(bad) > 0 {
		t.Errorf("compact keys in the export: %v", bad)
	}
}

func TestExportCycleWithoutNodeSet(t *testing.T) {
	c := testCycle(1, nil)
	got := NewCycle(c)
	if diff := cmp.Diff([]string{"#0"}, got.Filter.Feasible); diff != "" {
		t.Errorf("feasible (-want +got):\n%s", diff)
	}
	if got.Nodes == nil {
		t.Error("nodes is nil; want an empty list")
	}
}
