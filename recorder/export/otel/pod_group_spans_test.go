package otel

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/schedscope/schedscope/recorder"
)

// exportRecording exports tui/testdata/gang.rec as export does: its
// header, then its cycles and pod-group cycles.
func exportRecording(t *testing.T) ([]tracetest.SpanStub, Summary, *recorder.Recording) {
	t.Helper()
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "..", "tui", "testdata", "gang.rec"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.PodGroups) != 2 {
		t.Fatalf("gang.rec has %d pod-group cycles, want 2", len(rec.PodGroups))
	}
	spans, sum := exportAll(t, func(e *Exporter) {
		e.Begin(rec.Header)
		for _, c := range rec.Cycles {
			e.Cycle(c)
		}
		for _, g := range rec.PodGroups {
			e.PodGroup(g)
		}
	})
	return spans, sum, rec
}

// A pod-group cycle is a SchedulePodGroup trace of its own: the group, its
// policy and minCount, the outcome, what was reverted; an event a member,
// a PlacementFeasible verdict and the group PostFilter; links to each
// member's SchedulePod.
func TestPodGroupTrace(t *testing.T) {
	spans, sum, rec := exportRecording(t)
	if sum.PodGroups != 2 || sum.Cycles != int64(len(rec.Cycles)) || sum.Spans != int64(len(spans)) {
		t.Fatalf("summary %+v for %d spans", sum, len(spans))
	}
	groups := named(spans, "SchedulePodGroup")
	if len(groups) != 2 {
		t.Fatalf("%d SchedulePodGroup spans, want 2", len(groups))
	}
	var infer tracetest.SpanStub
	for _, s := range groups {
		if attr(s, "schedscope.pod_group.name").AsString() == "infer" {
			infer = s
		}
	}
	g := rec.PodGroups[1]
	if g.Group.Name != "infer" {
		t.Fatalf("gang.rec's second pod-group cycle is %s", g.Group.Key())
	}
	wantAttrs := map[string]string{
		"schedscope.pod_group.namespace": "default",
		"schedscope.pod_group.policy":    "Gang",
		"scheduler.result":               "unschedulable",
		"schedscope.pod_group.condition": "PodGroupInitiallyScheduled=False",
	}
	for k, want := range wantAttrs {
		if got := attr(infer, k).AsString(); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if n := attr(infer, "schedscope.pod_group.min_count").AsInt64(); n != 3 {
		t.Errorf("min_count = %d, want 3", n)
	}
	wantReverted := []string{"infer-0@" + g.Members[0].Node, "infer-1@" + g.Members[1].Node}
	if diff := cmp.Diff(wantReverted, attr(infer, "schedscope.pod_group.reverted").AsStringSlice()); diff != "" {
		t.Errorf("reverted (-want +got):\n%s", diff)
	}
	var events []string
	for _, ev := range infer.Events {
		events = append(events, ev.Name)
	}
	want := []string{"member", "member", "member", "placementFeasible", "placementFeasible", "placementFeasible", "placementFeasible", "postFilter"}
	if diff := cmp.Diff(want, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// Each link leads to the member's own SchedulePod span.
	roots := map[string]string{}
	for _, s := range named(spans, "SchedulePod") {
		roots[s.SpanContext.TraceID().String()+"/"+s.SpanContext.SpanID().String()] = attr(s, "k8s.pod.name").AsString()
	}
	var linked []string
	for _, l := range infer.Links {
		linked = append(linked, roots[l.SpanContext.TraceID().String()+"/"+l.SpanContext.SpanID().String()])
	}
	if diff := cmp.Diff([]string{"infer-0", "infer-1", "infer-2"}, linked); diff != "" {
		t.Errorf("links to the members' SchedulePod spans (-want +got):\n%s", diff)
	}
	// The trace is the group's own.
	for _, s := range named(spans, "SchedulePod") {
		if s.SpanContext.TraceID() == infer.SpanContext.TraceID() {
			t.Errorf("the pod-group cycle shares its trace with %s's cycle", attr(s, "k8s.pod.name").AsString())
		}
	}
	if slices.ContainsFunc(groups, func(s tracetest.SpanStub) bool {
		return attr(s, "schedscope.pod_group.name").AsString() == "train" && attr(s, "scheduler.result").AsString() != "scheduled"
	}) {
		t.Error("the train gang bound, and its trace does not say scheduled")
	}
}

// A CompositePodGroup's cycle (tui/testdata/composite.rec, pair) says so on
// its root span: its kind and minGroupCount, the PodGroups under it and the
// one its parent overruled, and no member's minCount.
func TestCompositePodGroupTrace(t *testing.T) {
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "..", "tui", "testdata", "composite.rec"))
	if err != nil {
		t.Fatal(err)
	}
	spans, _ := exportAll(t, func(e *Exporter) {
		e.Begin(rec.Header)
		for _, g := range rec.PodGroups {
			e.PodGroup(g)
		}
	})
	var pair *tracetest.SpanStub
	for _, s := range named(spans, "SchedulePodGroup") {
		if attr(s, "schedscope.pod_group.name").AsString() == "pair" {
			pair = &s
			break
		}
	}
	if pair == nil {
		t.Fatal("no SchedulePodGroup span of pair")
	}
	if got := attr(*pair, "schedscope.pod_group.kind").AsString(); got != "CompositePodGroup" {
		t.Errorf("kind %q", got)
	}
	if got := attr(*pair, "schedscope.pod_group.min_group_count").AsInt64(); got != 2 {
		t.Errorf("min_group_count %d, want 2", got)
	}
	if diff := cmp.Diff([]string{"pair-0", "pair-1"}, attr(*pair, "schedscope.pod_group.pod_groups").AsStringSlice()); diff != "" {
		t.Errorf("pod_groups (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"pair-0"}, attr(*pair, "schedscope.pod_group.overruled").AsStringSlice()); diff != "" {
		t.Errorf("overruled (-want +got):\n%s", diff)
	}
	if slices.ContainsFunc(pair.Attributes, func(kv attribute.KeyValue) bool { return kv.Key == "schedscope.pod_group.min_count" }) {
		t.Error("a CompositePodGroup's span carries a min_count")
	}
}
