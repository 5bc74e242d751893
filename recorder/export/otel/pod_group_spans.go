package otel

import (
	"context"
	"crypto/sha256"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/schedscope/schedscope/recorder"
)

// PodGroup exports a pod-group cycle as a trace of its own. It reports
// false when the queue was full and g was dropped.
func (e *Exporter) PodGroup(g *recorder.PodGroupCycle) bool { return e.put(item{group: g}) }

// exportGroup writes a pod-group cycle's trace: one SchedulePodGroup span
// over the cycle, linked to each member's SchedulePod trace, with an
// event a member (in the order the cycle took them), a PlacementFeasible
// verdict, the group's PostFilter and its condition. The group record
// does not time its steps, so they are events at the cycle's start rather
// than spans of made-up length.
func (e *Exporter) exportGroup(g *recorder.PodGroupCycle) {
	ctx := context.WithValue(context.Background(), seedKey{}, seedForGroup(e.header, g))
	start, end := g.Start, g.Start.Add(time.Duration(g.Duration))
	var links []trace.Link
	for _, m := range g.Members {
		if m.Cycle == 0 {
			continue
		}
		links = append(links, trace.Link{
			SpanContext: memberRoot(e.header, m),
			Attributes:  []attribute.KeyValue{attribute.String("k8s.pod.name", m.Pod.Name), attribute.Int("schedscope.cycle.seq", m.Cycle)},
		})
	}
	attrs := append(groupAttributes(e.header, g), placementAttributes(g)...)
	_, s := e.tracer.Start(ctx, "SchedulePodGroup", trace.WithTimestamp(start), trace.WithAttributes(attrs...), trace.WithLinks(links...))
	addPlacementEvents(s, g, start)
	for _, m := range g.Members {
		attrs := []attribute.KeyValue{attribute.String("k8s.pod.name", m.Pod.Name), attribute.String("k8s.pod.namespace", m.Pod.Namespace)}
		if m.Cycle != 0 {
			attrs = append(attrs, attribute.Int("schedscope.cycle.seq", m.Cycle))
		}
		if m.Code != "" {
			attrs = append(attrs, attribute.String("schedscope.plugin.code", m.Code))
		}
		if m.Node != "" {
			attrs = append(attrs, attribute.String("schedscope.pod_group.tentative_node", m.Node))
		}
		if m.Message != "" {
			attrs = append(attrs, attribute.String("schedscope.message", m.Message))
		}
		if len(m.Assumed) > 0 {
			attrs = append(attrs, attribute.StringSlice("schedscope.pod_group.assumed", placements(m.Assumed)))
		}
		s.AddEvent("member", trace.WithTimestamp(start), trace.WithAttributes(attrs...))
	}
	for _, v := range g.Feasible {
		attrs := []attribute.KeyValue{
			attribute.Int("schedscope.pod_group.scheduled", v.Scheduled),
			attribute.Int("schedscope.pod_group.remaining", v.Remaining),
			attribute.String("schedscope.plugin.code", v.Code),
		}
		if v.Message != "" {
			attrs = append(attrs, attribute.String("schedscope.message", v.Message))
		}
		s.AddEvent(spanName("PlacementFeasible"), trace.WithTimestamp(start), trace.WithAttributes(attrs...))
	}
	if pf := g.PostFilter; pf != nil {
		attrs := []attribute.KeyValue{attribute.String("schedscope.plugin.code", pf.Code)}
		if pf.Message != "" {
			attrs = append(attrs, attribute.String("schedscope.message", pf.Message))
		}
		s.AddEvent(spanName(recorder.PhasePostFilter), trace.WithTimestamp(end), trace.WithAttributes(attrs...))
	}
	if g.Outcome.Result == recorder.ResultError {
		s.SetStatus(codes.Error, g.Outcome.Message)
	}
	s.End(trace.WithTimestamp(end))
	e.groups.Add(1)
	e.spans.Add(1)
}

// groupAttributes are a pod-group cycle's root span's attributes.
func groupAttributes(h recorder.Header, g *recorder.PodGroupCycle) []attribute.KeyValue {
	attrs := []attribute.KeyValue{
		attribute.String("schedscope.pod_group.name", g.Group.Name),
		attribute.String("schedscope.pod_group.namespace", g.Group.Namespace),
		attribute.Int("schedscope.pod_group.seq", g.Seq),
		attribute.Int("schedscope.pod_group.members", len(g.Members)),
		attribute.Int("schedscope.pod_group.placed", g.Placed()),
		attribute.String("scheduler.result", result(g.Outcome.Result)),
		attribute.String("schedscope.source", h.Source.Kind+" "+h.Source.Name),
	}
	if g.Profile != "" {
		attrs = append(attrs, attribute.String("scheduler.profile", g.Profile))
	}
	if g.Policy != "" {
		attrs = append(attrs, attribute.String("schedscope.pod_group.policy", g.Policy))
	}
	if g.Policy == recorder.PolicyGang && !g.Composite() {
		attrs = append(attrs, attribute.Int("schedscope.pod_group.min_count", int(g.MinCount)))
	}
	attrs = append(attrs, compositeAttributes(g)...)
	if r := g.Reverted(); len(r) > 0 {
		attrs = append(attrs, attribute.StringSlice("schedscope.pod_group.reverted", placements(r)))
	}
	if g.Outcome.Message != "" {
		attrs = append(attrs, attribute.String("schedscope.message", g.Outcome.Message))
	}
	if g.Outcome.WaitingOnPreemption {
		attrs = append(attrs, attribute.Bool("schedscope.pod_group.waiting_on_preemption", true))
	}
	if c := g.Condition; c != nil {
		attrs = append(attrs, attribute.String("schedscope.pod_group.condition", c.Type+"="+c.Status))
		if c.Reason != "" {
			attrs = append(attrs, attribute.String("schedscope.reason", c.Reason))
		}
	}
	return attrs
}

// placements spells placements as "pod@node".
func placements(ps []recorder.Placement) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Pod + "@" + p.Node
	}
	return out
}

// seedForGroup is the seed of pod-group cycle g of the recording h begins,
// apart from every pod cycle's.
func seedForGroup(h recorder.Header, g *recorder.PodGroupCycle) *traceSeed {
	hash := sha256.New()
	for _, s := range []string{h.Created.UTC().Format("2006-01-02T15:04:05.999999999Z"), h.Source.Kind, h.Source.Name, "podGroup", strconv.Itoa(g.Seq), g.Group.Key()} {
		hash.Write([]byte(s))
		hash.Write([]byte{0})
	}
	s := &traceSeed{}
	hash.Sum(s.sum[:0])
	return s
}

// memberRoot is the span context of the SchedulePod span of member m's own
// cycle: the first span its seed gives.
func memberRoot(h recorder.Header, m recorder.GroupMember) trace.SpanContext {
	ctx := context.WithValue(context.Background(), seedKey{}, seedFor(h, &recorder.Cycle{Seq: m.Cycle, Pod: m.Pod}))
	tid, sid := idGenerator{}.NewIDs(ctx)
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled})
}

// compositeAttributes are the root span's attributes of a CompositePodGroup's
// cycle: its kind, a gang's minGroupCount, and the PodGroups under it, the
// ones overruled by their parent apart; none for a PodGroup's cycle.
func compositeAttributes(g *recorder.PodGroupCycle) []attribute.KeyValue {
	if !g.Composite() {
		return nil
	}
	root := g.Hierarchy[0]
	attrs := []attribute.KeyValue{attribute.String("schedscope.pod_group.kind", recorder.KindCompositePodGroup)}
	if root.Policy == recorder.PolicyGang {
		attrs = append(attrs, attribute.Int("schedscope.pod_group.min_group_count", int(root.MinCount)))
	}
	var groups, overruled []string
	for _, h := range g.Hierarchy {
		if h.Kind != recorder.KindPodGroupKind {
			continue
		}
		groups = append(groups, h.Name)
		if g.OverruledByParent(h) {
			overruled = append(overruled, h.Name)
		}
	}
	attrs = append(attrs, attribute.StringSlice("schedscope.pod_group.pod_groups", groups))
	if len(overruled) > 0 {
		attrs = append(attrs, attribute.StringSlice("schedscope.pod_group.overruled", overruled))
	}
	return attrs
}
