package recorder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// richCycle is a valid cycle that uses every indexed field.
func richCycle(seq int, nodes *NodeSet) *Cycle {
	c := testCycle(seq, nodes)
	c.NodeUse = []NodeUse{{Node: 1, Generation: 3}}
	c.SearchStart, c.NodesToFind = 1, 2
	c.Filter.Durations, c.Filter.Calls = []time.Duration{5}, []int{2}
	c.Diagnostic = &DiagnosticFilter{Plugins: []string{"NodeResourcesFit"}, Cells: []DiagnosticCell{{Node: 1, Plugin: 0, Code: CodeUnschedulable}}}
	c.Score.Plugins[0].Normalized = Ints[int64]{100}
	c.Selection = &Selection{Node: "a", Top: Ints[int]{0}, Best: 42, Rule: RuleHighestScore}
	return c
}

// recordingWith writes the header and node set of nodes, then the cycle
// written as JSON after edit changes it; it returns the recording and the
// offset of the cycle's line.
func recordingWith(t *testing.T, nodes *NodeSet, edit func(c map[string]any)) ([]byte, int64) {
	t.Helper()
	data := writeRecording(t, richCycle(1, nodes))
	lines := strings.SplitAfter(string(data), "\n")
	var env map[string]any
	if err := json.Unmarshal([]byte(lines[2][9:]), &env); err != nil {
		t.Fatal(err)
	}
	edit(env["cycle"].(map[string]any))
	body, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	at := int64(len(lines[0]) + len(lines[1]))
	return []byte(lines[0] + lines[1] + checksumLine(body)), at
}

// path walks a decoded JSON value by keys and list indices.
func path(v any, keys ...any) map[string]any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v.(map[string]any)
}

func TestIndicesOutOfRangeAreCorrupt(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	tests := []struct {
		name string
		edit func(c map[string]any)
		want string
	}{
		{"feasible past the set", func(c map[string]any) { path(c, "filter")["feasible"] = []any{999, -1} }, "cycle 1: filter.feasible[0] is 999, not a node of node set 1, which has 2"},
		{"negative feasible", func(c map[string]any) { path(c, "filter")["feasible"] = []any{-1} }, "filter.feasible[0] is -1"},
		{"feasible as runs", func(c map[string]any) { path(c, "filter")["feasible"] = map[string]any{"runs": []any{[]any{1, 1, 2}}} }, "filter.feasible[1] is 2"},
		{"discarded", func(c map[string]any) { path(c, "filter")["discarded"] = []any{2} }, "filter.discarded[0] is 2"},
		{"rejected node", func(c map[string]any) { path(c, "filter", "rejected", 0)["n"] = 12345 }, "filter.rejected[0].n is 12345"},
		{"rejected plugin", func(c map[string]any) { path(c, "filter", "rejected", 0)["p"] = 77 }, "filter.rejected[0].p is 77, not a plugin of filter.plugins, which lists 1"},
		{"rejected plugin below none", func(c map[string]any) { path(c, "filter", "rejected", 0)["p"] = -2 }, "filter.rejected[0].p is -2"},
		{"evaluated", func(c map[string]any) { path(c, "filter")["evaluated"] = 1e12 }, "filter.evaluated is 1000000000000, not a number of nodes of node set 1"},
		{"filter durations", func(c map[string]any) { path(c, "filter")["ns"] = []any{1, 2} }, "filter.ns has 2 values, but filter.plugins has 1"},
		{"filter calls", func(c map[string]any) { path(c, "filter")["calls"] = []any{1, 2, 3} }, "filter.calls has 3 values"},
		{"zero seq", func(c map[string]any) { c["seq"] = 0 }, "cycle 0: seq is 0: cycles are numbered from 1"},
		{"negative seq", func(c map[string]any) { c["seq"] = -4 }, "seq is -4"},
		{"negative attempt", func(c map[string]any) { c["attempt"] = -1 }, "attempt is -1"},
		{"search start", func(c map[string]any) { c["searchStart"] = 1e15 }, "searchStart is 1000000000000000, not a node index"},
		{"negative nodes to find", func(c map[string]any) { c["nodesToFind"] = -1 }, "nodesToFind is -1"},
		{"nodes to find past the set", func(c map[string]any) { c["nodesToFind"] = 3 }, "nodesToFind is 3, not a number of nodes of node set 1, which has 2"},
		{"node use", func(c map[string]any) { path(c, "nodeUse", 0)["n"] = 2 }, "nodeUse[0].n is 2"},
		{"diagnostic node", func(c map[string]any) { path(c, "diagnostic", "cells", 0)["n"] = 5 }, "diagnostic.cells[0].n is 5"},
		{"diagnostic plugin", func(c map[string]any) { path(c, "diagnostic", "cells", 0)["p"] = -1 }, "diagnostic.cells[0].p is -1, not a plugin of diagnostic.plugins"},
		{"score node", func(c map[string]any) { path(c, "score")["nodes"] = []any{9} }, "score.nodes[0] is 9"},
		{"score totals", func(c map[string]any) { path(c, "score")["totals"] = []any{} }, "score.totals has 0 values, but score.nodes has 1"},
		{"score raw", func(c map[string]any) { path(c, "score", "plugins", 0)["raw"] = []any{1, 2} }, "score.plugins[0].raw has 2 values"},
		{"score normalized", func(c map[string]any) { path(c, "score", "plugins", 0)["normalized"] = []any{1, 2} }, "score.plugins[0].normalized has 2 values"},
		{"selection top", func(c map[string]any) { path(c, "selection")["top"] = []any{3} }, "selection.top[0] is 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, at := recordingWith(t, nodes, tt.edit)
			// The sequential reader.
			rec, err := Load(strings.NewReader(string(data)))
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Cycles) != 0 || len(rec.Problems) != 1 {
				t.Fatalf("%d cycles, problems %v; want the cycle refused as corrupt", len(rec.Cycles), rec.Problems)
			}
			want := fmt.Sprintf("corrupt record at byte %d (line 3): ", at)
			if msg := rec.Problems[0].Error(); !strings.HasPrefix(msg, want) || !strings.Contains(msg, tt.want) {
				t.Errorf("problem %q, want %q…%q", msg, want, tt.want)
			}
			// The random-access reader.
			file := filepath.Join(t.TempDir(), "x.rec")
			if err := os.WriteFile(file, data, 0o600); err != nil {
				t.Fatal(err)
			}
			rf, err := OpenFile(file)
			if err != nil {
				t.Fatal(err)
			}
			defer rf.Close()
			if c, err := rf.First(); c != nil || !errors.Is(err, io.EOF) {
				t.Errorf("File.First: %v, %v; want the corrupt cycle skipped", c, err)
			}
			var env struct {
				Cycle struct{ Seq int } `json:"cycle"`
			}
			if err := json.Unmarshal(data[at+9:], &env); err != nil {
				t.Fatal(err)
			}
			seq := env.Cycle.Seq
			c, err := rf.Seek(seq)
			var corrupt *ErrCorrupt
			if c != nil || !errors.As(err, &corrupt) || corrupt.Offset != at || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("File.Seek(%d): %v, %v; want the corrupt record at byte %d", seq, c, err, at)
			}
		})
	}

	// Unedited, the cycle is read, and so is one whose node set is unknown,
	// within the bounds an unknown set allows.
	data, _ := recordingWith(t, nodes, func(map[string]any) {})
	if rec, err := Load(strings.NewReader(string(data))); err != nil || len(rec.Cycles) != 1 || len(rec.Problems) != 0 {
		t.Fatalf("the valid cycle: %v, problems %v", err, rec.Problems)
	}
	lines := strings.SplitAfter(string(data), "\n")
	withoutSet := lines[0] + lines[2]
	rec, err := Load(strings.NewReader(withoutSet))
	if err != nil || len(rec.Cycles) != 1 || len(rec.Problems) != 1 {
		t.Fatalf("without its node set: %v, %d cycles, problems %v; want the cycle and its missing set", err, len(rec.Cycles), rec.Problems)
	}
	var missing *ErrMissingNodeSet
	if !errors.As(rec.Problems[0], &missing) {
		t.Errorf("problem %v, want the missing node set", rec.Problems[0])
	}
	data, _ = recordingWith(t, nodes, func(c map[string]any) { path(c, "filter")["feasible"] = []any{maxNodeIndex} })
	lines = strings.SplitAfter(string(data), "\n")
	if rec, _ := Load(strings.NewReader(lines[0] + lines[2])); len(rec.Cycles) != 0 || !strings.Contains(fmt.Sprint(rec.Problems), "filter.feasible[0] is 65536, not a node index (0 to 65535)") {
		t.Errorf("an index past any node set, with the set unknown: %d cycles, problems %v", len(rec.Cycles), rec.Problems)
	}
}

func TestNodeSetInfoMustAlign(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}, Info: []NodeInfo{{}, {}}}
	data := string(writeRecording(t, testCycle(1, nodes)))
	lines := strings.SplitAfter(data, "\n")
	bad := strings.Replace(lines[1][9:len(lines[1])-1], `"info":[{},{}]`, `"info":[{}]`, 1)
	damaged := lines[0] + checksumLine([]byte(bad)) + lines[2]
	rec, err := Load(strings.NewReader(damaged))
	if err != nil {
		t.Fatal(err)
	}
	want := "node set 1: nodeSet.info has 1 values, but nodeSet.names has 2"
	if len(rec.Problems) != 2 || !strings.Contains(rec.Problems[0].Error(), want) || len(rec.Cycles) != 1 || rec.Cycles[0].Nodes != nil {
		t.Fatalf("problems %v, %d cycles; want the node set refused (%s) and the cycle without names", rec.Problems, len(rec.Cycles), want)
	}
	file := filepath.Join(t.TempDir(), "x.rec")
	if err := os.WriteFile(file, []byte(damaged), 0o600); err != nil {
		t.Fatal(err)
	}
	rf, err := OpenFile(file)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	c, err := rf.First()
	if c == nil || c.Nodes != nil || err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("File.First: %v, %v; want the cycle without names and the reason", c, err)
	}
}
