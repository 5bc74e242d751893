package narrate

import (
	"fmt"

	"github.com/schedscope/schedscope/recorder"
)

// The numbers behind "Insufficient cpu" and "Too many pods", worded the
// same way in explain's text, Markdown, HTML and the TUI.

// Shortfall says, for one resource NodeResourcesFit rejected a node for,
// what the pod asks, what the node had free and by how much the pod is
// short: "cpu: the pod asks 12, the node has 3.5 free (4 allocatable −
// 500m requested): 8.5 short".
func Shortfall(s recorder.Shortfall) string {
	r := s.Resource
	var text string
	if r == recorder.ResourcePods {
		text = fmt.Sprintf("pods: %d placed of %d allowed, no room for one more", s.Requested, s.Allocatable)
		if s.Short() <= 0 {
			text = fmt.Sprintf("pods: %d placed of %d allowed", s.Requested, s.Allocatable)
		}
	} else {
		text = fmt.Sprintf("%s: the pod asks %s, the node has %s free (%s allocatable − %s requested)", r,
			Quantity(r, s.Asked), Quantity(r, s.Free()), Quantity(r, s.Allocatable), Quantity(r, s.Requested))
		if s.Short() > 0 {
			text += ": " + Quantity(r, s.Short()) + " short"
		}
	}
	if s.Short() <= 0 {
		text += "; the filter also counted the pods nominated there"
	}
	return text
}

// ShortfallBrief is Shortfall in a table's cell: "cpu 12 > 3.5 free",
// "pods 110/110".
func ShortfallBrief(s recorder.Shortfall) string {
	r := s.Resource
	if r == recorder.ResourcePods {
		return fmt.Sprintf("pods %d/%d", s.Requested, s.Allocatable)
	}
	return fmt.Sprintf("%s %s > %s free", r, Quantity(r, s.Asked), Quantity(r, s.Free()))
}

// ShortfallsBrief joins ShortfallBrief of each of a node's shortfalls.
func ShortfallsBrief(list []recorder.Shortfall) string {
	out := ""
	for i, s := range list {
		if i > 0 {
			out += ", "
		}
		out += ShortfallBrief(s)
	}
	return out
}

// ResourceFree sums up one resource the pod was short of over the nodes
// NodeResourcesFit rejected: the most free on one node, the free in all,
// and whether the pod is larger than any of them or the free capacity is
// fragmented (enough in all, not on any one node).
func ResourceFree(f recorder.ResourceFree) string {
	r := f.Resource
	q := func(v int64) string { return Quantity(r, v) }
	var text string
	if f.Nodes == 1 {
		text = fmt.Sprintf("%s: the pod asks %s; the one node NodeResourcesFit rejected, %s, has %s free", r, q(f.Asked), f.MostFreeNode, q(f.MostFree))
	} else {
		text = fmt.Sprintf("%s: the pod asks %s; the %d nodes NodeResourcesFit rejected have %s free in all, at most %s on one (%s)",
			r, q(f.Asked), f.Nodes, q(f.Free), q(f.MostFree), f.MostFreeNode)
	}
	switch {
	case f.TooLarge() && f.Nodes == 1:
		text += fmt.Sprintf(", of %s allocatable: the pod is larger than the node", q(f.MostAllocatable))
	case f.TooLarge():
		text += fmt.Sprintf(": the pod is larger than any of them (%s allocatable at most)", q(f.MostAllocatable))
	case f.Fragmented():
		text += fmt.Sprintf(": fragmented, enough %s in all but not on any one node", r)
	}
	return text
}

// ResourceFreeBrief is ResourceFree in one short line, for a panel:
// "cpu: asks 12; at most 4 free on a node, 8500m in all: larger than any
// node".
func ResourceFreeBrief(f recorder.ResourceFree) string {
	r := f.Resource
	text := fmt.Sprintf("%s: asks %s; at most %s free on a node, %s in all", r, Quantity(r, f.Asked), Quantity(r, f.MostFree), Quantity(r, f.Free))
	switch {
	case f.TooLarge():
		text += ": larger than any node"
	case f.Fragmented():
		text += ": fragmented"
	}
	return text
}

// DeviceShortfall says, for one request of a pod's ResourceClaim a node
// DynamicResources rejected had too few devices for, what it asks and what
// the node had free: "claim default/gpus, request gpu: asks 4 devices of
// class gpu, the node has 2 free (3 published − 1 allocated): 2 short".
func DeviceShortfall(d recorder.DeviceShortfall) string {
	return fmt.Sprintf("claim %s, request %s: asks %d device%s of class %s, the node has %d free (%d published − %d allocated): %d short",
		d.Claim, d.Request, d.Asked, plural(int(d.Asked)), d.Class, d.Free(), d.Published, d.Allocated, d.Short())
}
