package engine

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedscope/schedscope/recorder"
)

// NeverAttempted lists, as recorder.PodStates, the fixture's pods whose state
// no cycle tells: pods that arrived bound to a node (PreBound), pending pods
// the scheduler would never give a cycle, and why — held by scheduling gates
// (with the PodScheduled condition the API server wrote), or naming a
// schedulerName no profile of h serves — and pods the timeline deletes
// (Deleted, which recorder.PodStates lets override their cycles). had tells
// whether a pod (namespace/name) got a cycle; pending pods that did are left
// out.
func (fx *Fixture) NeverAttempted(h recorder.Header, had func(key string) bool) []recorder.PodState {
	var out []recorder.PodState
	deleted := map[string]bool{}
	for _, step := range fx.Steps {
		if p, ok := step.Object.(*v1.Pod); ok && step.Op == StepDelete {
			deleted[p.Namespace+"/"+p.Name] = true
		}
	}
	for _, o := range fx.Objects {
		if p, ok := o.(*v1.Pod); ok && p.Spec.NodeName != "" && !deleted[p.Namespace+"/"+p.Name] {
			st := recorder.PodState{Pod: podRef(p), State: recorder.PodPreBound, Node: p.Spec.NodeName, Seqs: []int{}}
			st.Pod.Node = ""
			st.Message = "arrived bound to " + p.Spec.NodeName + " (spec.nodeName); the scheduler only counts it on its node"
			out = append(out, st)
		}
	}
	for _, step := range fx.Steps {
		p, ok := step.Object.(*v1.Pod)
		if !ok || step.Op != StepDelete {
			continue
		}
		st := recorder.PodState{Pod: podRef(p), State: recorder.PodDeleted, Seqs: []int{}}
		st.Pod.Node = ""
		st.Message = "deleted by the fixture's timeline (" + step.Source + ")"
		out = append(out, st)
	}
	for _, p := range fx.Pending {
		key := p.Namespace + "/" + p.Name
		if had(key) || deleted[key] {
			continue
		}
		st := recorder.PodState{Pod: podRef(p), Seqs: []int{}}
		st.Pod.Node = ""
		switch {
		case len(p.Spec.SchedulingGates) > 0:
			var gates []string
			for _, g := range p.Spec.SchedulingGates {
				gates = append(gates, g.Name)
			}
			st.State = recorder.PodGated
			st.Reason, st.Message = v1.PodReasonSchedulingGated, "Scheduling is blocked due to non-empty scheduling gates"
			for _, c := range p.Status.Conditions {
				if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse {
					st.Reason, st.Message = c.Reason, c.Message
				}
			}
			word := "gate"
			if len(gates) > 1 {
				word = "gates"
			}
			st.Hint = fmt.Sprintf("held by scheduling %s %s (the SchedulingGates PreEnqueue plugin); remove the %s to let the scheduler try it", word, strings.Join(gates, ", "), word)
		case h.Profile(p.Spec.SchedulerName) == nil:
			var names []string
			for _, pr := range h.Profiles {
				names = append(names, pr.SchedulerName)
			}
			st.State = recorder.PodNoProfile
			st.Message = fmt.Sprintf("no profile serves schedulerName %q", p.Spec.SchedulerName)
			st.Hint = fmt.Sprintf("another scheduler must place it; this one has the profile(s) %s", strings.Join(names, ", "))
		default:
			st.State = recorder.PodNotAttempted
			st.Hint = "the scheduler took no cycle for it before the run settled"
		}
		out = append(out, st)
	}
	return out
}
