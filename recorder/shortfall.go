package recorder

import (
	"slices"
	"strings"
)

// PluginNodeResourcesFit is the filter whose rejections name a resource the
// node has too little of ("Insufficient cpu", "Too many pods").
const PluginNodeResourcesFit = "NodeResourcesFit"

// ResourcePods is the resource "Too many pods" is about: a pod takes one of
// the node's allocatable pods.
const ResourcePods = "pods"

// A Shortfall is one resource a node had too little of for a cycle's pod, as
// NodeResourcesFit's Filter weighs it: the pod's request against the
// node's allocatable less what is requested there already. Amounts are in
// the units of NodeInfo.Allocatable.
type Shortfall struct {
	Resource string `json:"resource"`
	// Asked is the pod's request (1 for pods: the pod itself).
	Asked       int64 `json:"asked"`
	Allocatable int64 `json:"allocatable"`
	// Requested is what the pods placed on the node request (for pods,
	// how many are placed there).
	Requested int64 `json:"requested"`
}

// Free is what the node had left of the resource: allocatable less
// requested (below zero when the node is overcommitted).
func (s Shortfall) Free() int64 { return s.Allocatable - s.Requested }

// Short is by how much the pod's request exceeds what was free.
func (s Shortfall) Short() int64 { return s.Asked - s.Free() }

// InsufficientResource names the resource of one of NodeResourcesFit's
// Filter reasons ("Insufficient cpu", "Insufficient example.com/gpu",
// "Too many pods"); ok is false for any other reason.
func InsufficientResource(reason string) (resource string, ok bool) {
	if reason == "Too many pods" {
		return ResourcePods, true
	}
	r, ok := strings.CutPrefix(reason, "Insufficient ")
	return r, ok && r != ""
}

// ResourceFree sums up one resource the pod was short of: what it asks, and
// what the nodes NodeResourcesFit rejected had free, in all and at most on
// one node. When the sum covers the request and no node does, the free
// capacity is fragmented.
type ResourceFree struct {
	Resource string `json:"resource"`
	Asked    int64  `json:"asked"`
	// Nodes counts the nodes summed: those NodeResourcesFit rejected.
	Nodes int `json:"nodes"`
	// Free is what those nodes had free in all (a node overcommitted
	// counts as none).
	Free int64 `json:"free"`
	// MostFree is the most any one of them had free, on MostFreeNode.
	MostFree     int64  `json:"mostFree"`
	MostFreeNode string `json:"mostFreeNode"`
	// MostAllocatable is the largest allocatable among those nodes: below
	// Asked, the pod is larger than any of them, even empty.
	MostAllocatable int64 `json:"mostAllocatable"`
}

// TooLarge reports whether the pod asks more than any of the nodes has
// allocatable: no eviction or rearrangement makes room.
func (r ResourceFree) TooLarge() bool { return r.MostAllocatable < r.Asked }

// Fragmented reports whether the nodes had enough in all, and a node large
// enough for the pod, but none had enough free on its own.
func (r ResourceFree) Fragmented() bool {
	return r.Free >= r.Asked && r.MostFree < r.Asked && !r.TooLarge()
}

// Shortfalls are the numbers behind a cycle's resource rejections.
type Shortfalls struct {
	// Nodes holds, by node index, the resources NodeResourcesFit's
	// recorded rejection of the node named, each with its numbers.
	Nodes map[int][]Shortfall
	// Resources sums up each resource named, in the order first named.
	Resources []ResourceFree
}

// RejectedForResources reports whether NodeResourcesFit rejected a node in
// c's Filter: whether ShortfallsOf has numbers to work out.
func (c *Cycle) RejectedForResources() bool {
	if c.Filter == nil {
		return false
	}
	fit := slices.Index(c.Filter.Plugins, PluginNodeResourcesFit)
	return fit >= 0 && slices.ContainsFunc(c.Filter.Rejected, func(r NodeStatus) bool { return r.Plugin == fit })
}

// ShortfallsOf works out the numbers behind c's Filter rejections by
// NodeResourcesFit from what the recording holds: the pod's requests
// (Cycle.Requests), each node's allocatable (NodeInfo) and what was placed
// on it as the cycle saw it (u, recorder.UsageAt up to c; a node without an
// entry holds nothing). It returns nil when the cycle has no such rejection
// or the recording lacks the requests or the nodes' allocatable (recordings
// made before they were kept), or u is nil.
//
// The filter also counts the pods nominated to a node (NodeStatus.Nominated)
// as placed there; their requests are not in the node's use, so on such a
// node the numbers show more free than the filter counted.
func ShortfallsOf(c *Cycle, u *Usage) *Shortfalls {
	f := c.Filter
	if f == nil || u == nil || c.Requests == nil || c.Nodes == nil || len(c.Nodes.Info) != len(c.Nodes.Names) {
		return nil
	}
	fit := slices.Index(f.Plugins, PluginNodeResourcesFit)
	if fit < 0 {
		return nil
	}
	var out *Shortfalls
	var rejected []int
	for _, r := range f.Rejected {
		if r.Plugin != fit || r.Node < 0 || r.Node >= len(c.Nodes.Info) {
			continue
		}
		rejected = append(rejected, r.Node)
		use, _ := u.Node(c.NodeName(r.Node))
		list := NodeShortfalls(c, r.Node, r.Reasons, use)
		if len(list) == 0 {
			continue
		}
		if out == nil {
			out = &Shortfalls{Nodes: map[int][]Shortfall{}}
		}
		out.Nodes[r.Node] = list
		for _, s := range list {
			if !slices.ContainsFunc(out.Resources, func(rf ResourceFree) bool { return rf.Resource == s.Resource }) {
				out.Resources = append(out.Resources, ResourceFree{Resource: s.Resource, Asked: s.Asked})
			}
		}
	}
	if out == nil {
		return nil
	}
	for i := range out.Resources {
		rf := &out.Resources[i]
		for _, n := range rejected {
			use, _ := u.Node(c.NodeName(n))
			alloc := c.Nodes.Info[n].Allocatable[rf.Resource]
			free := alloc - use.Requested[rf.Resource]
			rf.Nodes++
			rf.MostAllocatable = max(rf.MostAllocatable, alloc)
			rf.Free += max(free, 0)
			if rf.MostFreeNode == "" || free > rf.MostFree {
				rf.MostFree, rf.MostFreeNode = free, c.NodeName(n)
			}
		}
	}
	return out
}

// NodeShortfalls works out the numbers behind NodeResourcesFit's reasons
// for node (an index into c's node set), given what was placed on the node
// (use; the zero NodeUse for an empty node), in the reasons' order (as the
// filter checks them: pods, cpu, memory, ephemeral storage, the rest).
// Reasons that name no resource, or a resource the pod's recorded requests
// lack, are left out.
func NodeShortfalls(c *Cycle, node int, reasons []string, use NodeUse) []Shortfall {
	if c.Requests == nil || c.Nodes == nil || node < 0 || node >= len(c.Nodes.Info) {
		return nil
	}
	alloc := c.Nodes.Info[node].Allocatable
	if alloc == nil {
		return nil
	}
	var out []Shortfall
	for _, reason := range reasons {
		res, ok := InsufficientResource(reason)
		if !ok {
			continue
		}
		asked, ok := c.Requests[res]
		if res == ResourcePods {
			asked, ok = 1, true
		}
		if !ok {
			continue
		}
		out = append(out, Shortfall{Resource: res, Asked: asked, Allocatable: alloc[res], Requested: use.Requested[res]})
	}
	return out
}

// RunShortfalls works out ShortfallsOf each of a run's cycles, given in the
// order they started (by Seq), the node use of each rebuilt from the
// cycles before it; keyed by Seq, cycles without numbers left out.
func RunShortfalls(cycles []*Cycle) map[int]*Shortfalls {
	out := map[int]*Shortfalls{}
	u := NewUsage()
	for _, c := range cycles {
		u.Apply(c)
		if s := ShortfallsOf(c, u); s != nil {
			out[c.Seq] = s
		}
	}
	return out
}
