package controllers

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/metadata"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/controller/garbagecollector"
)

// The garbage collector is kube-controller-manager's
// (pkg/controller/garbagecollector), built as it builds it: a dependency
// graph over the informers of every resource it may delete, and the
// collector over the graph, run with Sync beside it. Deleting an owner in a
// run (a timeline step deleting a Deployment) deletes its ReplicaSets, and
// their pods, in the background, as kube-apiserver's default propagation
// for these kinds does.
//
// What a run gives it in place of an API server's:
//   - gcResources is the discovery it syncs from: the kinds a run's objects
//     and its controllers' are (an API server lists more; the others cannot
//     own or be owned by what a fixture holds).
//   - runMetadata is its metadata client, over the in-memory API server's
//     clientset (through its reactors, so each write is counted and
//     versioned). The collector reads with typed informers, so it is asked
//     only Get, Delete and Patch.
//   - An owner a fixture's objects refer to but do not hold (a pod copied
//     with kubectl, whose ReplicaSet was left out) is taken to exist
//     outside the fixture: Get answers for it, with the UID the reference
//     names, and its dependents are kept. In a cluster such an owner would
//     be missing and the collector would delete them; a fixture is a part
//     of a cluster.
//   - Every delete is immediate (the in-memory API server keeps no
//     finalizers): foreground and orphan propagation are not simulated.

// gcWorkers is kube-controller-manager's ConcurrentGCSyncs default; gcSync
// how often Sync looks at discovery again (kube-controller-manager: 30 s).
const (
	gcWorkers = 20
	gcSync    = 30 * time.Second
)

// gcResources are the resources the collector watches, by group version.
var gcResources = []struct {
	groupVersion string
	resources    []metav1.APIResource
}{
	{"v1", []metav1.APIResource{
		{Name: "pods", Kind: "Pod", Namespaced: true},
		{Name: "replicationcontrollers", Kind: "ReplicationController", Namespaced: true},
		{Name: "persistentvolumeclaims", Kind: "PersistentVolumeClaim", Namespaced: true},
		{Name: "nodes", Kind: "Node"},
	}},
	{"apps/v1", []metav1.APIResource{
		{Name: "deployments", Kind: "Deployment", Namespaced: true},
		{Name: "replicasets", Kind: "ReplicaSet", Namespaced: true},
		{Name: "statefulsets", Kind: "StatefulSet", Namespaced: true},
		{Name: "daemonsets", Kind: "DaemonSet", Namespaced: true},
		{Name: "controllerrevisions", Kind: "ControllerRevision", Namespaced: true},
	}},
	{"batch/v1", []metav1.APIResource{
		{Name: "jobs", Kind: "Job", Namespaced: true},
	}},
}

// gcDiscovery is the discovery the collector syncs from: gcResources, each
// with the verbs the collector asks for.
type gcDiscovery struct{}

func (gcDiscovery) lists() []*metav1.APIResourceList {
	var out []*metav1.APIResourceList
	for _, g := range gcResources {
		l := &metav1.APIResourceList{GroupVersion: g.groupVersion}
		for _, r := range g.resources {
			r.Verbs = metav1.Verbs{"delete", "get", "list", "patch", "watch"}
			l.APIResources = append(l.APIResources, r)
		}
		out = append(out, l)
	}
	return out
}

func (d gcDiscovery) ServerResourcesForGroupVersion(gv string) (*metav1.APIResourceList, error) {
	for _, l := range d.lists() {
		if l.GroupVersion == gv {
			return l, nil
		}
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{}, gv)
}

func (d gcDiscovery) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return nil, d.lists(), nil
}

func (d gcDiscovery) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return d.lists(), nil
}

func (d gcDiscovery) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	var out []*metav1.APIResourceList
	for _, l := range d.lists() {
		n := &metav1.APIResourceList{GroupVersion: l.GroupVersion}
		for _, r := range l.APIResources {
			if r.Namespaced {
				n.APIResources = append(n.APIResources, r)
			}
		}
		out = append(out, n)
	}
	return out, nil
}

// staticMapper is the collector's REST mapper: the pinned scheme's kinds,
// which never change in a run (Sync resets it when discovery changes).
type staticMapper struct{ meta.RESTMapper }

func (staticMapper) Reset() {}

// invoker is the in-memory API server's clientset, whose reactors do what
// kube-apiserver would.
type invoker interface {
	Invokes(action clienttesting.Action, defaultReturnObj runtime.Object) (runtime.Object, error)
}

// runMetadata is the collector's metadata client over a run's clientset.
type runMetadata struct {
	api     invoker
	mapper  meta.RESTMapper
	outside map[string]types.UID
}

type runMetadataResource struct {
	m         *runMetadata
	gvr       schema.GroupVersionResource
	namespace string
}

func (m *runMetadata) Resource(gvr schema.GroupVersionResource) metadata.Getter {
	return runMetadataResource{m: m, gvr: gvr}
}

func (r runMetadataResource) Namespace(ns string) metadata.ResourceInterface {
	r.namespace = ns
	return r
}

// partial is obj's metadata, as the metadata API serves it.
func (r runMetadataResource) partial(obj runtime.Object) (*metav1.PartialObjectMetadata, error) {
	acc, ok := obj.(metav1.ObjectMetaAccessor)
	if !ok {
		return nil, fmt.Errorf("%s: %T has no object metadata", r.gvr.Resource, obj)
	}
	om, ok := acc.GetObjectMeta().(*metav1.ObjectMeta)
	if !ok {
		return nil, fmt.Errorf("%s: %T has no object metadata", r.gvr.Resource, obj)
	}
	kind, err := r.m.mapper.KindFor(r.gvr)
	if err != nil {
		return nil, err
	}
	return &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: kind.GroupVersion().String(), Kind: kind.Kind},
		ObjectMeta: *om.DeepCopy()}, nil
}

func (r runMetadataResource) Get(_ context.Context, name string, _ metav1.GetOptions, sub ...string) (*metav1.PartialObjectMetadata, error) {
	if len(sub) > 0 {
		return nil, errNotServed
	}
	obj, err := r.m.api.Invokes(clienttesting.NewGetAction(r.gvr, r.namespace, name), nil)
	if apierrors.IsNotFound(err) {
		if kind, kerr := r.m.mapper.KindFor(r.gvr); kerr == nil {
			if uid, ok := r.m.outside[OwnerKey(kind.Kind, r.namespace, name)]; ok {
				return &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: kind.GroupVersion().String(), Kind: kind.Kind},
					ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: r.namespace, UID: uid}}, nil
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return r.partial(obj)
}

func (r runMetadataResource) Delete(ctx context.Context, name string, opts metav1.DeleteOptions, sub ...string) error {
	if len(sub) > 0 {
		return errNotServed
	}
	if p := opts.Preconditions; p != nil && (p.UID != nil || p.ResourceVersion != nil) {
		// As kube-apiserver, refuse to delete another object of the name,
		// or a newer version than the one the collector decided on.
		cur, err := r.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if (p.UID != nil && *p.UID != cur.UID) || (p.ResourceVersion != nil && *p.ResourceVersion != cur.ResourceVersion) {
			return apierrors.NewConflict(r.gvr.GroupResource(), name, errors.New("the precondition of the delete does not hold"))
		}
	}
	_, err := r.m.api.Invokes(clienttesting.NewDeleteActionWithOptions(r.gvr, r.namespace, name, opts), nil)
	return err
}

func (r runMetadataResource) Patch(_ context.Context, name string, pt types.PatchType, data []byte, _ metav1.PatchOptions, sub ...string) (*metav1.PartialObjectMetadata, error) {
	if len(sub) > 0 {
		return nil, errNotServed
	}
	obj, err := r.m.api.Invokes(clienttesting.NewPatchAction(r.gvr, r.namespace, name, pt, data), nil)
	if err != nil {
		return nil, err
	}
	return r.partial(obj)
}

// errNotServed answers what the collector does not ask of a run: it lists
// and watches with typed informers.
var errNotServed = errors.New("not served to the garbage collector in a run: it reads with typed informers")

func (runMetadataResource) DeleteCollection(context.Context, metav1.DeleteOptions, metav1.ListOptions) error {
	return errNotServed
}

func (runMetadataResource) List(context.Context, metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	return nil, errNotServed
}

func (runMetadataResource) Watch(context.Context, metav1.ListOptions) (watch.Interface, error) {
	return nil, errNotServed
}

// OwnerKey names an owner as Deps.Outside keys it: kind, namespace (empty
// for a cluster-scoped owner) and name.
func OwnerKey(kind, namespace, name string) string {
	return kind + "/" + namespace + "/" + name
}

// gcInformers gives the collector the run's typed informers.
type gcInformers struct {
	f informers.SharedInformerFactory
}

func (g gcInformers) ForResource(gvr schema.GroupVersionResource) (informers.GenericInformer, error) {
	return g.f.ForResource(gvr)
}

func (g gcInformers) Start(stop <-chan struct{}) { g.f.Start(stop) }

// garbage is the collector of a run, and what tells whether it has work.
type garbage struct {
	gc *garbagecollector.GarbageCollector

	mu sync.Mutex
	// gone are the UIDs of owners deleted in the run whose dependents may
	// still be there.
	gone   map[types.UID]bool
	stores []cache.Store
}

func newGarbage(ctx context.Context, deps Deps) (*garbage, error) {
	api, ok := deps.Client.(invoker)
	if !ok {
		return nil, fmt.Errorf("garbage collector: the client %T is not a run's in-memory API server", deps.Client)
	}
	mapper := staticMapper{testrestmapper.TestOnlyStaticRESTMapper(legacyscheme.Scheme)}
	md := &runMetadata{api: api, mapper: mapper, outside: deps.Outside}
	started := make(chan struct{})
	close(started) // a run constructs every controller before any runs
	gb := garbagecollector.NewDependencyGraphBuilder(ctx, md, mapper, garbagecollector.DefaultIgnoredResources(), gcInformers{deps.Informers}, started)
	gc, err := garbagecollector.NewComposedGarbageCollector(ctx, deps.Client, md, mapper, gb)
	if err != nil {
		return nil, fmt.Errorf("garbage collector: %w", err)
	}
	g := &garbage{gc: gc, gone: map[types.UID]bool{}}
	for _, group := range gcResources {
		gv, err := schema.ParseGroupVersion(group.groupVersion)
		if err != nil {
			return nil, err
		}
		for _, r := range group.resources {
			inf, err := deps.Informers.ForResource(gv.WithResource(r.Name))
			if err != nil {
				return nil, fmt.Errorf("garbage collector: %w", err)
			}
			g.stores = append(g.stores, inf.Informer().GetStore())
			if r.Kind == "Pod" {
				continue // a pod owns nothing a run holds
			}
			if _, err := inf.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
				DeleteFunc: func(obj any) {
					if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
						obj = d.Obj
					}
					if m, err := meta.Accessor(obj); err == nil {
						g.mu.Lock()
						g.gone[m.GetUID()] = true
						g.mu.Unlock()
						deps.Changed()
					}
				},
			}); err != nil {
				return nil, err
			}
		}
	}
	return g, nil
}

// run runs the collector and its discovery sync, as kube-controller-manager does.
func (g *garbage) run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { g.gc.Run(ctx, gcWorkers, gcSync) })
	wg.Go(func() { g.gc.Sync(ctx, gcDiscovery{}, gcSync) })
	wg.Wait()
}

// busy says how many objects still name an owner deleted in the run and are
// not being deleted themselves, or "" when none does.
func (g *garbage) busy() string {
	if g == nil {
		return ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.gone) == 0 {
		return ""
	}
	named := map[types.UID]bool{}
	n := 0
	for _, s := range g.stores {
		for _, o := range s.List() {
			m, err := meta.Accessor(o)
			if err != nil || m.GetDeletionTimestamp() != nil {
				continue
			}
			for _, ref := range m.GetOwnerReferences() {
				if g.gone[ref.UID] {
					named[ref.UID] = true
					n++
					break
				}
			}
		}
	}
	for uid := range g.gone {
		if !named[uid] {
			delete(g.gone, uid)
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("garbage collector: %d object(s) whose owner was deleted", n)
}
