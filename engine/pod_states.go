package engine

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedscope/schedscope/recorder"
)

// NeverAttempted lists the fixture's pending pods that the scheduler would
// never give a cycle, and why, as recorder.PodStates: held by scheduling
// gates (with the PodScheduled condition the API server wrote), or naming a
// schedulerName no profile of h serves. had tells whether a pod (namespace/
// name) got a cycle; pods that did are left out.
func (fx *Fixture) NeverAttempted(h recorder.Header, had func(key string) bool) []recorder.PodState {
	var out []recorder.PodState
	for _, p := range fx.Pending {
		key := p.Namespace + "/" + p.Name
		if had(key) {
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
