package engine

import (
	"context"
	"fmt"
	"reflect"
	"time"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// The framework built by scheduler.New keeps each extension point's plugins in a
// slice, in configured order. Wrappers replace the elements of those slices in
// place, so the framework keeps every plugin's configured name (which its score
// weights, skip sets and unschedulable-plugin sets are keyed by), its order, its
// weight and its args; queueing hints, signing and PreFilterExtensions stay with
// the original plugin objects the framework collected at construction.
//
// Registering wrappers in an out-of-tree registry would need a second name per
// plugin, and the framework requires Plugin.Name() to equal the configured name,
// so messages such as "node(s) didn't satisfy plugin(s) [NodeAffinity]" would
// carry the wrapper's name instead of upstream's.

// wrapSlice replaces each plugin of the slice field with wrap(position, plugin).
// A plugin's position is also its index in the framework's ListPlugins.
func wrapSlice[T any](v reflect.Value, field string, wrap func(int, T) T) error {
	p, err := pluginSlice[T](v, field)
	if err != nil {
		return err
	}
	for i := range *p {
		(*p)[i] = wrap(i, (*p)[i])
	}
	return nil
}

// installPluginWrappers wraps every plugin of every extension point of fw.
func (r *traceState) installPluginWrappers(fw framework.Framework) error {
	v, err := frameworkStruct(fw)
	if err != nil {
		return err
	}
	postFilter, err := pluginSlice[fwk.PostFilterPlugin](v, "postFilterPlugins")
	if err != nil {
		return err
	}
	r.installPreemptionRecorders(*postFilter)
	return firstErr(
		wrapSlice(v, "preFilterPlugins", func(_ int, p fwk.PreFilterPlugin) fwk.PreFilterPlugin { return &preFilterWrapper{p, r} }),
		wrapSlice(v, "filterPlugins", func(i int, p fwk.FilterPlugin) fwk.FilterPlugin { return &filterWrapper{p, r, i} }),
		wrapSlice(v, "postFilterPlugins", func(_ int, p fwk.PostFilterPlugin) fwk.PostFilterPlugin { return &postFilterWrapper{p, r} }),
		wrapSlice(v, "preScorePlugins", func(_ int, p fwk.PreScorePlugin) fwk.PreScorePlugin { return &preScoreWrapper{p, r} }),
		wrapSlice(v, "scorePlugins", func(i int, p fwk.ScorePlugin) fwk.ScorePlugin { return &scoreWrapper{p, r, i} }),
		wrapSlice(v, "reservePlugins", func(_ int, p fwk.ReservePlugin) fwk.ReservePlugin { return &reserveWrapper{p, r} }),
		wrapSlice(v, "permitPlugins", func(_ int, p fwk.PermitPlugin) fwk.PermitPlugin { return &permitWrapper{p, r} }),
		wrapSlice(v, "preBindPlugins", func(_ int, p fwk.PreBindPlugin) fwk.PreBindPlugin { return &preBindWrapper{p, r} }),
		wrapSlice(v, "bindPlugins", func(_ int, p fwk.BindPlugin) fwk.BindPlugin { return &bindWrapper{p, r} }),
		wrapSlice(v, "postBindPlugins", func(_ int, p fwk.PostBindPlugin) fwk.PostBindPlugin { return &postBindWrapper{p, r} }),
	)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

var (
	_ fwk.PreFilterPlugin  = (*preFilterWrapper)(nil)
	_ fwk.FilterPlugin     = (*filterWrapper)(nil)
	_ fwk.PostFilterPlugin = (*postFilterWrapper)(nil)
	_ fwk.PreScorePlugin   = (*preScoreWrapper)(nil)
	_ fwk.ScorePlugin      = (*scoreWrapper)(nil)
	_ fwk.ScoreExtensions  = (*scoreExtensionsWrapper)(nil)
	_ fwk.ReservePlugin    = (*reserveWrapper)(nil)
	_ fwk.PermitPlugin     = (*permitWrapper)(nil)
	_ fwk.PreBindPlugin    = (*preBindWrapper)(nil)
	_ fwk.BindPlugin       = (*bindWrapper)(nil)
	_ fwk.PostBindPlugin   = (*postBindWrapper)(nil)
)

type preFilterWrapper struct {
	fwk.PreFilterPlugin
	r *traceState
}

func (w *preFilterWrapper) PreFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	start := time.Now()
	res, st := w.PreFilterPlugin.PreFilter(ctx, state, pod, nodes)
	if c := w.r.cycleFor(pod); c != nil {
		ps := pluginStatus(w.Name(), st, time.Since(start))
		if res != nil && !res.AllNodes() {
			ps.Reasons = append(ps.Reasons, fmt.Sprintf("restricts filtering to %d node(s)", len(res.NodeNames)))
		}
		c.addPreFilter(ps)
	}
	return res, st
}

// PreFilterExtensions returns the plugin's own extensions: AddPod/RemovePod are
// called for nominated pods and preemption simulations, which are not recorded.
func (w *preFilterWrapper) PreFilterExtensions() fwk.PreFilterExtensions {
	return w.PreFilterPlugin.PreFilterExtensions()
}

type filterWrapper struct {
	fwk.FilterPlugin
	r   *traceState
	pos int // index among the profile's Filter plugins
}

func (w *filterWrapper) Filter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeInfo fwk.NodeInfo) *fwk.Status {
	c := w.r.current.Load()
	if c == nil || c.uid != pod.UID || !c.inFilter() {
		return w.FilterPlugin.Filter(ctx, state, pod, nodeInfo)
	}
	t := c.filterTimer(w.pos)
	start := t.begin(sampled(c.timeAll || c.fastPathPending.Load(), nodeInfo))
	st := w.FilterPlugin.Filter(ctx, state, pod, nodeInfo)
	t.end(start)
	return st
}

type postFilterWrapper struct {
	fwk.PostFilterPlugin
	r *traceState
}

func (w *postFilterWrapper) PostFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, m fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	start := time.Now()
	res, st := w.PostFilterPlugin.PostFilter(ctx, state, pod, m)
	if c := w.r.cycleFor(pod); c != nil {
		ps := pluginStatus(w.Name(), st, time.Since(start))
		if res != nil && res.NominatingInfo != nil && res.NominatedNodeName != "" {
			ps.Reasons = append(ps.Reasons, "nominated node "+res.NominatedNodeName)
		}
		c.addPostFilter(ps)
	}
	return res, st
}

type preScoreWrapper struct {
	fwk.PreScorePlugin
	r *traceState
}

func (w *preScoreWrapper) PreScore(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) *fwk.Status {
	start := time.Now()
	st := w.PreScorePlugin.PreScore(ctx, state, pod, nodes)
	if c := w.r.cycleFor(pod); c != nil && c.phaseIs(phaseScore) {
		c.addPreScore(pluginStatus(w.Name(), st, time.Since(start)))
	}
	return st
}

type scoreWrapper struct {
	fwk.ScorePlugin
	r   *traceState
	pos int // index among the profile's Score plugins
}

func (w *scoreWrapper) Score(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeInfo fwk.NodeInfo) (int64, *fwk.Status) {
	c := w.r.current.Load()
	if c == nil || c.uid != pod.UID || !c.phaseIs(phaseScore) {
		return w.ScorePlugin.Score(ctx, state, pod, nodeInfo)
	}
	t := c.scoreTimer(w.pos)
	start := t.begin(sampled(c.timeAll, nodeInfo))
	s, st := w.ScorePlugin.Score(ctx, state, pod, nodeInfo)
	t.end(start)
	return s, st
}

func (w *scoreWrapper) ScoreExtensions() fwk.ScoreExtensions {
	ext := w.ScorePlugin.ScoreExtensions()
	if ext == nil {
		return nil
	}
	return &scoreExtensionsWrapper{ext: ext, name: w.Name(), r: w.r}
}

type scoreExtensionsWrapper struct {
	ext  fwk.ScoreExtensions
	name string
	r    *traceState
}

func (w *scoreExtensionsWrapper) NormalizeScore(ctx context.Context, state fwk.CycleState, pod *v1.Pod, scores fwk.NodeScoreList) *fwk.Status {
	start := time.Now()
	st := w.ext.NormalizeScore(ctx, state, pod, scores)
	if c := w.r.cycleFor(pod); c != nil && c.phaseIs(phaseScore) {
		c.addNormalized(w.name, scores, time.Since(start))
	}
	return st
}

type reserveWrapper struct {
	fwk.ReservePlugin
	r *traceState
}

func (w *reserveWrapper) Reserve(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	start := time.Now()
	st := w.ReservePlugin.Reserve(ctx, state, pod, nodeName)
	w.r.addPluginStatus(pod, phaseReserve, pluginStatus(w.Name(), st, time.Since(start)))
	return st
}

func (w *reserveWrapper) Unreserve(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) {
	start := time.Now()
	w.ReservePlugin.Unreserve(ctx, state, pod, nodeName)
	w.r.addPluginStatus(pod, phaseUnreserve, pluginStatus(w.Name(), nil, time.Since(start)))
}

type permitWrapper struct {
	fwk.PermitPlugin
	r *traceState
}

func (w *permitWrapper) Permit(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) (*fwk.Status, time.Duration) {
	start := time.Now()
	st, timeout := w.PermitPlugin.Permit(ctx, state, pod, nodeName)
	ps := pluginStatus(w.Name(), st, time.Since(start))
	if st.IsWait() {
		ps.Timeout = timeout
	}
	w.r.addPluginStatus(pod, phasePermit, ps)
	return st, timeout
}

type preBindWrapper struct {
	fwk.PreBindPlugin
	r *traceState
}

func (w *preBindWrapper) PreBind(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	start := time.Now()
	st := w.PreBindPlugin.PreBind(ctx, state, pod, nodeName)
	w.r.addPluginStatus(pod, phasePreBind, pluginStatus(w.Name(), st, time.Since(start)))
	return st
}

type bindWrapper struct {
	fwk.BindPlugin
	r *traceState
}

func (w *bindWrapper) Bind(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	start := time.Now()
	st := w.BindPlugin.Bind(ctx, state, pod, nodeName)
	w.r.addPluginStatus(pod, phaseBind, pluginStatus(w.Name(), st, time.Since(start)))
	return st
}

type postBindWrapper struct {
	fwk.PostBindPlugin
	r *traceState
}

func (w *postBindWrapper) PostBind(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) {
	start := time.Now()
	w.PostBindPlugin.PostBind(ctx, state, pod, nodeName)
	w.r.addPluginStatus(pod, phasePostBind, pluginStatus(w.Name(), nil, time.Since(start)))
}
