package engine

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
)

// A victim keeps its room for its grace period: the preemptor stays
// nominated, a lower-priority pod arriving meanwhile is rejected by the node
// it would fit beside the victim alone (the nominated preemptor is counted
// there, and the record says so), and the preemptor is bound on the
// nominated-node fast path once the grace period has passed on the run's
// clock.
func TestGracefulVictimHoldsNominatedRoom(t *testing.T) {
	data, err := os.ReadFile("testdata/graceful-victim.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, cycles := runFixtureArriving(t, "graceful-victim.yaml", data, Options{}, true)
	var got []string
	for _, c := range cycles {
		got = append(got, c.Pod.Name)
	}
	if diff := cmp.Diff([]string{"urgent", "small", "urgent", "small"}, got); diff != "" {
		t.Fatalf("cycles by pod (-want +got):\n%s", diff)
	}
	preempt, meanwhile, bind := cycles[0], cycles[1], cycles[2]
	if pf := preempt.PostFilter; pf == nil || pf.NominatedNode != "node-1" || len(pf.Victims) != 1 || pf.Victims[0].Key() != "default/victim" {
		t.Fatalf("urgent's first cycle: PostFilter %+v, want node-1 nominated with default/victim evicted", pf)
	}

	f := meanwhile.Filter
	if f == nil || len(f.Rejected) != 1 || meanwhile.NodeName(f.Rejected[0].Node) != "node-1" {
		t.Fatalf("small's cycle: filter %+v, want node-1 rejected", f)
	}
	r := f.Rejected[0]
	if len(r.Reasons) != 1 || r.Reasons[0] != "Insufficient cpu" || len(r.Nominated) != 1 || r.Nominated[0].Key() != "default/urgent" || r.Nominated[0].Priority != 1000 {
		t.Errorf("small on node-1: reasons %v, nominated %+v; want Insufficient cpu counting default/urgent (priority 1000)", r.Reasons, r.Nominated)
	}
	// The diagnostic pass counts the nominated pod too, so it does not
	// contradict the filter.
	var failed []string
	if d := meanwhile.Diagnostic; d != nil {
		for _, cell := range d.Cells {
			if cell.Code != recorder.CodeSkip {
				failed = append(failed, d.Plugins[cell.Plugin]+": "+strings.Join(cell.Reasons, "; "))
			}
		}
	}
	if diff := cmp.Diff([]string{"NodeResourcesFit: Insufficient cpu"}, failed); diff != "" {
		t.Errorf("small's diagnostic pass on node-1 (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(meanwhile.Outcome.Message, "0/1 nodes are available: 1 Insufficient cpu.") {
		t.Errorf("small's message %q", meanwhile.Outcome.Message)
	}

	if fp := bind.FastPath; fp == nil || fp.Kind != recorder.FastPathNominated || fp.Node != "node-1" || !fp.Feasible || bind.Outcome.Node != "node-1" {
		t.Fatalf("urgent's retry: fast path %+v, outcome %+v; want bound to node-1 on the nominated-node fast path", bind.FastPath, bind.Outcome)
	}
	const grace = 30 * time.Second
	if d := meanwhile.Start.Sub(preempt.Start); d >= grace {
		t.Errorf("small's cycle came %v after the preemption, want within the victim's grace period", d)
	}
	if d := bind.Start.Sub(preempt.Start); d < grace {
		t.Errorf("urgent was bound %v after its preemption, want after the victim's %v grace period", d, grace)
	}
	if diff := cmp.Diff(map[string]string{"default/urgent": "node-1", "default/small": ""}, res.Bindings); diff != "" {
		t.Errorf("bindings (-want +got):\n%s", diff)
	}
}

// A victim with no grace period leaves at once, as the API server deletes it.
func TestVictimWithoutGracePeriodLeavesAtOnce(t *testing.T) {
	data, err := os.ReadFile("testdata/graceful-victim.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "terminationGracePeriodSeconds: 30", "terminationGracePeriodSeconds: 0", 1))
	res, cycles := runFixtureArriving(t, "graceful-victim.yaml", data, Options{}, true)
	if len(cycles) < 2 || cycles[0].Pod.Name != "urgent" {
		t.Fatalf("cycles %d, want urgent's preemption first", len(cycles))
	}
	var bound *recorder.Cycle
	for _, c := range cycles[1:] {
		if c.Pod.Name == "urgent" && c.Outcome.Node == "node-1" {
			bound = c
		}
	}
	if bound == nil || res.Bindings["default/urgent"] != "node-1" {
		t.Fatalf("urgent not bound to node-1: %v", res.Bindings)
	}
	if d := bound.Start.Sub(cycles[0].Start); d >= 30*time.Second {
		t.Errorf("urgent was bound %v after its preemption; a victim with no grace period leaves at once", d)
	}
}
