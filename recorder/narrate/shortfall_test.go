package narrate

import (
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

func TestShortfall(t *testing.T) {
	tests := []struct {
		s           recorder.Shortfall
		want, brief string
	}{
		{recorder.Shortfall{Resource: "cpu", Asked: 12000, Allocatable: 4000, Requested: 500},
			"cpu: the pod asks 12, the node has 3500m free (4 allocatable − 500m requested): 8500m short", "cpu 12 > 3500m free"},
		{recorder.Shortfall{Resource: "memory", Asked: 20 << 30, Allocatable: 8 << 30, Requested: 512 << 20},
			"memory: the pod asks 20Gi, the node has 7.5Gi free (8Gi allocatable − 512Mi requested): 12.5Gi short", "memory 20Gi > 7.5Gi free"},
		{recorder.Shortfall{Resource: "pods", Asked: 1, Allocatable: 110, Requested: 110},
			"pods: 110 placed of 110 allowed, no room for one more", "pods 110/110"},
		{recorder.Shortfall{Resource: "cpu", Asked: 1000, Allocatable: 4000, Requested: 4500},
			"cpu: the pod asks 1, the node has −500m free (4 allocatable − 4500m requested): 1500m short", "cpu 1 > −500m free"},
		// the numbers leave room: nominated pods took it.
		{recorder.Shortfall{Resource: "cpu", Asked: 1000, Allocatable: 4000, Requested: 500},
			"cpu: the pod asks 1, the node has 3500m free (4 allocatable − 500m requested); the filter also counted the pods nominated there", "cpu 1 > 3500m free"},
	}
	for _, tc := range tests {
		if got := Shortfall(tc.s); got != tc.want {
			t.Errorf("Shortfall(%+v)\n got %q\nwant %q", tc.s, got, tc.want)
		}
		if got := ShortfallBrief(tc.s); got != tc.brief {
			t.Errorf("ShortfallBrief(%+v) = %q, want %q", tc.s, got, tc.brief)
		}
	}
}

func TestResourceFree(t *testing.T) {
	tests := []struct {
		f    recorder.ResourceFree
		want string
	}{
		{recorder.ResourceFree{Resource: "cpu", Asked: 12000, Nodes: 3, Free: 9500, MostFree: 3500, MostFreeNode: "node-a", MostAllocatable: 4000},
			"cpu: the pod asks 12; the 3 nodes NodeResourcesFit rejected have 9500m free in all, at most 3500m on one (node-a): the pod is larger than any of them (4 allocatable at most)"},
		{recorder.ResourceFree{Resource: "cpu", Asked: 3000, Nodes: 3, Free: 3500, MostFree: 2000, MostFreeNode: "a", MostAllocatable: 4000},
			"cpu: the pod asks 3; the 3 nodes NodeResourcesFit rejected have 3500m free in all, at most 2 on one (a): fragmented, enough cpu in all but not on any one node"},
		{recorder.ResourceFree{Resource: "cpu", Asked: 3000, Nodes: 1, Free: 2000, MostFree: 2000, MostFreeNode: "a", MostAllocatable: 4000},
			"cpu: the pod asks 3; the one node NodeResourcesFit rejected, a, has 2 free"},
		{recorder.ResourceFree{Resource: "pods", Asked: 1, Nodes: 2, MostFreeNode: "a", MostAllocatable: 110},
			"pods: the pod asks 1; the 2 nodes NodeResourcesFit rejected have 0 free in all, at most 0 on one (a)"},
	}
	for _, tc := range tests {
		if got := ResourceFree(tc.f); got != tc.want {
			t.Errorf("ResourceFree(%+v)\n got %q\nwant %q", tc.f, got, tc.want)
		}
	}
}

func TestResourceFreeBrief(t *testing.T) {
	tests := []struct {
		f    recorder.ResourceFree
		want string
	}{
		{recorder.ResourceFree{Resource: "cpu", Asked: 12000, Nodes: 3, Free: 8500, MostFree: 4000, MostAllocatable: 8000},
			"cpu: asks 12; at most 4 free on a node, 8500m in all: larger than any node"},
		{recorder.ResourceFree{Resource: "memory", Asked: 3 << 30, Nodes: 3, Free: 4 << 30, MostFree: 2 << 30, MostAllocatable: 8 << 30},
			"memory: asks 3Gi; at most 2Gi free on a node, 4Gi in all: fragmented"},
		{recorder.ResourceFree{Resource: "cpu", Asked: 3000, Nodes: 2, Free: 2000, MostFree: 1000, MostAllocatable: 4000},
			"cpu: asks 3; at most 1 free on a node, 2 in all"},
	}
	for _, tc := range tests {
		if got := ResourceFreeBrief(tc.f); got != tc.want {
			t.Errorf("ResourceFreeBrief(%+v)\n got %q\nwant %q", tc.f, got, tc.want)
		}
	}
}

func TestDeviceShortfall(t *testing.T) {
	d := recorder.DeviceShortfall{Claim: "default/gpus", Request: "gpu", Class: "gpu", Asked: 4, Published: 3, Allocated: 1}
	want := "claim default/gpus, request gpu: asks 4 devices of class gpu, the node has 2 free (3 published − 1 allocated): 2 short"
	if got := DeviceShortfall(d); got != want {
		t.Errorf("DeviceShortfall:\n got %q\nwant %q", got, want)
	}
}
