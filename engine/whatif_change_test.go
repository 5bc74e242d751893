package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder"
)

func forkStuck(t *testing.T) *Fork {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f, err := ForkAt(ctx, loadEmbedded(t, "unschedulable.yaml"), Options{}, ForkTarget{Pod: "stuck"})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Each change kind moves the stuck pod where its change allows, and only there.
func TestChangesMoveThePod(t *testing.T) {
	f := forkStuck(t)
	if f.Recorded.Outcome.Result != recorder.ResultUnschedulable {
		t.Fatalf("the recorded cycle is %s, want Unschedulable", f.Recorded.Outcome.Result)
	}
	tests := []struct {
		name     string
		changes  []Change
		wantNode string
		// wantFeasible are nodes the diff must say became feasible.
		wantFeasible []string
	}{
		{"uncordon", []Change{PatchNode("cordoned", []byte(`{"spec":{"unschedulable":false}}`))}, "cordoned", []string{"cordoned"}},
		{"tolerate as YAML", []Change{PatchPod([]byte("spec:\n  tolerations:\n  - {key: team, operator: Exists}\n"))}, "tainted", []string{"tainted"}},
		{"drop the selector", []Change{PatchPod([]byte(`{"spec":{"nodeSelector":null}}`))}, "wrong-tier", []string{"wrong-tier"}},
		{"grow a node", []Change{PatchNode("too-small", []byte(`{"status":{"allocatable":{"cpu":"4","memory":"8Gi"}}}`))}, "too-small", []string{"too-small"}},
		{"disable a filter", []Change{DisablePlugin("TaintToleration", "filter")}, "tainted", []string{"tainted"}},
		{"copy then relabel", []Change{CopyNode("wrong-tier", "extra"), PatchNode("extra", []byte(`{"metadata":{"labels":{"tier":"batch"}}}`))}, "extra", nil},
		{"remove a node only", []Change{RemoveNode("too-small")}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			g, err := f.With(tt.changes...)
			if err != nil {
				t.Fatal(err)
			}
			res, err := g.Run(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Cycle.Outcome.Node; got != tt.wantNode {
				t.Errorf("landed on %q, want %q (%s)", got, tt.wantNode, res.Cycle.Outcome.Message)
			}
			d := recorder.DiffCycles(f.Recorded, res.Cycle)
			var feasible []string
			for _, c := range d.BecameFeasible {
				feasible = append(feasible, c.Node)
				if c.Before == nil || c.Before.Plugin == "" {
					t.Errorf("%s became feasible with no former rejection named", c.Node)
				}
			}
			if strings.Join(feasible, ",") != strings.Join(tt.wantFeasible, ",") {
				t.Errorf("became feasible: %v, want %v", feasible, tt.wantFeasible)
			}
			if d.Same {
				t.Error("the diff says nothing changed")
			}
		})
	}
	// The fork itself is untouched by With.
	if len(f.Nodes) != 4 || f.Nodes[0].Spec.Unschedulable != true || len(f.Changes) != 0 {
		t.Errorf("With changed the fork it was called on")
	}
}

// Bad changes fail with one line that names what is wrong.
func TestChangeErrors(t *testing.T) {
	f := forkStuck(t)
	tests := []struct {
		name   string
		change Change
		want   string
	}{
		{"malformed patch", PatchPod([]byte(`{"spec":`)), "neither JSON nor YAML"},
		{"not an object", PatchPod([]byte(`[1,2]`)), "must be an object"},
		{"unknown field", PatchPod([]byte(`{"spec":{"tolerationz":[]}}`)), `unknown field "spec.tolerationz"`},
		{"invalid value", PatchPod([]byte(`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"-1"}}}]}}`)), "must be greater than or equal to 0"},
		{"rename", PatchPod([]byte(`{"metadata":{"name":"other"}}`)), "renames the pod"},
		{"unknown node", PatchNode("nope", []byte(`{"spec":{}}`)), `no node "nope"`},
		{"bad taint effect", PatchNode("tainted", []byte(`{"spec":{"taints":[{"key":"a","effect":"Sometimes"}]}}`)), "effect"},
		{"remove unknown", RemoveNode("nope"), `no node "nope"`},
		{"copy onto existing", CopyNode("tainted", "cordoned"), `already exists`},
		{"evict unknown", EvictPod("default/ghost"), `no pod "default/ghost"`},
		{"evict the pod itself", EvictPod("stuck"), "the pod being scheduled"},
		{"unknown plugin", SetWeight("NodeResourcesFitt", 3), `no plugin named "NodeResourcesFitt"`},
		{"not a score plugin", SetWeight("NodeUnschedulable", 3), "not a Score plugin"},
		{"zero weight", SetWeight("ImageLocality", 0), "disable ImageLocality"},
		{"unknown point", DisablePlugin("ImageLocality", "scoring"), "not enabled at scoring"},
		{"enable without point", EnablePlugin("ImageLocality", ""), "name the extension point"},
		{"percentage", SetPercentageOfNodesToScore(150), "percentageOfNodesToScore"},
		{"add a pod as a node", AddNode([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n"), "x.yaml"), "is a Pod, not a Node"},
		{"edit renames the pod", EditPod([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: other}\nspec: {containers: [{name: c, image: i}]}\n"), "p.yaml"), "p.yaml: names pod default/other"},
		{"edit sets nodeName", EditPod([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: stuck}\nspec: {nodeName: node-a, containers: [{name: c, image: i}]}\n"), "p.yaml"), "spec.nodeName is set"},
		{"edit misspells a field", EditPod([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: stuck}\nspec:\n  tolerationz: []\n"), "p.yaml"), `p.yaml:5: Pod: strict decoding error: unknown field "spec.tolerationz"`},
		{"edit is invalid", EditPod([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: stuck}\nspec:\n  containers: []\n"), "p.yaml"), "p.yaml: "},
		{"edit renames a node", EditNode("cordoned", []byte("apiVersion: v1\nkind: Node\nmetadata: {name: x}\n"), "n.yaml"), `n.yaml: names node "x", not "cordoned"`},
		{"replace with another pod", ReplacePod([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: other}\nspec: {containers: [{name: c, image: i}]}\n"), "p.yaml"), "names pod default/other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.With(tt.change)
			if err == nil {
				t.Fatalf("no error, want one containing %q", tt.want)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line containing %q", msg, tt.want)
			}
		})
	}
}

// A weight change reaches the re-run's recorded weights and scores.
func TestSetWeightIsRecorded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f, err := ForkAt(ctx, loadEmbedded(t, "default.yaml"), Options{}, ForkTarget{Pod: "web"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := f.With(SetWeight("NodeResourcesBalancedAllocation", 10))
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d := recorder.DiffCycles(f.Recorded, res.Cycle)
	if len(d.Weights) != 1 || d.Weights[0] != (recorder.WeightChange{Plugin: "NodeResourcesBalancedAllocation", Before: 1, After: 10}) {
		t.Errorf("weight changes %+v, want NodeResourcesBalancedAllocation 1 → 10", d.Weights)
	}
	if len(d.Scores) == 0 {
		t.Error("no score changed")
	}
	for _, s := range d.Scores {
		for _, p := range s.Plugins {
			if p.Plugin != "NodeResourcesBalancedAllocation" {
				t.Errorf("%s's %s score changed (%d → %d); only the reweighted plugin should", s.Node, p.Plugin, p.Before, p.After)
			}
		}
	}
}
