package engine

import (
	"context"
	"encoding/json"
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
	// Forks share their objects (clone copies slices, not objects): no
	// change may edit one in place.
	before := forkObjectsJSON(t, f)
	tests := []struct {
		name     string
		changes  []recorder.Change
		wantNode string
		// wantFeasible are nodes the diff must say became feasible.
		wantFeasible []string
	}{
		{"uncordon", []recorder.Change{recorder.PatchNode{Node: "cordoned", Patch: `{"spec":{"unschedulable":false}}`}}, "cordoned", []string{"cordoned"}},
		{"tolerate as YAML", []recorder.Change{recorder.PatchPod{Patch: "spec:\n  tolerations:\n  - {key: team, operator: Exists}\n"}}, "tainted", []string{"tainted"}},
		{"drop the selector", []recorder.Change{recorder.PatchPod{Patch: `{"spec":{"nodeSelector":null}}`}}, "wrong-tier", []string{"wrong-tier"}},
		{"grow a node", []recorder.Change{recorder.PatchNode{Node: "too-small", Patch: `{"status":{"allocatable":{"cpu":"4","memory":"8Gi"}}}`}}, "too-small", []string{"too-small"}},
		{"disable a filter", []recorder.Change{recorder.Disable{Plugin: "TaintToleration", Point: "filter"}}, "tainted", []string{"tainted"}},
		{"copy then relabel", []recorder.Change{recorder.CopyNode{From: "wrong-tier", Node: "extra"}, recorder.PatchNode{Node: "extra", Patch: `{"metadata":{"labels":{"tier":"batch"}}}`}}, "extra", nil},
		{"remove a node only", []recorder.Change{recorder.RemoveNode{Node: "too-small"}}, "", nil},
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
	if after := forkObjectsJSON(t, f); after != before {
		t.Errorf("a change edited an object of the fork it was made on:\nbefore %s\nafter  %s", before, after)
	}
}

// forkObjectsJSON is every object of f's cluster, as JSON.
func forkObjectsJSON(t *testing.T, f *Fork) string {
	t.Helper()
	b, err := json.Marshal([]any{f.Pod, f.Nodes, f.Placed, f.Nominated, f.Others})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Bad changes fail with one line that names what is wrong.
func TestChangeErrors(t *testing.T) {
	f := forkStuck(t)
	tests := []struct {
		name   string
		change recorder.Change
		want   string
	}{
		{"malformed patch", recorder.PatchPod{Patch: `{"spec":`}, "neither JSON nor YAML"},
		{"not an object", recorder.PatchPod{Patch: `[1,2]`}, "must be an object"},
		{"unknown field", recorder.PatchPod{Patch: `{"spec":{"tolerationz":[]}}`}, `unknown field "spec.tolerationz"`},
		{"invalid value", recorder.PatchPod{Patch: `{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"-1"}}}]}}`}, "must be greater than or equal to 0"},
		{"rename", recorder.PatchPod{Patch: `{"metadata":{"name":"other"}}`}, "renames the pod"},
		{"unknown node", recorder.PatchNode{Node: "nope", Patch: `{"spec":{}}`}, `no node "nope"`},
		{"bad taint effect", recorder.PatchNode{Node: "tainted", Patch: `{"spec":{"taints":[{"key":"a","effect":"Sometimes"}]}}`}, "effect"},
		{"remove unknown", recorder.RemoveNode{Node: "nope"}, `no node "nope"`},
		{"copy onto existing", recorder.CopyNode{From: "tainted", Node: "cordoned"}, `already exists`},
		{"evict unknown", recorder.Evict{Pods: []string{"default/ghost"}}, `no pod "default/ghost"`},
		{"evict the pod itself", recorder.Evict{Pods: []string{"stuck"}}, "the pod being scheduled"},
		{"unknown plugin", recorder.SetWeight{Plugin: "NodeResourcesFitt", Weight: 3}, `no plugin named "NodeResourcesFitt"`},
		{"not a score plugin", recorder.SetWeight{Plugin: "NodeUnschedulable", Weight: 3}, "not a Score plugin"},
		{"zero weight", recorder.SetWeight{Plugin: "ImageLocality", Weight: 0}, "disable ImageLocality"},
		{"unknown point", recorder.Disable{Plugin: "ImageLocality", Point: "scoring"}, "not enabled at scoring"},
		{"enable without point", recorder.Enable{Plugin: "ImageLocality", Point: ""}, "name the extension point"},
		{"percentage", recorder.SetPercentage{Percent: 150}, "percentageOfNodesToScore"},
		{"add a pod as a node", recorder.AddNode{Manifest: []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n"), Source: "x.yaml"}, "is a Pod, not a Node"},
		{"edit renames the pod", recorder.EditPod{Edited: []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: other}\nspec: {containers: [{name: c, image: i}]}\n"), Source: "p.yaml"}, "p.yaml: names pod default/other"},
		{"edit sets nodeName", recorder.EditPod{Edited: []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: stuck}\nspec: {nodeName: node-a, containers: [{name: c, image: i}]}\n"), Source: "p.yaml"}, "spec.nodeName is set"},
		{"edit misspells a field", recorder.EditPod{Edited: []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: stuck}\nspec:\n  tolerationz: []\n"), Source: "p.yaml"}, `p.yaml:5: Pod: strict decoding error: unknown field "spec.tolerationz"`},
		{"edit is invalid", recorder.EditPod{Edited: []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: stuck}\nspec:\n  containers: []\n"), Source: "p.yaml"}, "p.yaml: "},
		{"edit renames a node", recorder.EditNode{Node: "cordoned", Edited: []byte("apiVersion: v1\nkind: Node\nmetadata: {name: x}\n"), Source: "n.yaml"}, `n.yaml: names node "x", not "cordoned"`},
		{"replace with another pod", recorder.ReplacePod{Manifest: []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: other}\nspec: {containers: [{name: c, image: i}]}\n"), Source: "p.yaml"}, "names pod default/other"},
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
	g, err := f.With(recorder.SetWeight{Plugin: "NodeResourcesBalancedAllocation", Weight: 10})
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
