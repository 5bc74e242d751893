package scenario

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// A Result is what a run did, as schedscope records it.
type Result struct {
	// Header describes the scheduler: its version, profiles, plugins and
	// weights, feature gates.
	Header recorder.Header
	// Cycles are the scheduling cycles in the order they ran, each with
	// its phases, filter verdicts (Filter: nodes × plugins), scores and
	// outcome.
	Cycles []*recorder.Cycle
	// Queue is what the scheduling queue did with each pod, in order.
	Queue []*recorder.QueueEvent
	// PodGroups are the pod-group cycles (gang scheduling, under the
	// GenericWorkload gate), in the order they ended.
	PodGroups []*recorder.PodGroupCycle
	// Pods is each pod's state at the end (Bound, Unschedulable, Backoff,
	// Gated, …) with its node, in order of first cycle, then the pods that
	// never had one.
	Pods []recorder.PodState
	// Cluster is what the controllers left: each workload's pods and
	// nodes, each budget's allowed disruptions, each claim's volume.
	Cluster *recorder.ClusterState
	// Warnings are what a real cluster would do differently, the kinds
	// nothing in the run read, and what the run lost (explain prints them).
	Warnings []string
	// Problems are the errors upstream code logged during the run.
	Problems []string

	scenario *Scenario
	fx       *fixture.Fixture
	opts     engine.Options
	burst    bool
}

// Pod is a pod's state at the end of the run: pod is a name,
// namespace/name, or a workload's replica by handle (deploy/web#2).
func (r *Result) Pod(pod string) (recorder.PodState, error) {
	key, err := r.resolve(pod)
	if err != nil {
		return recorder.PodState{}, err
	}
	for _, p := range r.Pods {
		if p.Pod.Key() == key || p.Pod.Name == key {
			return p, nil
		}
	}
	names := make([]string, 0, len(r.Pods))
	for _, p := range r.Pods {
		names = append(names, p.Pod.Key())
	}
	return recorder.PodState{}, fmt.Errorf("%s: no pod %q; its pods are %s", r.fx.Name, pod, strings.Join(names, ", "))
}

// resolve names the pod a handle stands for; a name is kept as it is.
func (r *Result) resolve(pod string) (string, error) {
	h, ok, err := recorder.ParsePodHandle(pod)
	if err != nil || !ok {
		return pod, err
	}
	if h.Replica == 0 {
		h.Replica = 1
	}
	return h.Resolve(r.Cycles)
}

// Node is the node the pod ended on ("" when it has none, or there is no
// such pod).
func (r *Result) Node(pod string) string {
	p, err := r.Pod(pod)
	if err != nil || !recorder.Placed(p.State) {
		return ""
	}
	return p.Node
}

// CyclesOf are the pod's cycles, in order.
func (r *Result) CyclesOf(pod string) []*recorder.Cycle {
	p, err := r.Pod(pod)
	if err != nil {
		return nil
	}
	var out []*recorder.Cycle
	for _, c := range r.Cycles {
		if c.Pod.Key() == p.Pod.Key() {
			out = append(out, c)
		}
	}
	return out
}

// Story tells the pod's story as explain --pod does, one line a step: its
// cycles and queue events in time order (what woke it, with the plugin's
// hint), each with its outcome.
func (r *Result) Story(pod string) ([]string, error) {
	p, err := r.Pod(pod)
	if err != nil {
		return nil, err
	}
	return narrate.PodStory(p, r.Cycles), nil
}

// Workload is a workload's pods and their nodes at the end of the run, by
// its handle (deploy/web, sts/prod/db, job/report, ds/agent); ok is false
// when the run has no such workload.
func (r *Result) Workload(handle string) (w recorder.WorkloadState, ok bool) {
	kind, ns, name, valid := recorder.ParseWorkload(handle)
	if !valid || r.Cluster == nil {
		return recorder.WorkloadState{}, false
	}
	for _, w := range r.Cluster.Workloads {
		if w.Kind == kind && w.Namespace == ns && w.Name == name {
			return w, true
		}
	}
	return recorder.WorkloadState{}, false
}

// Fits reports whether the workload exists and every pod it asks for was
// made and placed.
func (r *Result) Fits(handle string) bool {
	w, ok := r.Workload(handle)
	return ok && w.Desired > 0 && len(w.Pods) >= int(w.Desired) && w.Pending() == 0
}

// Spread counts the workload's placed pods by their node's value of label
// (topology.kubernetes.io/zone: how many in each zone); nil when there is
// no such workload. A node without the label counts under "".
func (r *Result) Spread(handle, label string) map[string]int {
	w, ok := r.Workload(handle)
	if !ok {
		return nil
	}
	out := map[string]int{}
	for _, p := range w.Pods {
		if p.Node != "" {
			out[r.NodeLabels(p.Node)[label]]++
		}
	}
	return out
}

// NodeLabels are a node's labels as the scheduler last read them (nil for
// a node the run never had).
func (r *Result) NodeLabels(node string) map[string]string {
	for i := len(r.Cycles) - 1; i >= 0; i-- {
		set := r.Cycles[i].Nodes
		if set == nil || len(set.Info) != len(set.Names) {
			continue
		}
		for j, n := range set.Names {
			if n == node {
				return set.Info[j].Labels
			}
		}
	}
	// Not recorded: the fixture's node, as its last step left it.
	var labels map[string]string
	find := func(o any) {
		if n, ok := o.(*v1.Node); ok && n.Name == node {
			labels = n.Labels
		}
	}
	for _, o := range r.fx.Objects {
		find(o)
	}
	for _, s := range r.fx.Steps {
		find(s.Object)
	}
	return labels
}
