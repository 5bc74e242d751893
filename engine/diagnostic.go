package engine

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

// DiagnosticMode chooses when the diagnostic full-filter pass runs.
type DiagnosticMode string

// Diagnostic modes.
const (
	DiagnosticAlways        DiagnosticMode = "always"
	DiagnosticUnschedulable DiagnosticMode = "unschedulable"
	DiagnosticNever         DiagnosticMode = "never"
)

// ParseDiagnosticMode checks a --diagnostic flag value.
func ParseDiagnosticMode(s string) (DiagnosticMode, error) {
	switch m := DiagnosticMode(s); m {
	case DiagnosticAlways, DiagnosticUnschedulable, DiagnosticNever:
		return m, nil
	}
	return "", fmt.Errorf("--diagnostic must be always, unschedulable or never, not %q", s)
}

// diagnosticPass runs every filter plugin on every node against a copy of the
// cycle state, beyond the first failure. It changes nothing the scheduler uses.
func (e *Engine) diagnosticPass(fw framework.Framework, c *cycleTrace) *recorder.DiagnosticFilter {
	v, err := frameworkStruct(unwrap(fw))
	if err != nil {
		return nil
	}
	plugins, err := pluginSlice[fwk.FilterPlugin](v, "filterPlugins")
	if err != nil {
		return nil
	}
	nodes, _ := fw.SnapshotSharedLister().NodeInfos().List()
	state := c.state.Clone()
	skip := state.GetSkipFilterPlugins()
	d := &recorder.DiagnosticFilter{Plugins: c.filterPlugins}
	pod := c.podForDiagnostic(fw)
	if pod == nil {
		return nil
	}
	ctx := context.Background()
	for ni, node := range nodes {
		// As RunFilterPluginsWithNominatedPods does: filter with the nominated
		// pods counted, and once more without them where that passed.
		nState, nNode, added := withNominated(ctx, fw, pod, state, node)
		for pi, pl := range *plugins {
			if skip.Has(pl.Name()) {
				d.Cells = append(d.Cells, recorder.DiagnosticCell{Node: ni, Plugin: pi, Code: recorder.CodeSkip})
				continue
			}
			inner := pl
			if w, ok := pl.(*filterWrapper); ok {
				inner = w.FilterPlugin
			}
			st := inner.Filter(ctx, nState, pod, nNode)
			if st.IsSuccess() && added {
				st = inner.Filter(ctx, state, pod, node)
			}
			if !st.IsSuccess() {
				d.Cells = append(d.Cells, recorder.DiagnosticCell{Node: ni, Plugin: pi, Code: st.Code().String(), Reasons: st.Reasons()})
			}
		}
	}
	return d
}

func unwrap(fw framework.Framework) framework.Framework {
	if b, ok := fw.(*boundFramework); ok {
		return b.Framework
	}
	return fw
}

func (c *cycleTrace) podForDiagnostic(fw framework.Framework) *v1.Pod {
	pod, err := fw.SharedInformerFactory().Core().V1().Pods().Lister().Pods(c.c.Pod.Namespace).Get(c.c.Pod.Name)
	if err != nil {
		return nil
	}
	return pod
}
