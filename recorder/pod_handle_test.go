package recorder

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePodHandle(t *testing.T) {
	tests := []struct {
		in      string
		want    PodHandle
		handle  bool
		wantErr bool
	}{
		{in: "web"},
		{in: "shop/web-7d9f-abcde"},
		{in: "deploy/web", want: PodHandle{Kind: "Deployment", Namespace: "default", Name: "web"}, handle: true},
		{in: "sts/data/db#2", want: PodHandle{Kind: "StatefulSet", Namespace: "data", Name: "db", Replica: 2}, handle: true},
		{in: "deploy/web#0", handle: true, wantErr: true},
		{in: "deploy/web#x", handle: true, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, handle, err := ParsePodHandle(tt.in)
			if handle != tt.handle || (err != nil) != tt.wantErr {
				t.Fatalf("handle %v, error %v; want handle %v, error %v", handle, err, tt.handle, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if handle && err == nil {
				if back, _, _ := ParsePodHandle(got.String()); back != got {
					t.Errorf("%s written back as %s reads as %+v", tt.in, got, back)
				}
			}
		})
	}
}

// TestPodHandlesResolve: replicas count in the order they first had a
// cycle; the bare handle is the first replica left without a node; the
// handle each pod is given resolves to it.
func TestPodHandlesResolve(t *testing.T) {
	web := &Owner{Kind: "Deployment", Name: "web"}
	cycle := func(seq int, pod string, bound bool) *Cycle {
		c := &Cycle{Seq: seq, Pod: PodRef{Namespace: "shop", Name: pod, Owner: web}}
		c.Outcome.Result = ResultUnschedulable
		if bound {
			c.Outcome.Result = ResultBound
		}
		return c
	}
	cycles := []*Cycle{
		cycle(1, "web-x-zzzzz", true), cycle(2, "web-x-bbbbb", false), cycle(3, "web-x-ccccc", false),
		{Seq: 4, Pod: PodRef{Namespace: "shop", Name: "bare"}}, cycle(5, "web-x-bbbbb", true),
	}
	tests := []struct{ handle, want string }{
		{"deploy/shop/web", "shop/web-x-ccccc"},
		{"deploy/shop/web#1", "shop/web-x-zzzzz"},
		{"deploy/shop/web#2", "shop/web-x-bbbbb"},
	}
	for _, tt := range tests {
		h, _, _ := ParsePodHandle(tt.handle)
		if got, err := h.Resolve(cycles); err != nil || got != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.handle, got, err, tt.want)
		}
	}
	for _, bad := range []string{"deploy/shop/web#4", "deploy/web", "sts/shop/web"} {
		h, _, _ := ParsePodHandle(bad)
		if got, err := h.Resolve(cycles); err == nil {
			t.Errorf("%s resolved to %s; want an error", bad, got)
		}
	}
	want := map[string]string{"shop/web-x-zzzzz": "deploy/shop/web#1", "shop/web-x-bbbbb": "deploy/shop/web#2", "shop/web-x-ccccc": "deploy/shop/web#3"}
	if diff := cmp.Diff(want, PodHandles(cycles)); diff != "" {
		t.Errorf("PodHandles (-want +got):\n%s", diff)
	}
}

// A mistyped handle names the workloads it may have meant, as handles.
func TestDidYouMeanWorkload(t *testing.T) {
	checkout := PodHandle{Kind: "Deployment", Namespace: "default", Name: "checkout"}
	agent := PodHandle{Kind: "DaemonSet", Namespace: "default", Name: "agent"}
	web := PodHandle{Kind: "Deployment", Namespace: "shop", Name: "web"}
	node := PodHandle{Kind: "Node", Namespace: "", Name: "chekout"}
	have := []PodHandle{checkout, checkout, agent, web, node}
	tests := []struct {
		typed PodHandle
		want  string
	}{
		{PodHandle{Kind: "Deployment", Namespace: "default", Name: "chekout"}, " (did you mean deploy/checkout?)"},
		{PodHandle{Kind: "Deployment", Namespace: "default", Name: "chekout", Replica: 2}, " (did you mean deploy/checkout?)"},
		// another kind of the same name, not a name far off of the kind typed.
		{PodHandle{Kind: "Deployment", Namespace: "default", Name: "agent"}, " (did you mean ds/agent?)"},
		{PodHandle{Kind: "Deployment", Namespace: "default", Name: "web"}, " (did you mean deploy/shop/web?)"},
		{PodHandle{Kind: "Deployment", Namespace: "default", Name: "zzz"}, ""},
	}
	for _, tc := range tests {
		if got := DidYouMeanWorkload(tc.typed, have); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.typed, got, tc.want)
		}
	}
}
