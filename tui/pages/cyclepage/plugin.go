package cyclepage

import (
	"github.com/schedscope/schedscope/recorder"
)

// selectedPlugin names the plugin the explain panel talks about.
func (v *Model) selectedPlugin() string {
	if v.c == nil {
		return ""
	}
	switch v.phase {
	case Filter, Score, Normalize, Weighted:
		return v.nodes.Plugin()
	case PostFilter:
		// The plugins the cycle ran, as recorded (custom profiles replace
		// DefaultPreemption): the one with the last word. For a cycle that
		// did not get there, the profile's last: preemption runs after the
		// plugins that only tidy up (DynamicResources).
		if pf := v.c.PostFilter; pf != nil && len(pf.Plugins) > 0 {
			return actingPlugin(pf.Plugins)
		}
		return v.profilePlugin(recorder.PhasePostFilter, true)
	case Bind:
		if len(v.c.Bind) > 0 {
			return actingPlugin(v.c.Bind)
		}
		return v.profilePlugin(recorder.PhaseBind, false)
	}
	return ""
}

// profilePlugin is the first (or last) plugin the cycle's profile enables at
// an extension point, from the recording's header.
func (v *Model) profilePlugin(point string, last bool) string {
	if v.header == nil {
		return ""
	}
	for _, p := range v.header.Profiles {
		if p.SchedulerName != v.c.Profile {
			continue
		}
		for _, ep := range p.ExtensionPoints {
			if ep.Name == point && len(ep.Plugins) > 0 {
				if last {
					return ep.Plugins[len(ep.Plugins)-1].Name
				}
				return ep.Plugins[0].Name
			}
		}
	}
	return ""
}

// actingPlugin is the plugin that had the last word at an extension point
// where plugins run until one decides (PostFilter until one succeeds, Bind
// until one does not skip): the last one recorded.
func actingPlugin(ps []recorder.PluginStatus) string {
	return ps[len(ps)-1].Plugin
}
