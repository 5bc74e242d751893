package otel

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/schedscope/schedscope/recorder"
)

// MaxRejectionEvents is how many rejected nodes a Filter plugin's span lists
// as events; the rest are counted in its attributes.
const MaxRejectionEvents = 100

// Result values of scheduler.result, as kube-scheduler's
// schedule_attempts_total labels them.
const (
	resultScheduled     = "scheduled"
	resultUnschedulable = "unschedulable"
	resultError         = "error"
)

// bindingPhases are the phases of the binding cycle; every other timed
// phase belongs to the scheduling cycle.
var bindingPhases = map[string]bool{
	recorder.PhaseWaitOnPermit: true, recorder.PhasePreBind: true, recorder.PhaseBind: true, recorder.PhasePostBind: true,
}

// spanName is a phase's span name: the KEP's lowerCamel spelling of the
// extension point (PreFilter → preFilter).
func spanName(phase string) string {
	if phase == "" {
		return phase
	}
	return strings.ToLower(phase[:1]) + phase[1:]
}

// cycleSpans builds one cycle's trace.
type cycleSpans struct {
	e  *Exporter
	c  *recorder.Cycle
	t0 time.Time
	n  int64 // spans started
}

func (e *Exporter) export(c *recorder.Cycle) {
	b := &cycleSpans{e: e, c: c, t0: c.Start}
	b.trace()
	e.cycles.Add(1)
	e.spans.Add(b.n)
	// What happened after the cycle began is the next cycle's story.
	k := c.Pod.Key()
	if uid, ok := e.ended[k]; ok && uid == c.Pod.UID {
		delete(e.ended, k)
		delete(e.stories, k)
		return
	}
	rest := e.stories[k][:0]
	for _, q := range e.stories[k] {
		if q.Time.After(c.Start) {
			rest = append(rest, q)
		}
	}
	if len(rest) == 0 {
		delete(e.stories, k)
	} else {
		e.stories[k] = rest
	}
}

func (b *cycleSpans) start(ctx context.Context, name string, at time.Time, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	b.n++
	return b.e.tracer.Start(ctx, name, trace.WithTimestamp(at), trace.WithAttributes(attrs...))
}

// timedPhase is one phase the cycle timed.
type timedPhase struct {
	name       string
	start, end time.Time
}

func (b *cycleSpans) trace() {
	c := b.c
	ctx := context.WithValue(context.Background(), seedKey{}, seedFor(b.e.header, c))
	var sched, bind []timedPhase
	end := b.t0.Add(c.Duration)
	for i, at := range c.PhaseStarts() {
		t := c.Timings[i]
		p := timedPhase{t.Phase, b.t0.Add(at), b.t0.Add(at + t.Duration)}
		if bindingPhases[t.Phase] {
			bind = append(bind, p)
		} else {
			sched = append(sched, p)
		}
		if p.end.After(end) {
			end = p.end
		}
	}
	ctx, root := b.start(ctx, "SchedulePod", b.t0, b.rootAttributes()...)
	b.queueStory(root)
	if c.Outcome.Result == recorder.ResultError {
		root.SetStatus(codes.Error, c.Outcome.Message)
	}
	if len(bind) == 0 {
		b.cycle(ctx, "schedulingCycle", sched, b.t0, b.t0.Add(c.Duration))
	} else {
		// The cycle's duration runs to its outcome, after binding: the
		// scheduling cycle ends with its last phase, where binding begins.
		b.cycle(ctx, "schedulingCycle", sched, b.t0, b.t0)
		b.cycle(ctx, "bindingCycle", bind, bind[0].start, bind[len(bind)-1].end)
	}
	root.End(trace.WithTimestamp(end))
}

// cycle writes the scheduling or binding cycle's span and its phases. It
// lasts from start (or its first phase, if earlier) to the end of its last
// phase (or end, if that is later).
func (b *cycleSpans) cycle(ctx context.Context, name string, phases []timedPhase, start, end time.Time) {
	for _, p := range phases {
		if p.start.Before(start) {
			start = p.start
		}
		if p.end.After(end) {
			end = p.end
		}
	}
	ctx, s := b.start(ctx, name, start)
	if name == "schedulingCycle" {
		b.fastPath(s)
	}
	for _, p := range phases {
		b.phase(ctx, p)
	}
	s.End(trace.WithTimestamp(end))
}

func (b *cycleSpans) phase(ctx context.Context, p timedPhase) {
	c := b.c
	ctx, s := b.start(ctx, spanName(p.name), p.start, attribute.String("scheduler.phase", p.name))
	switch p.name {
	case recorder.PhasePreFilter:
		if c.PreFilter != nil {
			b.plugins(ctx, s, p, c.PreFilter.Plugins)
			if c.PreFilter.Code != "" && c.PreFilter.Code != recorder.CodeSuccess {
				s.SetAttributes(attribute.String("schedscope.plugin.code", c.PreFilter.Code))
			}
		}
	case recorder.PhaseFilter:
		b.filter(ctx, s, p)
	case recorder.PhasePostFilter:
		b.postFilter(ctx, s, p)
	case recorder.PhasePreScore:
		if c.Score != nil {
			b.plugins(ctx, s, p, c.Score.PreScore)
		}
	case recorder.PhaseScore:
		b.score(ctx, s, p)
	case recorder.PhaseReserve:
		b.plugins(ctx, s, p, c.Reserve)
	case recorder.PhasePermit:
		b.plugins(ctx, s, p, c.Permit)
	case recorder.PhasePreBind:
		b.plugins(ctx, s, p, c.PreBind)
	case recorder.PhaseBind:
		b.plugins(ctx, s, p, c.Bind)
	case recorder.PhasePostBind:
		b.plugins(ctx, s, p, c.PostBind)
	}
	s.End(trace.WithTimestamp(p.end))
}

// plugins writes a per-plugin phase's plugins one after the other, each as
// long as it took. A plugin that returned Skip (nothing to do for this pod)
// is named in the phase's schedscope.skipped_plugins instead: at PreFilter
// most do, and a span each would be most of the trace.
func (b *cycleSpans) plugins(ctx context.Context, phase trace.Span, p timedPhase, statuses []recorder.PluginStatus) {
	at := p.start
	var skipped []string
	for _, ps := range statuses {
		if ps.Code == recorder.CodeSkip {
			skipped = append(skipped, ps.Plugin)
			at = at.Add(ps.Duration)
			continue
		}
		_, s := b.start(ctx, "plugin: "+ps.Plugin, at, b.pluginAttributes(ps.Plugin, p.name)...)
		if ps.Code != "" {
			s.SetAttributes(attribute.String("schedscope.plugin.code", ps.Code))
		}
		reasons := nonEmpty(ps.Reasons)
		if len(reasons) > 0 {
			s.SetAttributes(attribute.StringSlice("schedscope.plugin.reasons", reasons))
		}
		switch ps.Code {
		case recorder.CodeError:
			s.SetStatus(codes.Error, strings.Join(reasons, "; "))
			fallthrough
		case recorder.CodeUnschedulable, recorder.CodeUnschedulableAndUnresolvable:
			s.SetAttributes(attribute.Int("schedscope.plugin.rejections", 1))
			s.AddEvent("rejection", trace.WithTimestamp(at.Add(ps.Duration)), trace.WithAttributes(
				attribute.String("schedscope.plugin.code", ps.Code), attribute.StringSlice("schedscope.plugin.reasons", reasons)))
		}
		at = at.Add(ps.Duration)
		s.End(trace.WithTimestamp(at))
	}
	if len(skipped) > 0 {
		phase.SetAttributes(attribute.StringSlice("schedscope.skipped_plugins", skipped))
	}
}

func (b *cycleSpans) pluginAttributes(plugin, phase string) []attribute.KeyValue {
	return []attribute.KeyValue{attribute.String("scheduler.plugin.name", plugin), attribute.String("scheduler.plugin.extension_point", phase)}
}

// within caps a summed plugin time at its phase's length: calls on
// different nodes run in parallel.
func within(p timedPhase, d time.Duration) time.Time {
	if end := p.start.Add(d); end.Before(p.end) {
		return end
	}
	return p.end
}

func (b *cycleSpans) filter(ctx context.Context, s trace.Span, p timedPhase) {
	f := b.c.Filter
	if f == nil {
		return
	}
	s.SetAttributes(
		attribute.Int("schedscope.nodes.total", b.c.NumNodes()),
		attribute.Int("schedscope.nodes.evaluated", f.Evaluated),
		attribute.Int("schedscope.nodes.feasible", len(f.Feasible)),
		attribute.Int("schedscope.nodes.rejected", len(f.Rejected)),
		attribute.Int("schedscope.search_start", b.c.SearchStart),
		attribute.Int("schedscope.nodes_to_find", b.c.NodesToFind),
	)
	if len(f.Skipped) > 0 {
		s.SetAttributes(attribute.StringSlice("schedscope.skipped_plugins", f.Skipped))
	}
	byPlugin := make([][]recorder.NodeStatus, len(f.Plugins))
	for _, r := range f.Rejected {
		if r.Plugin >= 0 && r.Plugin < len(f.Plugins) {
			byPlugin[r.Plugin] = append(byPlugin[r.Plugin], r)
		}
	}
	for i, name := range f.Plugins {
		var d time.Duration
		if i < len(f.Durations) {
			d = f.Durations[i]
		}
		if i < len(f.Calls) && f.Calls[i] == 0 && len(byPlugin[i]) == 0 {
			continue // skipped at PreFilter (schedscope.skipped_plugins), or never reached
		}
		attrs := append(b.pluginAttributes(name, recorder.PhaseFilter), attribute.Int64("schedscope.plugin.time", int64(d)),
			attribute.Int("schedscope.plugin.rejections", len(byPlugin[i])))
		if i < len(f.Calls) {
			attrs = append(attrs, attribute.Int("schedscope.plugin.calls", f.Calls[i]))
		}
		if len(byPlugin[i]) > 0 {
			attrs = append(attrs, attribute.StringSlice("schedscope.plugin.rejections_by_reason", byReason(byPlugin[i])))
		}
		_, ps := b.start(ctx, "plugin: "+name, p.start, attrs...)
		end := within(p, d)
		for n, r := range byPlugin[i] {
			if n == MaxRejectionEvents {
				ps.SetAttributes(attribute.Int("schedscope.plugin.rejection_events_omitted", len(byPlugin[i])-n))
				break
			}
			ps.AddEvent("rejection", trace.WithTimestamp(end), trace.WithAttributes(
				attribute.String("k8s.node.name", b.c.NodeName(r.Node)),
				attribute.String("schedscope.plugin.code", r.Code),
				attribute.StringSlice("schedscope.plugin.reasons", r.Reasons)))
		}
		ps.End(trace.WithTimestamp(end))
	}
}

// byReason counts rejections by their reasons: "reason ×n", most first.
func byReason(rs []recorder.NodeStatus) []string {
	counts := map[string]int{}
	for _, r := range rs {
		counts[strings.Join(r.Reasons, "; ")]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = fmt.Sprintf("%s ×%d", k, counts[k])
	}
	return out
}

func (b *cycleSpans) postFilter(ctx context.Context, s trace.Span, p timedPhase) {
	pf := b.c.PostFilter
	if pf == nil {
		return
	}
	b.plugins(ctx, s, p, pf.Plugins)
	s.SetAttributes(attribute.Int("schedscope.preemption.candidates", len(pf.Candidates)))
	if pf.NominatedNode != "" {
		s.SetAttributes(attribute.String("schedscope.nominated_node", pf.NominatedNode))
	}
	if len(pf.Victims) > 0 {
		s.SetAttributes(attribute.StringSlice("schedscope.victims", podKeys(pf.Victims)))
	}
	for _, v := range pf.Victims {
		s.AddEvent("victim", trace.WithTimestamp(p.end), trace.WithAttributes(
			attribute.String("k8s.pod.namespace", v.Namespace), attribute.String("k8s.pod.name", v.Name),
			attribute.String("k8s.node.name", v.Node), attribute.Int("schedscope.pod.priority", int(v.Priority))))
	}
}

func (b *cycleSpans) score(ctx context.Context, s trace.Span, p timedPhase) {
	sc := b.c.Score
	if sc == nil {
		return
	}
	s.SetAttributes(attribute.Int("schedscope.nodes.scored", len(sc.Nodes)))
	win := b.c.WinnerRow()
	for i, pl := range sc.Plugins {
		attrs := append(b.pluginAttributes(pl.Name, recorder.PhaseScore),
			attribute.Int64("schedscope.plugin.weight", pl.Weight),
			attribute.Int64("schedscope.plugin.time", int64(pl.Duration)),
			attribute.Int64("schedscope.plugin.normalize_time", int64(pl.NormalizeDuration)))
		if win >= 0 && win < len(pl.Raw) {
			attrs = append(attrs, attribute.Int64("schedscope.score.selected_node", sc.Weighted(i, win)))
		}
		_, ps := b.start(ctx, "plugin: "+pl.Name, p.start, attrs...)
		ps.End(trace.WithTimestamp(within(p, pl.Duration+pl.NormalizeDuration)))
	}
}

func (b *cycleSpans) fastPath(s trace.Span) {
	fp := b.c.FastPath
	if fp == nil {
		return
	}
	attrs := []attribute.KeyValue{attribute.String("schedscope.fast_path", fp.Kind), attribute.String("k8s.node.name", fp.Node),
		attribute.Bool("schedscope.feasible", fp.Feasible)}
	if reasons := nonEmpty(fp.Reasons); len(reasons) > 0 {
		attrs = append(attrs, attribute.StringSlice("schedscope.plugin.reasons", reasons))
	}
	s.AddEvent("fastPath", trace.WithTimestamp(b.t0), trace.WithAttributes(attrs...))
}

func (b *cycleSpans) rootAttributes() []attribute.KeyValue {
	c := b.c
	attrs := []attribute.KeyValue{
		attribute.String("k8s.pod.name", c.Pod.Name),
		attribute.String("k8s.pod.namespace", c.Pod.Namespace),
		attribute.String("scheduler.profile", c.Profile),
		attribute.String("scheduler.result", result(c.Outcome.Result)),
		attribute.Int("schedscope.cycle.seq", c.Seq),
		attribute.Int("schedscope.cycle.attempt", c.Attempt),
		attribute.Int("schedscope.pod.priority", int(c.Pod.Priority)),
		attribute.Int("schedscope.nodes.total", c.NumNodes()),
		attribute.String("schedscope.source", b.e.header.Source.Kind+" "+b.e.header.Source.Name),
	}
	if c.Pod.UID != "" {
		attrs = append(attrs, attribute.String("k8s.pod.uid", c.Pod.UID))
	}
	if c.Pod.Owner != nil {
		attrs = append(attrs, attribute.String("schedscope.pod.owner", c.Pod.Owner.String()))
	}
	if c.Outcome.Node != "" {
		attrs = append(attrs, attribute.String("scheduler.selected_node", c.Outcome.Node))
	}
	if c.Filter != nil {
		attrs = append(attrs, attribute.Int("schedscope.nodes.evaluated", c.Filter.Evaluated), attribute.Int("schedscope.nodes.feasible", len(c.Filter.Feasible)))
	}
	if sel := c.Selection; sel != nil {
		attrs = append(attrs, attribute.String("schedscope.selection.rule", sel.Rule))
		if len(sel.Top) > 1 {
			ties := make([]string, len(sel.Top))
			for i, n := range sel.Top {
				ties[i] = c.NodeName(n)
			}
			attrs = append(attrs, attribute.StringSlice("schedscope.tie_set", ties))
		}
	}
	if c.Outcome.Message != "" {
		attrs = append(attrs, attribute.String("schedscope.message", c.Outcome.Message))
	}
	if c.Outcome.Reason != "" {
		attrs = append(attrs, attribute.String("schedscope.reason", c.Outcome.Reason))
	}
	if c.Outcome.NominatedNode != "" {
		attrs = append(attrs, attribute.String("schedscope.nominated_node", c.Outcome.NominatedNode))
	}
	if c.PostFilter != nil && len(c.PostFilter.Victims) > 0 {
		attrs = append(attrs, attribute.StringSlice("schedscope.victims", podKeys(c.PostFilter.Victims)))
	}
	if b.e.opts.WhatIf != "" {
		attrs = append(attrs, attribute.String("schedscope.whatif", b.e.opts.WhatIf))
	}
	return attrs
}

func result(r string) string {
	switch r {
	case recorder.ResultBound:
		return resultScheduled
	case recorder.ResultUnschedulable:
		return resultUnschedulable
	}
	return resultError
}

// nonEmpty leaves out empty reasons (a status with a code and no message).
func nonEmpty(reasons []string) []string {
	var out []string
	for _, r := range reasons {
		if r != "" {
			out = append(out, r)
		}
	}
	return out
}

func podKeys(ps []recorder.PodRef) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Key()
	}
	return out
}

// queueStory adds the pod's queue events since its previous cycle to the
// root span, and how long it waited in activeQ.
func (b *cycleSpans) queueStory(root trace.Span) {
	var lastActive time.Time
	for _, q := range b.e.stories[b.c.Pod.Key()] {
		if q.Time.After(b.t0) {
			continue // after this cycle began: the next cycle's story
		}
		attrs := []attribute.KeyValue{attribute.Int("schedscope.queue.seq", q.Seq)}
		for _, kv := range []struct{ k, v string }{{"from", q.From}, {"to", q.To}, {"event", q.Event}, {"flush", q.Flush}} {
			if kv.v != "" {
				attrs = append(attrs, attribute.String("schedscope.queue."+kv.k, kv.v))
			}
		}
		if q.Gated {
			attrs = append(attrs, attribute.Bool("schedscope.queue.gated", true))
		}
		if q.Backoff != 0 {
			attrs = append(attrs, attribute.Int64("schedscope.queue.backoff", int64(q.Backoff)))
		}
		if len(q.Hints) > 0 {
			hints := make([]string, len(q.Hints))
			for i, h := range q.Hints {
				hints[i] = h.Plugin + ": " + h.Hint
			}
			attrs = append(attrs, attribute.StringSlice("schedscope.queue.hints", hints))
		}
		root.AddEvent("queue: "+q.Op, trace.WithTimestamp(q.Time), trace.WithAttributes(attrs...))
		if q.To == recorder.QueueActive {
			lastActive = q.Time
		}
	}
	if !lastActive.IsZero() {
		root.SetAttributes(attribute.Int64("schedscope.queue.wait", int64(b.t0.Sub(lastActive))))
	}
}
