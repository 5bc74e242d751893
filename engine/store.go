package engine

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/watch"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"
)

// store is the storage of the in-memory API server: what etcd and the
// API server's watch cache are to a cluster. It does what client-go's
// testing tracker does (the fake clientset's reactions call it the same
// way) but keeps one copy of each object, which at cluster scale is most
// of the memory of a run:
//
//   - A stored object is never changed: a write stores a new copy. So the
//     objects present from the start are stored as the fixture holds them
//     (adopt), not copied, and a run never changes its fixture.
//   - A list with resourceVersion "0" (an informer's initial list: "any
//     version the cache holds", served from the watch cache in a cluster)
//     and every watch event hand out the stored objects themselves, as a
//     watch cache does; informers, and the scheduler and controllers over
//     them, only read what they are given. A typed list holds them by
//     value, and a reflector copies each item into an object of its own;
//     the pod informer's initial list (podList, newInformerFactory) holds
//     the stored pods themselves, which it keeps. Get and any other list
//     return copies, which the caller may change.
//
// client-go's tracker copied each object on Add, on every list and once
// per watcher per event: three copies of every pod before the scheduler's
// cache held a fourth.
type store struct {
	scheme *runtime.Scheme

	mu sync.RWMutex
	// objects are the stored objects by resource, then namespace and name.
	objects map[schema.GroupVersionResource]map[types.NamespacedName]storedObject
	// versions count each resource's writes; a list carries its count, and
	// a watch from that count delivers only what was written after it.
	versions map[schema.GroupVersionResource]int64
	watchers map[schema.GroupVersionResource]map[string][]*storeWatcher
}

type storedObject struct {
	version int64
	obj     runtime.Object
}

var _ clienttesting.ObjectTracker = (*store)(nil)

func newStore() *store {
	return &store{
		scheme:   clientgoscheme.Scheme,
		objects:  map[schema.GroupVersionResource]map[types.NamespacedName]storedObject{},
		versions: map[schema.GroupVersionResource]int64{},
		watchers: map[schema.GroupVersionResource]map[string][]*storeWatcher{},
	}
}

// adopt stores objs as they are, without copying them: the caller gives
// them up and never changes them again (a fixture's objects, which every
// run of the fixture shares).
func (s *store) adopt(objs []runtime.Object) error {
	for _, o := range objs {
		gvr, err := s.resourceOf(o)
		if err != nil {
			return err
		}
		m, err := meta.Accessor(o)
		if err != nil {
			return err
		}
		if err := s.put(gvr, o, m.GetNamespace(), false); err != nil {
			return err
		}
	}
	return nil
}

// resourceOf guesses obj's resource from its kind, as the tracker does.
func (s *store) resourceOf(obj runtime.Object) (schema.GroupVersionResource, error) {
	gvks, _, err := s.scheme.ObjectKinds(obj)
	if err != nil {
		return schema.GroupVersionResource{}, err
	}
	if len(gvks) == 0 {
		return schema.GroupVersionResource{}, fmt.Errorf("no registered kind for %T", obj)
	}
	gvr, _ := meta.UnsafeGuessKindToResource(gvks[0])
	return gvr, nil
}

func (s *store) Add(obj runtime.Object) error {
	gvr, err := s.resourceOf(obj)
	if err != nil {
		return err
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	return s.put(gvr, obj.DeepCopyObject(), m.GetNamespace(), false)
}

func (s *store) Get(gvr schema.GroupVersionResource, ns, name string, _ ...metav1.GetOptions) (runtime.Object, error) {
	o, err := s.stored(gvr, ns, name)
	if err != nil {
		return nil, err
	}
	return o.DeepCopyObject(), nil
}

// stored returns the stored object itself, which the caller must not write.
func (s *store) stored(gvr schema.GroupVersionResource, ns, name string) (runtime.Object, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	o, ok := s.objects[gvr][types.NamespacedName{Namespace: ns, Name: name}]
	if !ok {
		return nil, apierrors.NewNotFound(gvr.GroupResource(), name)
	}
	return o.obj, nil
}

func (s *store) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, _ ...metav1.CreateOptions) error {
	return s.put(gvr, obj.DeepCopyObject(), ns, false)
}

func (s *store) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, _ ...metav1.UpdateOptions) error {
	return s.put(gvr, obj.DeepCopyObject(), ns, true)
}

func (s *store) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, _ ...metav1.PatchOptions) error {
	return s.put(gvr, obj.DeepCopyObject(), ns, true)
}

// Apply merges an apply configuration into the stored object as a
// strategic-merge patch, as client-go's simple tracker does (no field
// ownership).
func (s *store) Apply(gvr schema.GroupVersionResource, cfg runtime.Object, ns string, _ ...metav1.PatchOptions) error {
	m, err := meta.Accessor(cfg)
	if err != nil {
		return err
	}
	cur, err := s.Get(gvr, ns, m.GetName())
	if err != nil {
		return err
	}
	before, err := json.Marshal(cur)
	if err != nil {
		return err
	}
	patch, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	// Decode into an empty object: a field the patch removes is gone.
	fresh, ok := reflect.New(reflect.TypeOf(cur).Elem()).Interface().(runtime.Object)
	if !ok {
		return fmt.Errorf("apply: cannot make a new %T", cur)
	}
	merged, err := strategicpatch.StrategicMergePatch(before, patch, fresh)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(merged, fresh); err != nil {
		return err
	}
	return s.put(gvr, fresh, ns, true)
}

// put stores obj, which the store owns from now on, and tells the
// watchers.
func (s *store) put(gvr schema.GroupVersionResource, obj runtime.Object, ns string, replace bool) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	// Only written when it changes: forks' stores adopt the very same
	// objects, and may do so at once.
	if m.GetNamespace() == "" && ns != "" {
		m.SetNamespace(ns)
	}
	if m.GetNamespace() != ns {
		return apierrors.NewBadRequest(fmt.Sprintf("request namespace does not match object namespace, request: %q object: %q", ns, m.GetNamespace()))
	}
	key := types.NamespacedName{Namespace: ns, Name: m.GetName()}
	s.mu.Lock()
	defer s.mu.Unlock()
	objs := s.objects[gvr]
	if objs == nil {
		objs = map[types.NamespacedName]storedObject{}
		s.objects[gvr] = objs
	}
	_, exists := objs[key]
	switch {
	case exists && !replace:
		return apierrors.NewAlreadyExists(gvr.GroupResource(), m.GetName())
	case !exists && replace:
		return apierrors.NewNotFound(gvr.GroupResource(), m.GetName())
	}
	// A resource never written lists at version 1 (List), so its first
	// object is 2: a watch from an empty list's version delivers it.
	s.versions[gvr] = max(s.versions[gvr], 1) + 1
	objs[key] = storedObject{version: s.versions[gvr], obj: obj}
	for _, w := range s.watchersOf(gvr, ns) {
		if exists {
			w.Modify(obj)
		} else {
			w.Add(obj)
		}
	}
	return nil
}

func (s *store) Delete(gvr schema.GroupVersionResource, ns, name string, _ ...metav1.DeleteOptions) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := types.NamespacedName{Namespace: ns, Name: name}
	o, ok := s.objects[gvr][key]
	if !ok {
		return apierrors.NewNotFound(gvr.GroupResource(), name)
	}
	delete(s.objects[gvr], key)
	for _, w := range s.watchersOf(gvr, ns) {
		w.Delete(o.obj)
	}
	return nil
}

// List lists gvr's objects in ns ("" for all), ordered by key, namespace/name,
// as etcd returns them (keyOrder): the order nodes enter the scheduler's cache
// decides which nodes a partial search (percentageOfNodesToScore) visits
// first. A list at resourceVersion "0" holds the stored objects; any other
// holds copies.
func (s *store) List(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, ns string, opts ...metav1.ListOptions) (runtime.Object, error) {
	listGVK := gvk
	listGVK.Kind += "List"
	if listGVK.Version == "" {
		listGVK.Version = runtime.APIVersionInternal
	}
	list, err := s.scheme.New(listGVK)
	if err != nil {
		return nil, err
	}
	if !meta.IsListType(list) {
		return nil, fmt.Errorf("%q is not a list type", listGVK.Kind)
	}
	shared := len(opts) > 0 && opts[0].ResourceVersion == "0"
	items, version := s.sorted(gvr, ns)
	if lm, err := meta.ListAccessor(list); err == nil {
		lm.SetResourceVersion(strconv.FormatInt(version, 10))
	}
	if !shared {
		for i, o := range items {
			items[i] = o.DeepCopyObject()
		}
	}
	if err := meta.SetList(list, items); err != nil {
		return nil, err
	}
	return list, nil
}

// each calls f with gvr's stored objects, in no order, until f returns
// false; f must not write the store.
func (s *store) each(gvr schema.GroupVersionResource, f func(runtime.Object) bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, o := range s.objects[gvr] {
		if !f(o.obj) {
			return
		}
	}
}

// sorted returns gvr's stored objects in ns ("" for all), themselves (the
// caller must not write them), ordered by key (keyOrder), and the
// resource's version.
func (s *store) sorted(gvr schema.GroupVersionResource, ns string) ([]runtime.Object, int64) {
	type keyed struct {
		key types.NamespacedName
		obj runtime.Object
	}
	s.mu.RLock()
	version := max(s.versions[gvr], 1)
	found := make([]keyed, 0, len(s.objects[gvr]))
	for k, o := range s.objects[gvr] {
		if ns == "" || k.Namespace == ns {
			found = append(found, keyed{k, o.obj})
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(found, func(a, b keyed) int {
		return keyOrder(a.key.Namespace, a.key.Name, b.key.Namespace, b.key.Name)
	})
	items := make([]runtime.Object, len(found))
	for i, o := range found {
		items[i] = o.obj
	}
	return items, version
}

// Watch watches gvr in ns ("" for all). With a resourceVersion, what was
// written after the list of that version is delivered first; with an
// empty one, everything stored; with no options, nothing stored.
func (s *store) Watch(gvr schema.GroupVersionResource, ns string, opts ...metav1.ListOptions) (watch.Interface, error) {
	replay, from := false, int64(0)
	if len(opts) > 0 {
		replay = true
		if rv := opts[0].ResourceVersion; rv != "" {
			n, err := strconv.ParseInt(rv, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("invalid ResourceVersion %q in ListOptions, must be int64: %w", rv, err)
			}
			from = n
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := newStoreWatcher()
	if s.watchers[gvr] == nil {
		s.watchers[gvr] = map[string][]*storeWatcher{}
	}
	s.watchers[gvr][ns] = append(s.watchers[gvr][ns], w)
	if replay {
		for k, o := range s.objects[gvr] {
			if (ns == "" || k.Namespace == ns) && o.version > from {
				w.Add(o.obj)
			}
		}
	}
	return w, nil
}

func (s *store) watchersOf(gvr schema.GroupVersionResource, ns string) []*storeWatcher {
	ws := slices.Clone(s.watchers[gvr][ns])
	if ns != metav1.NamespaceAll {
		ws = append(ws, s.watchers[gvr][metav1.NamespaceAll]...)
	}
	return ws
}

// watchReaction serves the clientset's watches from the store, as the
// fake clientset's own watch reactor serves them from its tracker.
func (s *store) watchReaction(action clienttesting.Action) (bool, watch.Interface, error) {
	var opts metav1.ListOptions
	if w, ok := action.(clienttesting.WatchActionImpl); ok {
		opts = w.ListOptions
	}
	w, err := s.Watch(action.GetResource(), action.GetNamespace(), opts)
	if err != nil {
		return false, nil, err
	}
	return true, w, nil
}

// keyOrder orders objects by their keys, namespace/name, as strings: the
// order etcd keeps them in and a list returns them in (a namespace that
// begins another may sort after it: "team-a/x" < "team/x"). It builds no
// key: sorting 40 000 pods built two strings per comparison.
func keyOrder(ans, aname, bns, bname string) int {
	if ans == bns {
		return strings.Compare(aname, bname)
	}
	// The keys first differ inside the shorter namespace, or where it
	// ends: there the shorter key has its "/".
	n := min(len(ans), len(bns))
	if c := strings.Compare(ans[:n], bns[:n]); c != 0 {
		return c
	}
	if len(ans) == n {
		return cmp.Compare('/', rune(bns[n]))
	}
	return cmp.Compare(rune(ans[n]), '/')
}

// podList is the list at resourceVersion "0" of the pods in every namespace
// that the scheduler's pod informer is given (newInformerFactory): the
// stored pods themselves, in key order, as RawExtensions, which a reflector
// takes as they are (a PodList holds copies, and the reflector copies each
// of those again).
func (s *store) podList() runtime.Object {
	items, version := s.sorted(v1.SchemeGroupVersion.WithResource("pods"), metav1.NamespaceAll)
	list := &metav1.List{ListMeta: metav1.ListMeta{ResourceVersion: strconv.FormatInt(version, 10)}, Items: make([]runtime.RawExtension, len(items))}
	for i, o := range items {
		list.Items[i].Object = o
	}
	return list
}
