package live

import (
	"fmt"

	"k8s.io/kubernetes/pkg/scheduler/apis/config"
)

// extenders returns the scheduler configuration live mode runs with, and
// what it changed about the configured extenders, worded for the user.
//
// An extender is an HTTP service outside the process: calling it sends a real
// pending pod (and, without nodeCacheCapable, its candidate nodes) to that URL,
// and its bind and preempt verbs act on the cluster. Live mode is read-only by
// construction, so by default no extender is called at all; with call set, the
// filter and prioritize verbs are kept and the bind and preempt verbs are
// always removed, so the embedded scheduler binds into its own in-memory API
// server and evaluates preemption itself. cfg is not modified.
func extenders(cfg *config.KubeSchedulerConfiguration, call bool) (*config.KubeSchedulerConfiguration, []string) {
	if cfg == nil || len(cfg.Extenders) == 0 {
		return cfg, nil
	}
	out := cfg.DeepCopy()
	exts := out.Extenders
	out.Extenders = nil
	var notes []string
	for _, ext := range exts {
		if !call {
			notes = append(notes, fmt.Sprintf("extender %s is not called (pass --call-extenders to send pending pods to its filter and prioritize verbs); predictions ignore it", ext.URLPrefix))
			continue
		}
		if ext.BindVerb != "" {
			notes = append(notes, fmt.Sprintf("extender %s: bind verb %q is never called in live mode; the embedded scheduler binds only in memory", ext.URLPrefix, ext.BindVerb))
			ext.BindVerb = ""
		}
		if ext.PreemptVerb != "" {
			notes = append(notes, fmt.Sprintf("extender %s: preempt verb %q is never called in live mode", ext.URLPrefix, ext.PreemptVerb))
			ext.PreemptVerb = ""
		}
		if ext.FilterVerb == "" && ext.PrioritizeVerb == "" {
			notes = append(notes, fmt.Sprintf("extender %s has no filter or prioritize verb; it is not called", ext.URLPrefix))
			continue
		}
		out.Extenders = append(out.Extenders, ext)
	}
	return out, notes
}
