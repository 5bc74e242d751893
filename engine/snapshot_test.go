package engine

import (
	"context"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/schedscope/schedscope/engine/cluster"
	"github.com/schedscope/schedscope/engine/scrub"
)

// TestScrubKnowsEveryKindSnapshotReads fails when the pinned scheduler reads a
// kind scrub has no allow-list for (a new Kubernetes minor, a feature gate).
func TestScrubKnowsEveryKindSnapshotReads(t *testing.T) {
	gvrs, err := SnapshotResources(context.Background(), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(gvrs) < 10 {
		t.Fatalf("snapshot reads only %v; the check would prove little", gvrs)
	}
	for _, gvr := range gvrs {
		obj := mustNew(gvr)
		if obj == nil {
			t.Errorf("no Go type for %s", cluster.ResourceName(gvr))
			continue
		}
		if _, known := scrub.Object(obj); !known {
			t.Errorf("scrub has no allow-list for %T (%s)", obj, cluster.ResourceName(gvr))
		}
	}
}

// mustNew returns an empty object of the type served at gvr, or nil.
func mustNew(gvr schema.GroupVersionResource) runtime.Object {
	for k, t := range clientgoscheme.Scheme.AllKnownTypes() {
		if k.Group != gvr.Group || k.Version != gvr.Version {
			continue
		}
		if r, _ := meta.UnsafeGuessKindToResource(k); r == gvr {
			if obj, ok := reflect.New(t).Interface().(runtime.Object); ok {
				return obj
			}
		}
	}
	return nil
}
