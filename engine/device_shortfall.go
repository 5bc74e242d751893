package engine

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/dynamic-resource-allocation/cel"

	"github.com/schedscope/schedscope/recorder"
)

// deviceShortfalls works out the numbers behind DynamicResources' Filter
// rejections of the nodes named (by index in the cycle's node set): for
// each, every request of the pod's claims not allocated yet that asks for
// a count of devices, with the devices of its class (and its own
// selectors) the node's ResourceSlices publish and those of them allocated
// to claims, as the in-memory API server holds them; kept when the node had
// fewer free than asked. It only reads, and gives up (nil) on anything it
// cannot read or evaluate: it explains a decision, never makes one.
func (e *Engine) deviceShortfalls(ctx context.Context, pod *v1.Pod, nodes map[int]string) map[int][]recorder.DeviceShortfall {
	requests := e.deviceRequests(ctx, pod)
	if len(requests) == 0 {
		return nil
	}
	slices, err := e.client.ResourceV1().ResourceSlices().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil
	}
	claims, err := e.client.ResourceV1().ResourceClaims(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil
	}
	allocated := map[string]bool{} // driver/pool/device
	for _, c := range claims.Items {
		if c.Status.Allocation == nil {
			continue
		}
		for _, r := range c.Status.Allocation.Devices.Results {
			allocated[r.Driver+"/"+r.Pool+"/"+r.Device] = true
		}
	}
	nodeObjs := map[string]*v1.Node{}
	nodeOf := func(name string) *v1.Node {
		if n, ok := nodeObjs[name]; ok {
			return n
		}
		n, _ := e.client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		nodeObjs[name] = n
		return n
	}
	out := map[int][]recorder.DeviceShortfall{}
	for i, name := range nodes {
		for _, r := range requests {
			d := recorder.DeviceShortfall{Claim: r.claim, Request: r.name, Class: r.class, Asked: r.count}
			for si := range slices.Items {
				s := &slices.Items[si]
				if !sliceOnNode(s, name, nodeOf) {
					continue
				}
				for _, dev := range s.Spec.Devices {
					if !r.matches(ctx, s.Spec.Driver, dev) {
						continue
					}
					d.Published++
					if allocated[s.Spec.Driver+"/"+s.Spec.Pool.Name+"/"+dev.Name] {
						d.Allocated++
					}
				}
			}
			if d.Short() > 0 {
				out[i] = append(out[i], d)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// sliceOnNode reports whether a ResourceSlice's devices are reachable from
// node: published for it by name, for all nodes, or for the nodes its
// selector matches (devices that each name their own nodes are not counted).
func sliceOnNode(s *resourceapi.ResourceSlice, node string, nodeOf func(string) *v1.Node) bool {
	switch {
	case s.Spec.NodeName != nil:
		return *s.Spec.NodeName == node
	case s.Spec.AllNodes != nil && *s.Spec.AllNodes:
		return true
	case s.Spec.NodeSelector != nil:
		n := nodeOf(node)
		if n == nil {
			return false
		}
		ok, err := corev1helpers.MatchNodeSelectorTerms(n, s.Spec.NodeSelector)
		return err == nil && ok
	}
	return false
}

// deviceRequest is one request of a claim that asks for a count of devices.
type deviceRequest struct {
	claim, name, class string
	count              int64
	selectors          []cel.CompilationResult
}

// matches reports whether a device of driver meets the request's class's
// selectors and its own.
func (r deviceRequest) matches(ctx context.Context, driver string, dev resourceapi.Device) bool {
	in := cel.Device{Driver: driver, Attributes: dev.Attributes, Capacity: dev.Capacity}
	for _, sel := range r.selectors {
		ok, _, err := sel.DeviceMatches(ctx, in)
		if err != nil || !ok {
			return false
		}
	}
	return true
}

// deviceRequests are the requests of pod's claims not allocated yet that
// ask for an exact count of devices of a class (a prioritized list of
// alternatives, or all devices, asks for no one count, and is left out).
func (e *Engine) deviceRequests(ctx context.Context, pod *v1.Pod) []deviceRequest {
	var out []deviceRequest
	compiler := cel.GetCompiler(cel.Features{})
	compile := func(sels []resourceapi.DeviceSelector) ([]cel.CompilationResult, bool) {
		var res []cel.CompilationResult
		for _, s := range sels {
			if s.CEL == nil {
				continue
			}
			c := compiler.CompileCELExpression(s.CEL.Expression, cel.Options{})
			if c.Error != nil {
				return nil, false
			}
			res = append(res, c)
		}
		return res, true
	}
	for _, prc := range pod.Spec.ResourceClaims {
		name := ""
		if prc.ResourceClaimName != nil {
			name = *prc.ResourceClaimName
		}
		for _, st := range pod.Status.ResourceClaimStatuses {
			if st.Name == prc.Name && st.ResourceClaimName != nil {
				name = *st.ResourceClaimName
			}
		}
		if name == "" {
			continue
		}
		claim, err := e.client.ResourceV1().ResourceClaims(pod.Namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil || claim.Status.Allocation != nil {
			continue
		}
		for _, r := range claim.Spec.Devices.Requests {
			x := r.Exactly
			if x == nil || x.AllocationMode == resourceapi.DeviceAllocationModeAll {
				continue
			}
			class, err := e.client.ResourceV1().DeviceClasses().Get(ctx, x.DeviceClassName, metav1.GetOptions{})
			if err != nil {
				continue
			}
			sels, ok := compile(class.Spec.Selectors)
			own, ok2 := compile(x.Selectors)
			if !ok || !ok2 {
				continue
			}
			count := x.Count
			if count == 0 {
				count = 1
			}
			out = append(out, deviceRequest{claim: fmt.Sprintf("%s/%s", claim.Namespace, claim.Name), name: r.Name,
				class: x.DeviceClassName, count: count, selectors: append(sels, own...)})
		}
	}
	return out
}
