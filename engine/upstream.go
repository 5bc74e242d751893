package engine

// This file is the engine's one seam to the internals of kube-scheduler,
// client-go and the Go runtime: every use of a private field, a linkname or
// a copied upstream computation lives here, each with the upstream symbol
// and the version it was written against (k8s.io/kubernetes v1.37.1,
// client-go v0.37.1, Go 1.26). upstream_test.go exercises each one on the
// pinned versions; after a Kubernetes bump, a failure there names the touch
// that changed. See README, "Bumping Kubernetes".

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"
	"unsafe"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

// nanotime is the runtime's monotonic clock (runtime.nanotime, Go 1.26).
// Filter and Score wrappers time every plugin call on every node; time.Now
// also reads the wall clock, which doubled the cost of timing on the
// scheduler's hottest path.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// nextStartNodeIndex returns a pointer to the scheduler's private
// Scheduler.nextStartNodeIndex (pkg/scheduler/scheduler.go, v1.37.1): where
// the next cycle's node search begins. The engine records it with each cycle
// and sets it when a what-if re-runs one.
func nextStartNodeIndex(s *scheduler.Scheduler) (*int, error) {
	f := reflect.ValueOf(s).Elem().FieldByName("nextStartNodeIndex")
	if !f.IsValid() || f.Kind() != reflect.Int {
		return nil, errors.New("scheduler has no nextStartNodeIndex field of type int; the pinned kube-scheduler changed (see engine/upstream.go)")
	}
	return (*int)(unsafe.Pointer(f.UnsafeAddr())), nil
}

// frameworkStruct is the struct behind a profile's framework
// (runtime.frameworkImpl, pkg/scheduler/framework/runtime, v1.37.1).
func frameworkStruct(fw framework.Framework) (reflect.Value, error) {
	v := reflect.ValueOf(fw)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, fmt.Errorf("unexpected framework type %T", fw)
	}
	return v.Elem(), nil
}

// frameworkPluginFields are the private plugin slices of frameworkImpl
// (v1.37.1) the engine replaces with recording wrappers, one per extension
// point it records.
var frameworkPluginFields = []string{
	"preFilterPlugins", "filterPlugins", "postFilterPlugins", "preScorePlugins", "scorePlugins",
	"reservePlugins", "permitPlugins", "preBindPlugins", "bindPlugins", "postBindPlugins",
	// With TopologyAwareWorkloadScheduling (pod_group_placement.go).
	"placementGeneratePlugins", "placementScorePlugins",
}

// pluginSlice returns a pointer to the private slice field name of a
// framework's struct (one of frameworkPluginFields).
func pluginSlice[T any](v reflect.Value, name string) (*[]T, error) {
	f := v.FieldByName(name)
	if !f.IsValid() || f.Type() != reflect.TypeFor[[]T]() {
		return nil, fmt.Errorf("scheduler framework has no field %s of type %v; the pinned kube-scheduler changed (see engine/upstream.go)", name, reflect.TypeFor[[]T]())
	}
	return (*[]T)(unsafe.Pointer(f.UnsafeAddr())), nil
}

// informerTypes lists the object types a shared informer factory has
// informers for: the private sharedInformerFactory.informers map
// (client-go informers/factory.go, v0.37.1), keyed by reflect.Type. Live
// mode and snapshot read exactly what the scheduler watches.
func informerTypes(factory informers.SharedInformerFactory) ([]runtime.Object, error) {
	v := reflect.ValueOf(factory)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("unexpected informer factory %T", factory)
	}
	f := v.Elem().FieldByName("informers")
	if !f.IsValid() || f.Kind() != reflect.Map {
		return nil, errors.New("informer factory has no informers map; the pinned client-go changed (see engine/upstream.go)")
	}
	m := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	var out []runtime.Object
	for _, k := range m.MapKeys() {
		t, ok := k.Interface().(reflect.Type)
		if !ok || t.Kind() != reflect.Pointer {
			continue
		}
		if obj, ok := reflect.New(t.Elem()).Interface().(runtime.Object); ok {
			out = append(out, obj)
		}
	}
	return out, nil
}

// numFeasibleNodesToFind is a copy of the scheduler's private
// schedulerPrivate.numFeasibleNodesToFind (pkg/scheduler/schedule_one.go,
// v1.37.1) with its constants minFeasibleNodesToFind (100) and
// minFeasibleNodesPercentageToFind (5): how many feasible nodes a search of
// numAll nodes stops after, for a percentageOfNodesToScore of pct (0:
// adaptive). It is only recorded (NodesToFind), never used to decide.
func numFeasibleNodesToFind(numAll int, pct int32) int {
	const minNodes, minPct = 100, 5
	if numAll < minNodes {
		return numAll
	}
	if pct == 0 {
		pct = int32(50 - numAll/125)
		if pct < minPct {
			pct = minPct
		}
	}
	n := numAll * int(pct) / 100
	if n < minNodes {
		return minNodes
	}
	return n
}

// nominatedCounted lists the pods nominated to node that the filters counted
// there as if already running when they filtered pod: a copy of the rule of
// the private addGENominatedPods (pkg/scheduler/framework/runtime/
// framework.go, v1.37.1): a nominated pod counts when its priority is at
// least pod's and it is not pod itself. It is only recorded, to say why a
// node that looks roomy rejected pod, never used to decide.
func nominatedCounted(h fwk.Handle, pod *v1.Pod, node string) []recorder.PodRef {
	var out []recorder.PodRef
	for _, pi := range h.NominatedPodsForNode(node) {
		p := pi.GetPod()
		if corev1helpers.PodPriority(p) >= corev1helpers.PodPriority(pod) && p.UID != pod.UID {
			out = append(out, podRef(p))
		}
	}
	return out
}

// withNominated returns the cycle state and node the filters see on node with
// the nominated pods of nominatedCounted added, as the private
// addGENominatedPods (v1.37.1) builds them (each pod added to a snapshot of
// the node, and announced to the PreFilter extensions of a cloned state),
// and whether any was added. The diagnostic pass filters on it, so that it
// tells the same story as the scheduler's filters.
func withNominated(ctx context.Context, fw framework.Framework, pod *v1.Pod, state fwk.CycleState, node fwk.NodeInfo) (fwk.CycleState, fwk.NodeInfo, bool) {
	var added bool
	stateOut, nodeOut := state, node
	for _, pi := range fw.NominatedPodsForNode(node.Node().Name) {
		p := pi.GetPod()
		if corev1helpers.PodPriority(p) < corev1helpers.PodPriority(pod) || p.UID == pod.UID {
			continue
		}
		if !added {
			stateOut, nodeOut, added = state.Clone(), node.Snapshot(), true
		}
		nodeOut.AddPodInfo(pi)
		if st := fw.RunPreFilterExtensionAddPod(ctx, stateOut, pod, pi, nodeOut); !st.IsSuccess() {
			return state, node, false
		}
	}
	return stateOut, nodeOut, added
}

// queueingHintMap returns the QueueingHintFunctions the scheduling queue
// asks: the private PriorityQueue.queueingHintMap (pkg/scheduler/backend/
// queue/scheduling_queue.go, v1.37.1), built by scheduler.New from each
// plugin's EventsToRegister. Its values are pointers the queue keeps, so
// replacing a QueueingHintFn there wraps the function the queue calls.
func queueingHintMap(q internalqueue.SchedulingQueue) (internalqueue.QueueingHintMapPerProfile, error) {
	pq, ok := q.(*internalqueue.PriorityQueue)
	if !ok {
		return nil, fmt.Errorf("unexpected scheduling queue %T", q)
	}
	f := reflect.ValueOf(pq).Elem().FieldByName("queueingHintMap")
	if !f.IsValid() || f.Type() != reflect.TypeFor[internalqueue.QueueingHintMapPerProfile]() {
		return nil, errors.New("scheduling queue has no queueingHintMap field of type QueueingHintMapPerProfile; the pinned kube-scheduler changed (see engine/upstream.go)")
	}
	return *(*internalqueue.QueueingHintMapPerProfile)(unsafe.Pointer(f.UnsafeAddr())), nil
}

// preEnqueuePlugins returns the PreEnqueue plugins the scheduling queue
// runs: the private PriorityQueue.preEnqueuePluginMap (pkg/scheduler/
// backend/queue/scheduling_queue.go, v1.37.1), by profile and plugin name,
// which scheduler.New fills from each profile's PreEnqueuePlugins. The queue
// reads its values each time it runs them, so replacing one wraps the
// plugin the queue calls.
func preEnqueuePlugins(q internalqueue.SchedulingQueue) (map[string]map[string]fwk.PreEnqueuePlugin, error) {
	pq, ok := q.(*internalqueue.PriorityQueue)
	if !ok {
		return nil, fmt.Errorf("unexpected scheduling queue %T", q)
	}
	f := reflect.ValueOf(pq).Elem().FieldByName("preEnqueuePluginMap")
	if !f.IsValid() || f.Type() != reflect.TypeFor[map[string]map[string]fwk.PreEnqueuePlugin]() {
		return nil, errors.New("scheduling queue has no preEnqueuePluginMap field of type map[string]map[string]PreEnqueuePlugin; the pinned kube-scheduler changed (see engine/upstream.go)")
	}
	return *(*map[string]map[string]fwk.PreEnqueuePlugin)(unsafe.Pointer(f.UnsafeAddr())), nil
}

// queueLogVerbosity is the verbosity of the scheduling queue's lines about
// moves (v1.37.1: V(5), and V(3) for a failed pod's requeue).
const queueLogVerbosity = 5

// The scheduling queue's log lines the engine reads (pkg/scheduler/backend/
// queue, v1.37.1), with their keys: "entity" or "pod" (a klog.ObjectRef),
// "event" (a ClusterEvent label) and "queue" (Active, Backoff, Unschedulable).
const (
	// activeQueue.add, backoffQueue.add: the entity is now in "queue".
	logMoved = "Entity moved to an internal scheduling queue"
	// moveToActiveQ, moveToBackoffQ: PreEnqueue gated the entity.
	logMovedGated = "Entity moved to an internal scheduling queue, because it is gated"
	// PriorityQueue.Update: an updated pod moved.
	logMovedUpdated = "Entity moved to an internal scheduling queue because the Pod is updated"
	// AddUnschedulablePodIfNotPresent: where a failed pod went; the engine
	// reads it only for the unschedulable pods (other queues log logMoved).
	logRequeued = "Pod moved to an internal scheduling queue"
	// moveEntitiesToActiveOrBackoffQueue: every hint said QueueSkip.
	logNotMoved = "Event is not making entity schedulable"
	// determineSchedulingHintForInFlightPod: the event whose hints follow.
	logChecking = "Checking event for in-flight pod"
)

// groupKeyPrefix keeps a pod group's queue key apart from a pod's of the same name.
const groupKeyPrefix = "podgroup:"

// queueLog is one line of the queue's log, read.
type queueLog struct {
	key, queue, event string
	gated             bool
	// group: the entity is a pod group ("type" podgroup or
	// compositepodgroup, v1.37.1), its key prefixed with groupKeyPrefix.
	group bool
	// skipped: the event left the pod where it was; checking: the hints
	// asked next are for event.
	skipped, checking bool
}

// parseQueueLog reads a line of the scheduling queue's log the engine
// follows; ok is false for every other line.
func parseQueueLog(msg string, kv []any) (l queueLog, ok bool) {
	switch msg {
	case logMoved, logMovedGated, logMovedUpdated, logRequeued, logNotMoved, logChecking:
	default:
		return l, false
	}
	for i := 0; i+1 < len(kv); i += 2 {
		k, _ := kv[i].(string)
		switch k {
		case "entity", "pod":
			if k == "pod" && msg == logMovedUpdated {
				continue // the entity is what moved
			}
			switch v := kv[i+1].(type) {
			case klog.ObjectRef:
				l.key = v.Namespace + "/" + v.Name
			case klog.KMetadata:
				l.key = v.GetNamespace() + "/" + v.GetName()
			}
		case "type":
			t := fmt.Sprint(kv[i+1])
			l.group = t == string(fwk.PodGroupKeyType) || t == string(fwk.CompositePodGroupKeyType)
		case "queue":
			l.queue, _ = kv[i+1].(string)
		case "event":
			l.event = fmt.Sprint(kv[i+1])
		}
	}
	if l.group && l.key != "" {
		l.key = groupKeyPrefix + l.key
	}
	l.gated = msg == logMovedGated
	l.skipped = msg == logNotMoved
	l.checking = msg == logChecking
	if msg == logRequeued && l.queue != recorder.QueueUnschedulable {
		return l, false
	}
	return l, l.key != "" || l.checking
}

// newInformerFactory is scheduler.NewInformerFactory (pkg/scheduler/
// scheduler.go, v1.37.1) over client: a shared informer factory whose pod
// informer is kube-scheduler's, as the private newPodInformer builds it
// (every namespace, no indexers, the field selector
// status.phase!=Succeeded,status.phase!=Failed, managedFields dropped by a
// transform), except for where its initial list comes from. A list at
// resourceVersion "0" with no label selector is list() (the in-memory API
// server's stored objects themselves, store.podList); any other goes
// through client, as upstream's does.
//
// Why: the typed client returns a PodList, which holds its pods by value.
// Filling it copied every stored pod, and the reflector then copied each
// item again into a new pod of its own (meta.ExtractListWithAlloc). For
// 40 000 pods that was 50 MB copied twice, under the collector's write
// barriers, on the path from start to the scheduler's first cycle, once per
// scheduler (a what-if runs two), and 50 MB more kept live. A list whose
// items are RawExtensions is taken as it is.
func newInformerFactory(client clientset.Interface, list func() runtime.Object) informers.SharedInformerFactory {
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0)
	factory.InformerFor(&v1.Pod{}, func(cs clientset.Interface, resync time.Duration) cache.SharedIndexInformer {
		selector := fmt.Sprintf("status.phase!=%v,status.phase!=%v", v1.PodSucceeded, v1.PodFailed)
		lw := &cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				opts.FieldSelector = selector
				if opts.ResourceVersion == "0" && opts.LabelSelector == "" && opts.Continue == "" {
					return list(), nil
				}
				return cs.CoreV1().Pods(metav1.NamespaceAll).List(ctx, opts)
			},
			WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				opts.FieldSelector = selector
				return cs.CoreV1().Pods(metav1.NamespaceAll).Watch(ctx, opts)
			},
		}
		informer := cache.NewSharedIndexInformerWithOptions(cache.ToListWatcherWithWatchListSemantics(lw, cs), &v1.Pod{},
			cache.SharedIndexInformerOptions{ResyncPeriod: resync, Indexers: cache.Indexers{}})
		_ = informer.SetTransform(dropManagedFields)
		return informer
	})
	return factory
}

// dropManagedFields is newPodInformer's transform (v1.37.1): an object
// arrives without .metadata.managedFields. Upstream's clears them on the
// object it is given, which here may be the store's own: one that has them
// is copied first.
func dropManagedFields(obj interface{}) (interface{}, error) {
	accessor, err := meta.Accessor(obj)
	if err != nil || accessor.GetManagedFields() == nil {
		return obj, nil
	}
	o, ok := obj.(runtime.Object)
	if !ok {
		return obj, nil
	}
	c := o.DeepCopyObject()
	if a, err := meta.Accessor(c); err == nil {
		a.SetManagedFields(nil)
	}
	return c, nil
}
