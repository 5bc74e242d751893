package engine

import (
	"sort"
	"time"

	"k8s.io/kubernetes/pkg/scheduler/apis/config"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/recorder"
)

// buildHeader lists each profile's plugins per extension point, as instantiated.
func (e *Engine) buildHeader() recorder.Header {
	h := recorder.Header{
		SchedscopeVersion: Version,
		KubernetesVersion: KubernetesVersion,
		Created:           time.Now().UTC(),
		Source:            recorder.Source{Kind: "fixture", Name: e.fixture.Name, Config: e.opts.ConfigPath},
		Clock:             recorder.ClockWall,
	}
	if g := featuregates.NonDefault(); len(g) > 0 {
		h.FeatureGates = g
	}
	if e.clock != nil {
		h.Clock = recorder.ClockSimulated
	}
	names := make([]string, 0, len(e.sched.Profiles))
	for n := range e.sched.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fw := e.sched.Profiles[n]
		p := recorder.Profile{SchedulerName: n, PercentageOfNodesToScore: e.globalPct}
		if pct := fw.PercentageOfNodesToScore(); pct != nil {
			p.PercentageOfNodesToScore = *pct
		}
		pl := fw.ListPlugins()
		for _, ep := range []struct {
			name string
			set  *config.PluginSet
		}{
			{"PreEnqueue", &pl.PreEnqueue}, {"QueueSort", &pl.QueueSort},
			{recorder.PhasePreFilter, &pl.PreFilter}, {recorder.PhaseFilter, &pl.Filter},
			{recorder.PhasePostFilter, &pl.PostFilter}, {recorder.PhasePreScore, &pl.PreScore},
			{recorder.PhaseScore, &pl.Score}, {recorder.PhaseReserve, &pl.Reserve},
			{recorder.PhasePermit, &pl.Permit}, {recorder.PhasePreBind, &pl.PreBind},
			{recorder.PhaseBind, &pl.Bind}, {recorder.PhasePostBind, &pl.PostBind},
		} {
			x := recorder.ExtensionPoint{Name: ep.name}
			for _, p := range ep.set.Enabled {
				x.Plugins = append(x.Plugins, recorder.PluginRef{Name: p.Name, Weight: p.Weight})
			}
			if len(x.Plugins) > 0 {
				p.ExtensionPoints = append(p.ExtensionPoints, x)
			}
		}
		h.Profiles = append(h.Profiles, p)
	}
	return h
}
