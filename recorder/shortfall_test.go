package recorder

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shortCycle is a cycle on nodes a, b and c (4 cpu, 8Gi, 110 pods each)
// whose pod asks cpu and memory; rejected lists the nodes' rejections.
func shortCycle(requests map[string]int64, rejected ...NodeStatus) *Cycle {
	alloc := map[string]int64{"cpu": 4000, "memory": 8 << 30, "pods": 110}
	return &Cycle{
		Nodes:    &NodeSet{Names: []string{"a", "b", "c"}, Info: []NodeInfo{{Allocatable: alloc}, {Allocatable: alloc}, {Allocatable: alloc}}},
		Requests: requests,
		Filter:   &FilterPhase{Plugins: []string{"TaintToleration", PluginNodeResourcesFit}, Rejected: rejected},
	}
}

func usageOf(use map[int]map[string]int64) *Usage {
	u := NewUsage()
	c := &Cycle{Nodes: &NodeSet{Names: []string{"a", "b", "c"}}}
	for n, req := range use {
		c.NodeUse = append(c.NodeUse, NodeUse{Node: n, Generation: 1, Requested: req})
	}
	u.Apply(c)
	return u
}

func TestShortfallsOf(t *testing.T) {
	cpu := []string{"Insufficient cpu"}
	tests := []struct {
		name string
		c    *Cycle
		use  map[int]map[string]int64
		want *Shortfalls
	}{{
		name: "a pod larger than any node: short on each, short in all",
		c: shortCycle(map[string]int64{"cpu": 12000, "memory": 20 << 30},
			NodeStatus{Node: 0, Plugin: 1, Reasons: []string{"Insufficient cpu", "Insufficient memory"}},
			NodeStatus{Node: 1, Plugin: 1, Reasons: cpu},
			NodeStatus{Node: 2, Plugin: 0, Reasons: []string{"node(s) had untolerated taint(s)"}}),
		use: map[int]map[string]int64{0: {"cpu": 500, "memory": 512 << 20}},
		want: &Shortfalls{
			Nodes: map[int][]Shortfall{
				0: {{"cpu", 12000, 4000, 500}, {"memory", 20 << 30, 8 << 30, 512 << 20}},
				1: {{"cpu", 12000, 4000, 0}},
			},
			// node c, rejected by its taint, is not summed.
			Resources: []ResourceFree{{"cpu", 12000, 2, 7500, 4000, "b", 4000}, {"memory", 20 << 30, 2, 8<<30 - 512<<20 + 8<<30, 8 << 30, "b", 8 << 30}},
		},
	}, {
		name: "fragmented: enough in all, not on one node",
		c: shortCycle(map[string]int64{"cpu": 3000},
			NodeStatus{Node: 0, Plugin: 1, Reasons: cpu}, NodeStatus{Node: 1, Plugin: 1, Reasons: cpu}, NodeStatus{Node: 2, Plugin: 1, Reasons: cpu}),
		use: map[int]map[string]int64{0: {"cpu": 2000}, 1: {"cpu": 2500}, 2: {"cpu": 4500}},
		want: &Shortfalls{
			Nodes: map[int][]Shortfall{0: {{"cpu", 3000, 4000, 2000}}, 1: {{"cpu", 3000, 4000, 2500}}, 2: {{"cpu", 3000, 4000, 4500}}},
			// an overcommitted node counts as none free.
			Resources: []ResourceFree{{"cpu", 3000, 3, 3500, 2000, "a", 4000}},
		},
	}, {
		name: "too many pods, and an extended resource the node lacks",
		c: shortCycle(map[string]int64{"cpu": 100, "example.com/gpu": 1},
			NodeStatus{Node: 1, Plugin: 1, Reasons: []string{"Too many pods", "Insufficient example.com/gpu"}}),
		use: map[int]map[string]int64{1: {"pods": 110}},
		want: &Shortfalls{
			Nodes:     map[int][]Shortfall{1: {{"pods", 1, 110, 110}, {"example.com/gpu", 1, 0, 0}}},
			Resources: []ResourceFree{{"pods", 1, 1, 0, 0, "b", 110}, {"example.com/gpu", 1, 1, 0, 0, "b", 0}},
		},
	}, {
		name: "a recording without the pod's requests has no numbers",
		c:    shortCycle(nil, NodeStatus{Node: 0, Plugin: 1, Reasons: cpu}),
	}, {
		name: "no rejection by NodeResourcesFit",
		c:    shortCycle(map[string]int64{"cpu": 100}, NodeStatus{Node: 0, Plugin: 0, Reasons: []string{"node(s) had untolerated taint(s)"}}),
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ShortfallsOf(tc.c, usageOf(tc.use))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ShortfallsOf (-want +got):\n%s", diff)
			}
		})
	}
	if got := ShortfallsOf(shortCycle(map[string]int64{"cpu": 1}, NodeStatus{Node: 0, Plugin: 1, Reasons: cpu}), nil); got != nil {
		t.Errorf("ShortfallsOf without the node use = %+v, want nil", got)
	}
}

func TestResourceFreeFragmented(t *testing.T) {
	for _, tc := range []struct {
		r    ResourceFree
		want bool
	}{
		{ResourceFree{Asked: 3, Free: 4, MostFree: 2, MostAllocatable: 4}, true},
		{ResourceFree{Asked: 3, Free: 2, MostFree: 2, MostAllocatable: 4}, false},
		{ResourceFree{Asked: 3, Free: 4, MostFree: 3, MostAllocatable: 4}, false},
		// larger than any node: not fragmentation, whatever is free in all.
		{ResourceFree{Asked: 5, Free: 6, MostFree: 2, MostAllocatable: 4}, false},
	} {
		if got := tc.r.Fragmented(); got != tc.want {
			t.Errorf("%+v.Fragmented() = %v, want %v", tc.r, got, tc.want)
		}
	}
}
