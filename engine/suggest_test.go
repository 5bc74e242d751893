package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

// suggest finds the known fixes of fixtures/unschedulable.yaml, and every
// change it lists puts the pod where it says when re-run on its own.
func TestSuggestFindsKnownFixes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	f := forkStuck(t)
	res, err := Suggest(ctx, f, SuggestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"uncordon node cordoned (kubectl uncordon cordoned)":                    "cordoned",
		"tolerate the taint team=ml:NoSchedule (on tainted)":                    "tainted",
		"drop the pod's nodeSelector tier=batch (node wrong-tier has tier=web)": "wrong-tier",
	}
	got := map[string]string{}
	for _, s := range res.Suggestions {
		got[s.Text] = s.Node
		// Confirm independently: apply the change to a fresh fork and re-run.
		g, err := f.With(s.Change)
		if err != nil {
			t.Fatalf("%s: %v", s.Text, err)
		}
		run, err := g.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if run.Cycle.Outcome.Result != recorder.ResultBound || run.Cycle.Outcome.Node != s.Node {
			t.Errorf("suggestion %q: said %s, the re-run %s %s", s.Text, s.Node, run.Cycle.Outcome.Result, run.Cycle.Outcome.Node)
		}
	}
	for text, node := range want {
		if got[text] != node {
			t.Errorf("missing suggestion %q → %s; got %v", text, node, got)
		}
	}
	// too-small lacks both cpu and memory: lowering one request is not
	// enough, and the search must not list it; lowering both is.
	both := "lower container c's cpu request from 2 to 1 and container c's memory request from 4Gi to 2Gi (what too-small has free)"
	for text := range got {
		if strings.Contains(text, "request") && text != both {
			t.Errorf("listed %q, which cannot work alone", text)
		}
	}
	if got[both] != "too-small" {
		t.Errorf("missing %q → too-small", both)
	}
	if res.Unconfirmed == 0 {
		t.Error("no candidate was refuted; the search did not try the request changes")
	}
	for i := 1; i < len(res.Suggestions); i++ {
		if res.Suggestions[i].Cost < res.Suggestions[i-1].Cost {
			t.Errorf("suggestions are not smallest first: %+v", res.Suggestions)
		}
	}
}

// With a budget too small for every candidate, suggest says the search was cut.
func TestSuggestBudget(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := Suggest(ctx, forkStuck(t), SuggestOptions{Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Cut || res.Tried != 2 || len(res.Suggestions) > 1 {
		t.Errorf("budget 2: cut %v, tried %d, %d suggestions; want cut after 2 re-runs", res.Cut, res.Tried, len(res.Suggestions))
	}
}

// "Why not node X?" keeps only changes that put the pod on X.
func TestSuggestForNode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := Suggest(ctx, forkStuck(t), SuggestOptions{Node: "tainted"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Suggestions) == 0 {
		t.Fatal("no suggestion for node tainted")
	}
	for _, s := range res.Suggestions {
		if s.Node != "tainted" {
			t.Errorf("%q lands on %s, not tainted", s.Text, s.Node)
		}
	}
	if _, err := Suggest(ctx, forkStuck(t), SuggestOptions{Node: "nope"}); err == nil || !strings.Contains(err.Error(), `no node "nope"`) {
		t.Errorf("unknown node: %v", err)
	}
}

// On a preemption, evicting the victims is suggested and confirmed.
func TestSuggestEvictsVictims(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f, err := ForkAt(ctx, loadEmbedded(t, "preemption.yaml"), Options{}, ForkTarget{Pod: "urgent"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Suggest(ctx, f, SuggestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range res.Suggestions {
		if _, evicts := s.Change.(recorder.Evict); evicts && !s.ViaPreemption {
			found = true
		}
	}
	if !found {
		t.Errorf("no confirmed eviction among %+v (note %q)", res.Suggestions, res.Note)
	}
}

// On every embedded fixture, every pod that ends unschedulable gets
// suggestions, and each one puts the pod where it says when applied alone.
func TestSuggestionsAreConfirmedOnEveryFixture(t *testing.T) {
	found := 0
	for _, name := range fixtures.Names() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		forks, err := ForkEvery(ctx, loadEmbedded(t, name), Options{})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		last := map[string]*Fork{}
		for _, f := range forks {
			last[f.Recorded.Pod.Key()] = f
		}
		for pod, f := range last {
			if f.Recorded.Outcome.Result != recorder.ResultUnschedulable {
				continue
			}
			found++
			res, err := Suggest(ctx, f, SuggestOptions{})
			if err != nil {
				t.Fatalf("%s %s: %v", name, pod, err)
			}
			if len(res.Suggestions) == 0 {
				t.Errorf("%s %s: no suggestion (%d candidates, note %q)", name, pod, res.Candidates, res.Note)
			}
			for _, s := range res.Suggestions {
				g, err := f.With(s.Change)
				if err != nil {
					t.Fatalf("%s %s: %q: %v", name, pod, s.Text, err)
				}
				run, err := g.Run(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if node, _ := run.Landing(); node != s.Node {
					t.Errorf("%s %s: %q said %s, applied alone it lands on %q", name, pod, s.Text, s.Node, node)
				}
			}
		}
		cancel()
	}
	if found < 2 {
		t.Errorf("found %d unschedulable pods across the fixtures; default.yaml and unschedulable.yaml hold one each", found)
	}
}

// One more empty node like a node the pod is rejected by is a candidate
// only when the pod fits such a node empty: too-small (1 cpu, 2Gi) cannot
// hold the stuck pod (2 cpu, 4Gi) even with nothing on it.
func TestCopiesOnlyOfNodesThePodFitsEmpty(t *testing.T) {
	f := forkStuck(t)
	copies := func(g *Fork) []string {
		var from []string
		for _, c := range g.candidates(f.Recorded, diagnosis(f.Recorded), "") {
			if cp, ok := c.change.(recorder.CopyNode); ok {
				from = append(from, cp.From)
			}
		}
		return from
	}
	if got := copies(f); slices.Contains(got, "too-small") {
		t.Errorf("copies drawn: %v; an empty too-small cannot hold the pod", got)
	}
	g, err := f.With(recorder.PatchNode{Node: "too-small", Patch: `{"status":{"allocatable":{"cpu":"3","memory":"8Gi"}}}`})
	if err != nil {
		t.Fatal(err)
	}
	if got := copies(g); !slices.Contains(got, "too-small") {
		t.Errorf("copies drawn once too-small has 3 cpu and 8Gi: %v; want one of too-small", got)
	}
}

// A node the node lifecycle tainted is never fixed by tolerating its taint:
// the cordon taint is offered as uncordoning (the taint goes with it), and
// a not-ready node offers nothing.
func TestSuggestNeverToleratesLifecycleTaints(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	node := func(name, extra string) string {
		return "apiVersion: v1\nkind: Node\nmetadata: {name: " + name + "}\nspec: {" + extra + "}\n" +
			"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}, capacity: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n---\n"
	}
	data := node("cordoned", "unschedulable: true, taints: [{key: node.kubernetes.io/unschedulable, effect: NoSchedule}, {key: team, value: ml, effect: PreferNoSchedule}]") +
		node("not-ready", "taints: [{key: node.kubernetes.io/not-ready, effect: NoSchedule}]") +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\nspec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: \"1\"}}}]}\n"
	fx, err := fixture.Load("lifecycle.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	f, err := ForkAt(ctx, fx, Options{}, ForkTarget{Pod: "web"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Suggest(ctx, f, SuggestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range res.Suggestions {
		texts = append(texts, s.Text)
		if strings.Contains(s.Text, "node.kubernetes.io/") {
			t.Errorf("suggested %q", s.Text)
		}
	}
	want := recorder.PatchNode{Node: "cordoned", Why: "uncordon node cordoned",
		Patch: `{"spec":{"unschedulable":false,"taints":[{"key":"team","value":"ml","effect":"PreferNoSchedule"}]}}`}
	if len(res.Suggestions) != 1 || res.Suggestions[0].Text != "uncordon node cordoned (kubectl uncordon cordoned)" ||
		res.Suggestions[0].Node != "cordoned" || res.Suggestions[0].Change != want {
		t.Errorf("suggestions %q (%+v), want uncordoning cordoned alone, by %+v", texts, res.Suggestions, want)
	}
}
