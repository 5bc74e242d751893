package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui"
)

// TestWhatIfSourceOnUnschedulable drives the TUI's what-if over the real
// engine, through the interface the TUI sees, without a terminal.
func TestWhatIfSourceOnUnschedulable(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := &simOptions{Fixture: "unschedulable.yaml", Diagnostic: "unschedulable"}
	var src tui.WhatIf = newWhatIfSource(ctx, o)
	forks := 0
	s := src.(*whatIfSource)
	fork := s.fork
	s.fork = func(ctx context.Context, c *recorder.Cycle) (*engine.Fork, error) { forks++; return fork(ctx, c) }
	// A fixture's forks need only the cycle's number.
	c1 := &recorder.Cycle{Seq: 1}

	pod, err := src.PodYAML(c1)
	if err != nil || !strings.Contains(string(pod), "name: stuck") {
		t.Fatalf("PodYAML(1) = %q, %v; want the stuck pod", pod, err)
	}
	node, err := src.NodeYAML(c1, "cordoned")
	if err != nil || !strings.Contains(string(node), "unschedulable: true") {
		t.Fatalf("NodeYAML(1, cordoned) = %q, %v; want the cordoned node", node, err)
	}

	// Uncordon by editing the node's YAML, as $EDITOR would.
	edited := strings.Replace(string(node), "unschedulable: true", "unschedulable: false", 1)
	res, err := src.Run(c1, []tui.WhatIfChange{{Kind: tui.ChangeNode, Target: "cordoned", YAML: []byte(edited)}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Before.Outcome.Result != recorder.ResultUnschedulable || res.After.Outcome.Node != "cordoned" || res.Landing != "cordoned" {
		t.Errorf("before %s, after %s on %q, landing %q; want unschedulable, then bound to cordoned",
			res.Before.Outcome.Result, res.After.Outcome.Result, res.After.Outcome.Node, res.Landing)
	}
	if d := res.Diff; d == nil || len(d.BecameFeasible) != 1 || d.BecameFeasible[0].Node != "cordoned" {
		t.Errorf("diff = %+v; want cordoned to become feasible", res.Diff)
	}
	if len(res.Changes) != 1 || !strings.Contains(res.Changes[0], "cordoned") {
		t.Errorf("changes = %q", res.Changes)
	}

	// A refused edit is one line.
	_, err = src.Run(c1, []tui.WhatIfChange{{Kind: tui.ChangePod, YAML: []byte("kind: Pod\nmetadata:\n  name: stuck\nspec:\n  containers: []\n")}})
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("an invalid pod: err = %v; want a one-line error", err)
	}
	_, err = src.Run(c1, []tui.WhatIfChange{{Kind: tui.ChangeWeight, Target: "NoSuchPlugin", Weight: 3}})
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("an unknown plugin: err = %v; want a one-line error", err)
	}

	// Suggest, then open the first suggestion as a what-if.
	sg, err := src.Suggest(c1)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, x := range sg.Suggestions {
		texts = append(texts, x.Text)
	}
	if len(sg.Suggestions) == 0 || !strings.Contains(strings.Join(texts, "\n"), "uncordon node cordoned") {
		t.Fatalf("suggestions = %q; want uncordon node cordoned among them", texts)
	}
	first := sg.Suggestions[0]
	res, err = src.Run(c1, []tui.WhatIfChange{first.Change})
	if err != nil {
		t.Fatal(err)
	}
	if res.Landing != first.Node {
		t.Errorf("suggestion %q lands on %q when opened, but was listed for %q", first.Text, res.Landing, first.Node)
	}
	if forks != 1 {
		t.Errorf("forked %d times; want one fork of cycle 1, kept", forks)
	}
	if _, err := src.Run(c1, []tui.WhatIfChange{{Kind: tui.ChangeSuggested, Ref: 999}}); err == nil {
		t.Error("an unknown suggestion ran")
	}
	if _, err := src.PodYAML(&recorder.Cycle{Seq: 7}); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("cycle 7 of a one-cycle run: err = %v; want a one-line error", err)
	}
}

func TestLineChanges(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		limit         int
		want          string
	}{
		{"one value", "a: 1\n  tier: batch\n", "a: 1\n  tier: web\n", 100, "tier: batch → tier: web"},
		{"added", "a: 1\n", "a: 1\nb: 2\n", 100, "+b: 2"},
		{"removed", "a: 1\nb: 2\n", "a: 1\n", 100, "−b: 2"},
		{"nothing", "a: 1\n", "a: 1\n", 100, "no line changed"},
		{"cut", "a: 1\n", "a: 1\nb: " + strings.Repeat("x", 200) + "\n", 20, "+b: " + strings.Repeat("x", 15) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lineChanges(tt.before, tt.after, tt.limit); got != tt.want {
				t.Errorf("lineChanges = %q, want %q", got, tt.want)
			}
		})
	}
}
