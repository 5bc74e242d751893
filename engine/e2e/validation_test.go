package e2e

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/engine/fixture"
)

// TestFixtureValidationMatchesAPIServer creates the same objects on a real
// kube-apiserver and loads them as a fixture: schedscope must reject exactly
// what the API server rejects.
func TestFixtureValidationMatchesAPIServer(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cp := startControlPlane(t)
	dyn, err := dynamic.NewForConfig(cp.admin)
	if err != nil {
		t.Fatal(err)
	}
	const node = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n---\n"
	pod := func(name, container string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec:\n  containers: [" + container + "]\n"
	}
	tests := []struct {
		name, doc string
	}{
		{"a valid pod", pod("valid", "{name: c, image: i}")},
		{"a negative request", pod("negative", `{name: c, image: i, resources: {requests: {cpu: "-1"}}}`)},
		{"a cpu request of 1e23", pod("huge", `{name: c, image: i, resources: {requests: {cpu: 1e23}}}`)},
		{"an invalid name", pod("Bad_Name!", "{name: c, image: i}")},
		{"a container without image", pod("noimage", "{name: c}")},
		{"a limit below the request", pod("limits", `{name: c, image: i, resources: {requests: {cpu: "2"}, limits: {cpu: "1"}}}`)},
		{"a priority class above the user range", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: too-high}\nvalue: 2000000001\n"},
		{"a valid priority class", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: fine}\nvalue: 1000\n"},
		{"a node with a bad taint effect", "apiVersion: v1\nkind: Node\nmetadata: {name: tainted}\nspec: {taints: [{key: k, effect: Sometimes}]}\n"},
	}
	rejected := 0
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := fixture.DecodeManifest(tc.name, []byte(tc.doc))
			if err != nil || len(objs) != 1 {
				t.Fatalf("decoding: %v (%d objects)", err, len(objs))
			}
			realErr := create(ctx, dyn, objs[0])
			_, ourErr := fixture.Load("fixture.yaml", []byte(node+tc.doc))
			t.Logf("API server: %v; schedscope: %v", realErr, ourErr)
			if (realErr == nil) != (ourErr == nil) {
				t.Errorf("the API server says %v, schedscope says %v", realErr, ourErr)
			}
			if realErr != nil {
				rejected++
			}
		})
	}
	if rejected == 0 || rejected == len(tests) {
		t.Errorf("the API server rejected %d of %d cases; the comparison needs both kinds", rejected, len(tests))
	}
}

// create creates obj on the API server as a client would.
func create(ctx context.Context, dyn dynamic.Interface, obj runtime.Object) error {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return err
	}
	un := &unstructured.Unstructured{Object: u}
	gvks, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil {
		return err
	}
	gvk := gvks[0]
	un.SetGroupVersionKind(gvk)
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	var ri dynamic.ResourceInterface = dyn.Resource(gvr)
	if gvk.Kind == "Pod" {
		ri = dyn.Resource(gvr).Namespace("default")
	}
	_, err = ri.Create(ctx, un, metav1.CreateOptions{})
	return err
}
