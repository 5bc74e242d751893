package otel

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/schedscope/schedscope/recorder"
)

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

var header = recorder.Header{SchedscopeVersion: "test", KubernetesVersion: "v1.37.1", Created: t0.Add(-time.Minute),
	Source: recorder.Source{Kind: "fixture", Name: "test.yaml"}}

// unschedulable is a cycle in which two nodes were rejected by two plugins
// and preemption nominated node-b, evicting one victim.
func unschedulable() *recorder.Cycle {
	nodes := &recorder.NodeSet{Names: []string{"node-a", "node-b", "node-c"}}
	return &recorder.Cycle{
		Seq: 7, Pod: recorder.PodRef{Namespace: "default", Name: "big", UID: "uid-big", Priority: 100}, Profile: "default-scheduler", Attempt: 2,
		Start: t0, Duration: 9 * time.Millisecond, Nodes: nodes,
		PreFilter: &recorder.PreFilterPhase{Code: recorder.CodeSuccess, Plugins: []recorder.PluginStatus{
			{Plugin: "NodeResourcesFit", Code: recorder.CodeSuccess, Duration: 100 * time.Microsecond},
			{Plugin: "NodeAffinity", Code: recorder.CodeSkip, Duration: 50 * time.Microsecond},
			{Plugin: "PodTopologySpread", Code: recorder.CodeSuccess, Duration: 70 * time.Microsecond}}},
		Filter: &recorder.FilterPhase{Plugins: []string{"NodeResourcesFit", "TaintToleration"}, Evaluated: 3,
			Rejected: []recorder.NodeStatus{
				{Node: 0, Plugin: 0, Code: recorder.CodeUnschedulable, Reasons: []string{"Insufficient cpu"}},
				{Node: 1, Plugin: 0, Code: recorder.CodeUnschedulable, Reasons: []string{"Insufficient cpu"}},
				{Node: 2, Plugin: 1, Code: recorder.CodeUnschedulableAndUnresolvable, Reasons: []string{"untolerated taint"}}},
			Durations: []time.Duration{3 * time.Millisecond, 20 * time.Millisecond}, Calls: []int{3, 1}},
		PostFilter: &recorder.PostFilterPhase{Code: recorder.CodeSuccess, NominatedNode: "node-b",
			Plugins:    []recorder.PluginStatus{{Plugin: "DefaultPreemption", Code: recorder.CodeSuccess, Duration: time.Millisecond}},
			Candidates: []recorder.Candidate{{Node: "node-b", Victims: []recorder.PodRef{{Namespace: "default", Name: "small", Node: "node-b"}}}},
			Victims:    []recorder.PodRef{{Namespace: "default", Name: "small", Node: "node-b", Priority: 1}}},
		Outcome: recorder.Outcome{Result: recorder.ResultUnschedulable, Reason: "Unschedulable", NominatedNode: "node-b",
			Message: "0/3 nodes are available: 2 Insufficient cpu, 1 node(s) had untolerated taint."},
		Timings: []recorder.PhaseTiming{
			{Phase: recorder.PhasePreFilter, Duration: time.Millisecond, At: 10 * time.Microsecond},
			{Phase: recorder.PhaseFilter, Duration: 4 * time.Millisecond, At: 2 * time.Millisecond},
			{Phase: recorder.PhasePostFilter, Duration: 2 * time.Millisecond, At: 7 * time.Millisecond}},
	}
}

// bound is a cycle that scored two nodes and bound the pod.
func bound() *recorder.Cycle {
	nodes := &recorder.NodeSet{Names: []string{"node-a", "node-b"}}
	return &recorder.Cycle{
		Seq: 8, Pod: recorder.PodRef{Namespace: "default", Name: "web"}, Profile: "default-scheduler", Attempt: 1,
		Start: t0.Add(time.Second), Duration: 5 * time.Millisecond, Nodes: nodes,
		Filter: &recorder.FilterPhase{Plugins: []string{"NodeResourcesFit"}, Feasible: []int{0, 1}, Evaluated: 2},
		Score: &recorder.ScorePhase{Nodes: []int{0, 1}, Totals: []int64{150, 90},
			Plugins: []recorder.ScorePlugin{{Name: "NodeResourcesFit", Weight: 1, Raw: []int64{50, 30}}, {Name: "ImageLocality", Weight: 2, Raw: []int64{50, 30}}}},
		Selection: &recorder.Selection{Node: "node-a", Top: []int{0}, Best: 150, Rule: recorder.RuleHighestScore},
		Bind:      []recorder.PluginStatus{{Plugin: "DefaultBinder", Code: recorder.CodeSuccess, Duration: 2 * time.Millisecond}},
		Outcome:   recorder.Outcome{Result: recorder.ResultBound, Node: "node-a"},
		Timings: []recorder.PhaseTiming{
			{Phase: recorder.PhaseFilter, Duration: time.Millisecond},
			{Phase: recorder.PhaseScore, Duration: time.Millisecond},
			{Phase: recorder.PhaseBind, Duration: 2 * time.Millisecond}},
	}
}

// exportAll runs an exporter over an in-memory span exporter.
func exportAll(t *testing.T, feed func(e *Exporter)) ([]tracetest.SpanStub, Summary) {
	t.Helper()
	mem := tracetest.NewInMemoryExporter()
	e, err := New(context.Background(), Options{Target: Target{URL: "memory"}, spans: keeping{mem}})
	if err != nil {
		t.Fatal(err)
	}
	feed(e)
	sum := e.Close(context.Background())
	return mem.GetSpans(), sum
}

func named(spans []tracetest.SpanStub, name string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

func one(t *testing.T, spans []tracetest.SpanStub, name string) tracetest.SpanStub {
	t.Helper()
	got := named(spans, name)
	if len(got) != 1 {
		t.Fatalf("%d spans named %q, want 1", len(got), name)
	}
	return got[0]
}

func attr(s tracetest.SpanStub, key string) attribute.Value {
	for _, kv := range s.Attributes {
		if string(kv.Key) == key {
			return kv.Value
		}
	}
	return attribute.Value{}
}

// The tree of an unschedulable, preempting cycle: names, parents, times and
// the KEP's attributes.
func TestUnschedulableCycleTree(t *testing.T) {
	spans, sum := exportAll(t, func(e *Exporter) {
		e.Begin(header)
		e.Cycle(unschedulable())
	})
	if sum.Cycles != 1 || sum.Spans != int64(len(spans)) || sum.Sent != sum.Spans || sum.Err != nil {
		t.Fatalf("summary %+v for %d spans", sum, len(spans))
	}
	root := one(t, spans, "SchedulePod")
	sched := one(t, spans, "schedulingCycle")
	if len(named(spans, "bindingCycle")) != 0 {
		t.Error("an unschedulable cycle has a binding cycle")
	}
	parent := map[string]string{"schedulingCycle": "SchedulePod", "preFilter": "schedulingCycle", "filter": "schedulingCycle", "postFilter": "schedulingCycle"}
	byID := map[string]string{}
	for _, s := range spans {
		byID[s.SpanContext.SpanID().String()] = s.Name
		if s.SpanContext.TraceID() != root.SpanContext.TraceID() {
			t.Errorf("%s is in another trace", s.Name)
		}
	}
	for _, s := range spans {
		want, ok := parent[s.Name]
		if strings.HasPrefix(s.Name, "plugin: ") {
			continue
		}
		if got := byID[s.Parent.SpanID().String()]; ok && got != want {
			t.Errorf("%s's parent is %q, want %q", s.Name, got, want)
		}
	}
	if !root.StartTime.Equal(t0) || !root.EndTime.Equal(t0.Add(9*time.Millisecond)) {
		t.Errorf("SchedulePod runs %v – %v, want the cycle's %v – %v", root.StartTime, root.EndTime, t0, t0.Add(9*time.Millisecond))
	}
	filter := one(t, spans, "filter")
	if !filter.StartTime.Equal(t0.Add(2*time.Millisecond)) || !filter.EndTime.Equal(t0.Add(6*time.Millisecond)) {
		t.Errorf("filter runs %v – %v, want its recorded start and length", filter.StartTime.Sub(t0), filter.EndTime.Sub(t0))
	}
	for key, want := range map[string]string{"k8s.pod.name": "big", "k8s.pod.namespace": "default", "k8s.pod.uid": "uid-big",
		"scheduler.profile": "default-scheduler", "scheduler.result": "unschedulable", "schedscope.nominated_node": "node-b",
		"schedscope.message": "0/3 nodes are available: 2 Insufficient cpu, 1 node(s) had untolerated taint."} {
		if got := attr(root, key).Emit(); got != want {
			t.Errorf("SchedulePod %s = %q, want %q", key, got, want)
		}
	}
	if got := attr(root, "schedscope.victims").AsStringSlice(); !slices.Equal(got, []string{"default/small"}) {
		t.Errorf("victims %q", got)
	}
	if attr(sched, "scheduler.phase").Type() != attribute.INVALID {
		t.Error("schedulingCycle carries a phase")
	}
	if got := attr(filter, "scheduler.phase").AsString(); got != "Filter" {
		t.Errorf("filter's scheduler.phase = %q", got)
	}

	// Filter: one span per plugin, summarising its rejections, each an event.
	var fitFilter, taint tracetest.SpanStub
	for _, s := range spans {
		if attr(s, "scheduler.plugin.extension_point").AsString() != "Filter" {
			continue
		}
		switch attr(s, "scheduler.plugin.name").AsString() {
		case "NodeResourcesFit":
			fitFilter = s
		case "TaintToleration":
			taint = s
		}
	}
	if got := attr(fitFilter, "schedscope.plugin.rejections").AsInt64(); got != 2 || len(fitFilter.Events) != 2 {
		t.Errorf("NodeResourcesFit at Filter: %d rejections, %d events, want 2 and 2", got, len(fitFilter.Events))
	}
	if got := attr(fitFilter, "schedscope.plugin.rejections_by_reason").AsStringSlice(); !slices.Equal(got, []string{"Insufficient cpu ×2"}) {
		t.Errorf("rejections by reason %q", got)
	}
	if !fitFilter.EndTime.Equal(fitFilter.StartTime.Add(3 * time.Millisecond)) {
		t.Errorf("NodeResourcesFit's filter span lasts %v, want its summed 3ms", fitFilter.EndTime.Sub(fitFilter.StartTime))
	}
	if !taint.EndTime.Equal(filter.EndTime) {
		t.Errorf("TaintToleration's 20ms of calls end at %v, past the filter phase's end %v", taint.EndTime.Sub(t0), filter.EndTime.Sub(t0))
	}
	if ev := taint.Events; len(ev) != 1 || ev[0].Name != "rejection" || attrOf(ev[0].Attributes, "k8s.node.name") != "node-c" {
		t.Errorf("TaintToleration's events %+v, want one rejection of node-c", ev)
	}

	// A per-plugin phase: its plugins one after another.
	var pre []tracetest.SpanStub
	for _, s := range spans {
		if attr(s, "scheduler.plugin.extension_point").AsString() == "PreFilter" {
			pre = append(pre, s)
		}
	}
	if len(pre) != 2 || !pre[1].StartTime.Equal(pre[0].EndTime.Add(50*time.Microsecond)) || !pre[0].StartTime.Equal(t0.Add(10*time.Microsecond)) {
		t.Errorf("PreFilter plugins %v, want the two that did not skip, in order from the phase's start, the skipping one's time between them", pre)
	}
	if got := attr(one(t, spans, "preFilter"), "schedscope.skipped_plugins").AsStringSlice(); !slices.Equal(got, []string{"NodeAffinity"}) {
		t.Errorf("preFilter's skipped plugins %q, want NodeAffinity", got)
	}
	post := one(t, spans, "postFilter")
	if len(post.Events) != 1 || post.Events[0].Name != "victim" {
		t.Errorf("postFilter events %+v, want the victim", post.Events)
	}
}

func attrOf(kvs []attribute.KeyValue, key string) string {
	for _, kv := range kvs {
		if string(kv.Key) == key {
			return kv.Value.Emit()
		}
	}
	return ""
}

// A bound cycle has a binding cycle, a selected node and scores; phases of
// a recording without phase starts follow each other.
func TestBoundCycleTree(t *testing.T) {
	spans, _ := exportAll(t, func(e *Exporter) {
		e.Begin(header)
		e.Cycle(bound())
	})
	root := one(t, spans, "SchedulePod")
	if got := attr(root, "scheduler.selected_node").AsString(); got != "node-a" {
		t.Errorf("selected node %q", got)
	}
	if got := attr(root, "scheduler.result").AsString(); got != "scheduled" {
		t.Errorf("result %q", got)
	}
	bind := one(t, spans, "bindingCycle")
	c := bound()
	if !bind.StartTime.Equal(c.Start.Add(2*time.Millisecond)) || !bind.EndTime.Equal(c.Start.Add(4*time.Millisecond)) {
		t.Errorf("bindingCycle runs %v – %v after the start, want 2ms – 4ms", bind.StartTime.Sub(c.Start), bind.EndTime.Sub(c.Start))
	}
	if sched := one(t, spans, "schedulingCycle"); !sched.EndTime.Equal(c.Start.Add(2 * time.Millisecond)) {
		t.Errorf("schedulingCycle ends %v after the start, want 2ms, where its last phase ends and binding begins", sched.EndTime.Sub(c.Start))
	}
	one(t, spans, "plugin: DefaultBinder")
	for _, s := range spans {
		if attr(s, "scheduler.plugin.name").AsString() == "ImageLocality" {
			if got := attr(s, "schedscope.score.selected_node").AsInt64(); got != 100 {
				t.Errorf("ImageLocality gave the chosen node %d weighted, want 100", got)
			}
			return
		}
	}
	t.Error("no ImageLocality score span")
}

// The same recording exports as the same trace and span IDs; another
// recording, as others.
func TestIDsFollowTheRecording(t *testing.T) {
	ids := func(h recorder.Header) []string {
		spans, _ := exportAll(t, func(e *Exporter) {
			e.Begin(h)
			e.Cycle(unschedulable())
		})
		var out []string
		for _, s := range spans {
			out = append(out, s.SpanContext.TraceID().String()+"/"+s.SpanContext.SpanID().String())
		}
		return out
	}
	a, b := ids(header), ids(header)
	if !slices.Equal(a, b) {
		t.Errorf("one recording exported twice gave other IDs:\n%v\n%v", a, b)
	}
	other := header
	other.Created = other.Created.Add(time.Second)
	if c := ids(other); c[0] == a[0] {
		t.Errorf("another recording's cycle has the same IDs %s", c[0])
	}
}

// A pod's queue events before its cycle are events on SchedulePod; those
// after the cycle began wait for the next.
func TestQueueStory(t *testing.T) {
	c := unschedulable()
	next := unschedulable()
	next.Seq, next.Start = 9, t0.Add(time.Second)
	again := unschedulable()
	again.Seq, again.Start, again.Pod.UID = 10, t0.Add(3*time.Second), "uid-big-2"
	spans, _ := exportAll(t, func(e *Exporter) {
		e.Begin(header)
		e.Queue(&recorder.QueueEvent{Seq: 1, Time: t0.Add(-time.Second), Pod: c.Pod, Op: recorder.QueueAdd, To: recorder.QueueActive})
		e.Queue(&recorder.QueueEvent{Seq: 2, Time: t0.Add(time.Millisecond), Pod: c.Pod, Op: recorder.QueueMove, To: recorder.QueueUnschedulable, Event: "ScheduleAttemptFailure"})
		e.Cycle(c)
		e.Queue(&recorder.QueueEvent{Seq: 3, Time: t0.Add(500 * time.Millisecond), Pod: c.Pod, Op: recorder.QueueMove, From: recorder.QueueUnschedulable, To: recorder.QueueActive,
			Event: "AssignedPodDelete", Hints: []recorder.QueueHint{{Plugin: "NodeResourcesFit", Hint: "Queue"}}})
		// The informer tells the binding before the binding cycle ends.
		e.Queue(&recorder.QueueEvent{Seq: 4, Time: next.Start.Add(time.Millisecond), Pod: c.Pod, Op: recorder.QueueDelete, Event: "AssignedPodAdd"})
		e.Cycle(next)
		// A new pod of the same name: its story is its own.
		e.Queue(&recorder.QueueEvent{Seq: 5, Time: next.Start.Add(time.Second), Pod: again.Pod, Op: recorder.QueueAdd, To: recorder.QueueActive})
		e.Cycle(again)
	})
	roots := named(spans, "SchedulePod")
	if len(roots) != 3 {
		t.Fatalf("%d traces", len(roots))
	}
	bySeq := map[int64]tracetest.SpanStub{}
	for _, r := range roots {
		bySeq[attr(r, "schedscope.cycle.seq").AsInt64()] = r
	}
	first, second, third := bySeq[7], bySeq[9], bySeq[10]
	var names []string
	for _, ev := range first.Events {
		names = append(names, ev.Name)
	}
	if !slices.Equal(names, []string{"queue: Add"}) || attr(first, "schedscope.queue.wait").AsInt64() != int64(time.Second) {
		t.Errorf("first cycle's story %q, wait %v; want the Add a second before", names, attr(first, "schedscope.queue.wait").Emit())
	}
	names = nil
	for _, ev := range second.Events {
		names = append(names, ev.Name)
		if ev.Name == "queue: Move" && attrOf(ev.Attributes, "schedscope.queue.event") == "AssignedPodDelete" {
			if got := attrOf(ev.Attributes, "schedscope.queue.hints"); got != `["NodeResourcesFit: Queue"]` {
				t.Errorf("hints %s", got)
			}
		}
	}
	if !slices.Equal(names, []string{"queue: Move", "queue: Move"}) {
		t.Errorf("second cycle's story %q, want the two moves since the first began", names)
	}
	names = nil
	for _, ev := range third.Events {
		names = append(names, ev.Name)
	}
	if !slices.Equal(names, []string{"queue: Add"}) {
		t.Errorf("the new pod's story %q, want its own Add only", names)
	}
}

// A full queue drops and counts; nothing before the header is exported.
func TestDropsAreCounted(t *testing.T) {
	mem := tracetest.NewInMemoryExporter()
	block := make(chan struct{})
	e, err := New(context.Background(), Options{Target: Target{URL: "memory"}, Queue: 2, batch: 1, spans: blockingExporter{mem, block}})
	if err != nil {
		t.Fatal(err)
	}
	e.Cycle(bound()) // before any header
	e.Begin(header)
	dropped := 0
	for range 50 {
		if !e.Cycle(bound()) {
			dropped++
		}
	}
	close(block)
	sum := e.Close(context.Background())
	if dropped == 0 || sum.Dropped < int64(dropped) {
		t.Errorf("%d cycles refused, summary says %d dropped", dropped, sum.Dropped)
	}
	if sum.Cycles+sum.Dropped != 51 {
		t.Errorf("%d exported + %d dropped of 51 handed over", sum.Cycles, sum.Dropped)
	}
	if !strings.Contains(sum.String(), "dropped") {
		t.Errorf("summary %q does not say records were dropped", sum)
	}
}

// keeping keeps its spans when shut down (an InMemoryExporter forgets them).
type keeping struct{ *tracetest.InMemoryExporter }

func (keeping) Shutdown(context.Context) error { return nil }

// blockingExporter waits for its channel to close before exporting, as a
// slow backend would.
type blockingExporter struct {
	*tracetest.InMemoryExporter
	block chan struct{}
}

func (b blockingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	<-b.block
	return b.InMemoryExporter.ExportSpans(ctx, spans)
}

// The resource names the cluster: the kubeconfig context, unless
// OTEL_RESOURCE_ATTRIBUTES says otherwise.
func TestResourceNamesTheCluster(t *testing.T) {
	live := header
	live.Source = recorder.Source{Kind: "cluster", Name: "kind-dev"}
	clusterOf := func() string {
		spans, _ := exportAll(t, func(e *Exporter) {
			e.Begin(live)
			e.Cycle(bound())
		})
		v, _ := one(t, spans, "SchedulePod").Resource.Set().Value("k8s.cluster.name")
		return v.Emit()
	}
	if got := clusterOf(); got != "kind-dev" {
		t.Errorf("k8s.cluster.name %q, want the context kind-dev", got)
	}
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "k8s.cluster.name=prod-eu")
	if got := clusterOf(); got != "prod-eu" {
		t.Errorf("k8s.cluster.name %q, want OTEL_RESOURCE_ATTRIBUTES's prod-eu", got)
	}
}
