package recorder

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder/schema"
)

func TestExportCycleSpellsOutNodes(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b", "c"}}
	c := testCycle(7, nodes)
	c.Duration = 2400 * time.Microsecond
	c.Filter.Feasible = Ints[int]{0, 2}
	c.Filter.Durations = []time.Duration{1500 * time.Nanosecond}
	c.Filter.Calls = []int{3}
	c.Diagnostic = &DiagnosticFilter{Plugins: []string{"NodeResourcesFit", "TaintToleration"}, Cells: []DiagnosticCell{{Node: 1, Plugin: 1, Code: CodeUnschedulable, Reasons: []string{"taint"}}}}
	c.Score = &ScorePhase{
		Nodes: Ints[int]{2, 0},
		Plugins: []ScorePlugin{
			{Name: "NodeResourcesFit", Weight: 1, Raw: Ints[int64]{10, 20}},
			{Name: "TaintToleration", Weight: 3, Raw: Ints[int64]{0, 1}, Normalized: Ints[int64]{100, 0}},
		},
		Totals: Ints[int64]{310, 20},
	}
	c.Selection = &Selection{Node: "c", Top: Ints[int]{2}, Best: 310, Rule: RuleHighestScore}
	c.NodeUse = []NodeUse{{Node: 2, Generation: 4, Requested: map[string]int64{"cpu": 500}}}
	c.Timings = []PhaseTiming{{Phase: PhaseFilter, Duration: time.Millisecond}}

	got := NewExportCycle(c)
	if diff := cmp.Diff([]string{"a", "b", "c"}, got.Nodes); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	wantFilter := &ExportFilter{
		Plugins: []string{"NodeResourcesFit"}, Feasible: []string{"a", "c"}, Evaluated: 2,
		Rejected:    []ExportNodeStatus{{Node: "b", Plugin: "NodeResourcesFit", Code: CodeUnschedulable, Reasons: []string{"Insufficient cpu"}}},
		PluginCalls: []ExportPluginCalls{{Plugin: "NodeResourcesFit", Calls: 3, Duration: Duration(1500 * time.Nanosecond)}},
	}
	if diff := cmp.Diff(wantFilter, got.Filter); diff != "" {
		t.Errorf("filter (-want +got):\n%s", diff)
	}
	wantDiag := &ExportDiagnostic{Plugins: c.Diagnostic.Plugins, Cells: []ExportNodeStatus{{Node: "b", Plugin: "TaintToleration", Code: CodeUnschedulable, Reasons: []string{"taint"}}}}
	if diff := cmp.Diff(wantDiag, got.Diagnostic); diff != "" {
		t.Errorf("diagnostic (-want +got):\n%s", diff)
	}
	wantScores := []ExportNodeScore{
		{Node: "c", Total: 310, Scores: []ExportPluginScore{{Plugin: "NodeResourcesFit", Raw: 10, Normalized: 10, Weighted: 10}, {Plugin: "TaintToleration", Raw: 0, Normalized: 100, Weighted: 300}}},
		{Node: "a", Total: 20, Scores: []ExportPluginScore{{Plugin: "NodeResourcesFit", Raw: 20, Normalized: 20, Weighted: 20}, {Plugin: "TaintToleration", Raw: 1, Normalized: 0, Weighted: 0}}},
	}
	if diff := cmp.Diff(wantScores, got.Score.Nodes); diff != "" {
		t.Errorf("score rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&ExportSelection{Node: "c", Rule: RuleHighestScore, Explanation: "highest total score", Best: 310, Top: []string{"c"}}, got.Selection); diff != "" {
		t.Errorf("selection (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]ExportNodeUse{{Node: "c", Generation: 4, Requested: map[string]int64{"cpu": 500}}}, got.NodeUse); diff != "" {
		t.Errorf("node use (-want +got):\n%s", diff)
	}

	data, err := json.Marshal(NewExportDocument(Header{KubernetesVersion: "v1.37.1"}, []*Cycle{c}, nil))
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
	got := NewExportCycle(c)
	if diff := cmp.Diff([]string{"#0"}, got.Filter.Feasible); diff != "" {
		t.Errorf("feasible (-want +got):\n%s", diff)
	}
	if got.Nodes == nil {
		t.Error("nodes is nil; want an empty list")
	}
}
