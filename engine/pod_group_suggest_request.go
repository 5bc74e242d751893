package engine

import (
	"encoding/json"
	"maps"
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// memberRequestCandidates are, for each member of the group's failed cycle
// that fit nowhere for want of cpu or memory alone, its requests lowered
// to what one node had free when the member was tried (the node that asks
// the least of it, earlier members assumed there as the cycle counted
// them). Only a request one container makes is lowered; the re-run
// confirms it.
func memberRequestCandidates(fx *fixture.Fixture, g *recorder.PodGroupCycle, cycles []*recorder.Cycle) []groupCandidate {
	cycles = slices.Clone(cycles)
	slices.SortFunc(cycles, func(a, b *recorder.Cycle) int { return a.Seq - b.Seq })
	short := recorder.RunShortfalls(cycles)
	bySeq := map[int]*recorder.Cycle{}
	for _, c := range cycles {
		bySeq[c.Seq] = c
	}
	var out []groupCandidate
	for _, m := range g.Members {
		c, s := bySeq[m.Cycle], short[m.Cycle]
		if m.Node != "" || c == nil || s == nil {
			continue
		}
		i := slices.IndexFunc(fx.Pending, func(p *v1.Pod) bool {
			return p.Name == m.Pod.Name && namespaceOf(p.Namespace) == m.Pod.Namespace
		})
		if i < 0 {
			continue
		}
		pod := fx.Pending[i]
		node, cost := -1, 0.0
		for _, n := range slices.Sorted(maps.Keys(s.Nodes)) {
			list := s.Nodes[n]
			if !onlyResourceFit(c, n) {
				continue
			}
			k, ok := 0.0, true
			for _, sf := range list {
				ok = ok && (sf.Resource == string(v1.ResourceCPU) || sf.Resource == string(v1.ResourceMemory)) && sf.Free() > 0 && sf.Asked > 0
				if ok {
					k += float64(sf.Short()) / float64(sf.Asked)
				}
			}
			if ok && (node < 0 || k < cost) {
				node, cost = n, k
			}
		}
		if node < 0 {
			continue
		}
		patched, requests, patch, ok := lowerRequests(pod, s.Nodes[node])
		if !ok {
			continue
		}
		key := m.Pod.Namespace + "/" + m.Pod.Name
		out = append(out, groupCandidate{
			GroupSuggestion: GroupSuggestion{Kind: GroupChangeMemberRequest, Pod: key, Node: c.NodeName(node), Requests: requests, Patch: patch, Cost: 1},
			apply: func(fx *fixture.Fixture) (*fixture.Fixture, error) {
				return rebuild(fx, func(o runtime.Object) runtime.Object {
					if p, ok := o.(*v1.Pod); ok && p.Name == patched.Name && namespaceOf(p.Namespace) == m.Pod.Namespace {
						return patched.DeepCopy()
					}
					return o
				}, nil)
			},
		})
	}
	return out
}

// onlyResourceFit reports whether NodeResourcesFit alone rejected node n in
// c's Filter.
func onlyResourceFit(c *recorder.Cycle, n int) bool {
	fit := slices.Index(c.Filter.Plugins, recorder.PluginNodeResourcesFit)
	found := false
	for _, r := range c.Filter.Rejected {
		if r.Node != n {
			continue
		}
		if r.Plugin != fit {
			return false
		}
		found = true
	}
	return found
}

// lowerRequests lowers pod's requests by each shortfall, in the one
// container requesting the resource (no init container may request it,
// and the pod has no overhead); it returns the pod changed, its new
// requests and the patch, or false when the requests cannot be so lowered.
func lowerRequests(pod *v1.Pod, list []recorder.Shortfall) (*v1.Pod, map[string]string, string, bool) {
	if len(pod.Spec.Overhead) > 0 {
		return nil, nil, "", false
	}
	p := pod.DeepCopy()
	requests := map[string]string{}
	byContainer := map[string]map[string]string{}
	for _, sf := range list {
		name := v1.ResourceName(sf.Resource)
		var in []int
		for i, ctr := range p.Spec.Containers {
			if _, ok := ctr.Resources.Requests[name]; ok {
				in = append(in, i)
			}
		}
		initAsks := slices.ContainsFunc(p.Spec.InitContainers, func(c v1.Container) bool {
			_, ok := c.Resources.Requests[name]
			return ok
		})
		if len(in) != 1 || initAsks {
			return nil, nil, "", false
		}
		ctr := &p.Spec.Containers[in[0]]
		q := ctr.Resources.Requests[name]
		var lowered *resource.Quantity
		if name == v1.ResourceCPU {
			lowered = resource.NewMilliQuantity(q.MilliValue()-sf.Short(), resource.DecimalSI)
		} else {
			lowered = resource.NewQuantity(q.Value()-sf.Short(), resource.BinarySI)
		}
		if lowered.Sign() <= 0 {
			return nil, nil, "", false
		}
		ctr.Resources.Requests[name] = *lowered
		requests[sf.Resource] = lowered.String()
		if byContainer[ctr.Name] == nil {
			byContainer[ctr.Name] = map[string]string{}
		}
		byContainer[ctr.Name][sf.Resource] = lowered.String()
	}
	var ctrs []map[string]any
	for _, name := range slices.Sorted(maps.Keys(byContainer)) {
		ctrs = append(ctrs, map[string]any{"name": name, "resources": map[string]any{"requests": byContainer[name]}})
	}
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"containers": ctrs}})
	if err != nil || len(requests) == 0 {
		return nil, nil, "", false
	}
	return p, requests, string(patch), true
}
