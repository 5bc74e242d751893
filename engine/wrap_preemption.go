package engine

import (
	"context"

	v1 "k8s.io/api/core/v1"
	policy "k8s.io/api/policy/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"

	"github.com/schedscope/schedscope/recorder"
)

// DefaultPreemption runs a dry run over the nodes where removing pods might help:
// for each, its evaluator calls SelectVictimsOnNode, and every node where that
// succeeds with victims becomes a candidate. The evaluator reaches those methods
// through its exported Interface field, so a forwarding wrapper there sees each
// node's result without changing what the plugin computes.

// preemptionRecorder forwards to the plugin's preemption.Interface and records
// each node the dry run examined.
type preemptionRecorder struct {
	preemption.Interface
	r *traceState
}

var _ preemption.Interface = (*preemptionRecorder)(nil)

func (p *preemptionRecorder) SelectVictimsOnNode(ctx context.Context, state fwk.CycleState, preemptor *v1.Pod, nodeInfo fwk.NodeInfo, all []*preemption.DomainVictim, pdbs []*policy.PodDisruptionBudget) ([]*v1.Pod, int, *fwk.Status) {
	pods, violations, st := p.Interface.SelectVictimsOnNode(ctx, state, preemptor, nodeInfo, all, pdbs)
	if c := p.r.cycleFor(preemptor); c != nil {
		cand := recorder.Candidate{Node: nodeInfo.Node().Name, PDBViolations: violations, Code: st.Code().String()}
		if st.IsSuccess() && len(pods) > 0 {
			for _, v := range pods {
				cand.Victims = append(cand.Victims, podRef(v))
			}
		} else {
			cand.Reasons = st.Reasons()
		}
		c.addCandidate(cand)
	}
	return pods, violations, st
}

// installPreemptionRecorders wraps the preemption interface of every
// DefaultPreemption plugin in plugins (the framework's original PostFilter plugins).
func (r *traceState) installPreemptionRecorders(plugins []fwk.PostFilterPlugin) {
	for _, pl := range plugins {
		dp, ok := pl.(*defaultpreemption.DefaultPreemption)
		if !ok || dp.Evaluator == nil || dp.Evaluator.Interface == nil {
			continue
		}
		dp.Evaluator.Interface = &preemptionRecorder{Interface: dp.Evaluator.Interface, r: r}
	}
}
