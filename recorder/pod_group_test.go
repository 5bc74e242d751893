package recorder

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func makeGroupCycle() *PodGroupCycle {
	return &PodGroupCycle{
		Seq: 1, Group: PodGroupRef{Namespace: "default", Name: "infer"}, Policy: PolicyGang, MinCount: 3,
		Start: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC),
		Members: []GroupMember{
			{Pod: PodRef{Namespace: "default", Name: "infer-0"}, Cycle: 1, Node: "s1", Code: CodeSuccess},
			{Pod: PodRef{Namespace: "default", Name: "infer-1"}, Code: CodeUnschedulable, Message: "0/1 nodes are available: 1 Insufficient cpu.",
				Assumed: []Placement{{Pod: "infer-0", Node: "s1"}}},
		},
		Feasible: []PlacementVerdict{{Scheduled: 1, Remaining: 0, Code: CodeUnschedulable, Message: "minCount (3) cannot be satisfied: 1 scheduled, 0 remaining"}},
		Outcome:  GroupOutcome{Result: ResultUnschedulable, Message: "minCount (3) cannot be satisfied: 1 scheduled, 0 remaining"},
	}
}

// TestPodGroupRecordsAreAdditive: a pod-group cycle is written and read
// back whole, by Load and by the index reader (replay's); a recording from
// before the kind loads with none. (A reader from before the kind skips it
// as any unknown kind: Reader.Skipped.)
func TestPodGroupRecordsAreAdditive(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{SchedscopeVersion: "test", Source: Source{Kind: "fixture", Name: "gang.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	nodes := &NodeSet{ID: 1, Names: []string{"s1"}}
	g := makeGroupCycle()
	for _, write := range []func() error{
		func() error {
			return w.WriteCycle(&Cycle{Seq: 1, Pod: PodRef{Namespace: "default", Name: "infer-0"}, Nodes: nodes})
		},
		func() error {
			return w.WriteCycle(&Cycle{Seq: 2, Pod: PodRef{Namespace: "default", Name: "infer-1"}, Nodes: nodes})
		},
		func() error { return w.WritePodGroup(g) },
		w.WriteEnd,
	} {
		if err := write(); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := Load(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Problems) != 0 || len(rec.Cycles) != 2 {
		t.Fatalf("loaded %d cycles, problems %v", len(rec.Cycles), rec.Problems)
	}
	if diff := cmp.Diff([]*PodGroupCycle{g}, rec.PodGroups); diff != "" {
		t.Errorf("pod-group cycles read back (-want +got):\n%s", diff)
	}
	if got := GroupOf(rec.PodGroups, 1); got == nil || got.Member(1).Pod.Name != "infer-0" {
		t.Errorf("GroupOf(cycle 1) = %v, want infer's group with infer-0", got)
	}
	if got := GroupOf(rec.PodGroups, 2); got != nil {
		t.Errorf("GroupOf(cycle 2) = %v, want none: the member's cycle is not linked", got)
	}

	ir, err := NewIndexReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	entries := 0
	var indexed []*PodGroupCycle
	for r, err := range ir.All() {
		if err != nil {
			t.Errorf("index reader: %v", err)
		}
		if r.Entry != nil {
			entries++
		}
		if r.PodGroup != nil {
			indexed = append(indexed, r.PodGroup)
		}
	}
	if entries != 2 || len(ir.Skipped()) != 0 {
		t.Errorf("index reader: %d cycles, skipped %v; want 2 cycles and nothing skipped", entries, ir.Skipped())
	}
	if diff := cmp.Diff([]*PodGroupCycle{g}, indexed); diff != "" {
		t.Errorf("pod-group cycles indexed (-want +got):\n%s", diff)
	}

	old, err := os.ReadFile(filepath.Join("testdata", "v1", "preemption.rec"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err = Load(bytes.NewReader(old))
	if err != nil || len(rec.Cycles) == 0 || rec.PodGroups != nil {
		t.Errorf("a version 1 recording: %v, %d cycles, pod groups %v", err, len(rec.Cycles), rec.PodGroups)
	}
}

func TestPodGroupReverted(t *testing.T) {
	g := makeGroupCycle()
	if diff := cmp.Diff([]Placement{{Pod: "infer-0", Node: "s1"}}, g.Reverted()); diff != "" {
		t.Errorf("Reverted (-want +got):\n%s", diff)
	}
	g.Outcome.Result = ResultBound
	if r := g.Reverted(); r != nil {
		t.Errorf("a bound group reverted %v", r)
	}
}
