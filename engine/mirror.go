package engine

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"

	"github.com/schedscope/schedscope/engine/cluster"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// A mirrored engine's in-memory API server is written from outside, by live
// mode (engine/live) copying a real cluster into it, instead of from a
// fixture. What follows, with Options.OnDecided, Gate, Header and
// QueueCounts, is all of the engine live mode uses:
//
//   - NewMirrored builds the scheduler over an empty API server, and
//     ReadResources names what its informers read, so that exactly that is
//     mirrored;
//   - Tracker and LockPods write the mirror's objects, each write a watch
//     event for the scheduler, as the cluster's own writes are;
//   - Start starts the informers once the first copy is in, and Schedule
//     runs the scheduler on pods as they arrive;
//   - OnDecided hands over each cycle as it finishes, and FlushHeld hands a
//     held preempting cycle to OnCycle before an observation refers to it.

// NewMirrored builds the scheduler over an empty in-memory API server that a
// mirror fills; src names the cluster in the header. The queue runs on the
// wall clock. The scheduler's preemption does not delete pods: mirrored pods
// still run in the cluster until the cluster itself evicts them, and the
// mirror removes them then. Nothing runs until Start and Schedule.
func NewMirrored(ctx context.Context, src recorder.Source, opts Options) (*Engine, error) {
	e, err := build(ctx, &fixture.Fixture{Name: src.Name}, opts)
	if err != nil {
		return nil, err
	}
	e.header.Source = src
	e.client.PrependReactor("delete", "pods", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, nil
	})
	return e, nil
}

// ReadResources lists the resources the scheduler's informers read, sorted.
func (e *Engine) ReadResources() ([]schema.GroupVersionResource, error) {
	objs, err := informerTypes(e.informers)
	if err != nil {
		return nil, err
	}
	out := make([]schema.GroupVersionResource, 0, len(objs))
	for _, obj := range objs {
		gvr, err := gvrOf(obj)
		if err != nil {
			return nil, err
		}
		out = append(out, gvr)
	}
	cluster.SortResources(out)
	return out, nil
}

// ReadResources lists the resources a scheduler with cfg reads from the API
// server (nil cfg: the default profile), sorted. A ClusterRole granting get,
// list and watch on them is all live mode needs.
func ReadResources(ctx context.Context, cfg *Options) ([]schema.GroupVersionResource, error) {
	opts := Options{}
	if cfg != nil {
		opts = *cfg
	}
	e, err := build(ctx, &fixture.Fixture{Name: "rbac"}, opts)
	if err != nil {
		return nil, err
	}
	return e.ReadResources()
}

// gvrOf is obj's resource, for any kind a fixture may hold (fixture.Scheme:
// a CustomResourceDefinition's too; a custom resource's from its apiVersion
// and kind).
func gvrOf(obj runtime.Object) (schema.GroupVersionResource, error) {
	gvks, _, err := fixture.Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return schema.GroupVersionResource{}, fmt.Errorf("unknown type %T", obj)
	}
	gvr, _ := meta.UnsafeGuessKindToResource(gvks[0])
	return gvr, nil
}

// Tracker is the in-memory API server's object store. Each write reaches the
// scheduler's informers as one watch event; it is not counted as a write of
// a fixture run, and keeps the resource version it is given.
//
// An object written through it is stored as it is, not copied: the mirror's
// objects come from its informers' caches, which nobody writes in place,
// and nothing in the engine writes a stored object in place either (a fork
// shares a fixture's objects the same way). Copying every pod was an eighth
// of what live mode did before it was ready on a 40 000-pod cluster.
func (e *Engine) Tracker() clienttesting.ObjectTracker { return mirrorTracker{e.store} }

// mirrorTracker is the store, with writes that keep the object given.
type mirrorTracker struct{ *store }

func (t mirrorTracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, _ ...metav1.CreateOptions) error {
	return t.put(gvr, obj, ns, false)
}

func (t mirrorTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, _ ...metav1.UpdateOptions) error {
	return t.put(gvr, obj, ns, true)
}

// Get returns the stored object itself, which the caller must not write:
// the mirror reads a pod's node, UID and version from it on every event.
func (t mirrorTracker) Get(gvr schema.GroupVersionResource, ns, name string, _ ...metav1.GetOptions) (runtime.Object, error) {
	return t.stored(gvr, ns, name)
}

// LockPods orders a read-modify-write of pods in Tracker with the engine's
// own writes of pods (its bindings); unlock ends it.
func (e *Engine) LockPods() (unlock func()) {
	e.trackerMu.Lock()
	return e.trackerMu.Unlock
}

// Start starts the scheduler's informers and waits until they and its event
// handlers have caught up with the objects present.
func (e *Engine) Start(ctx context.Context) error { return e.start(ctx) }

// Schedule runs the scheduler on pods as they arrive until ctx is done.
func (e *Engine) Schedule(ctx context.Context) { e.sched.Run(ctx) }

// FlushHeld hands to OnCycle the finished cycles held back until their
// preemption's victims are known: those of uid, or all when uid is "".
func (e *Engine) FlushHeld(uid types.UID) { e.flushPending(uid) }
