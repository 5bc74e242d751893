package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/yaml"

	"github.com/schedscope/schedscope/engine/anonymize"
	"github.com/schedscope/schedscope/engine/cluster"
	"github.com/schedscope/schedscope/engine/scrub"
)

// Snapshot reads, through r, everything a scheduler with opts reads from the
// cluster and returns it as a fixture manifest that sim and explain accept:
// running pods before pending ones, pending pods in the order the scheduling
// queue takes them (priority, then age). Each object keeps only the fields
// the scheduler reads, from an allow-list per kind (engine/scrub). Secrets and
// ConfigMaps are never read. With anon, what names the cluster is replaced
// by stand-ins that keep every decision (engine/anonymize).
func Snapshot(ctx context.Context, r *cluster.Reader, opts *Options, timeout time.Duration, anon bool) ([]byte, error) {
	gvrs, err := SnapshotResources(ctx, opts)
	if err != nil {
		return nil, err
	}
	access, err := r.CheckAccess(ctx, gvrs)
	if err != nil {
		return nil, err
	}
	factory := r.InformerFactory(0)
	listers := map[schema.GroupVersionResource]cache.GenericLister{}
	var synced []cache.InformerSynced
	for _, gvr := range access.Resources {
		gi, err := factory.ForResource(gvr)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", cluster.ResourceName(gvr), err)
		}
		listers[gvr] = gi.Lister()
		synced = append(synced, gi.Informer().HasSynced)
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	// Stop the informers, then wait for them: Shutdown waits until they end.
	defer factory.Shutdown()
	defer cancel()
	factory.Start(sctx.Done())
	if !cache.WaitForCacheSync(sctx.Done(), synced...) {
		return nil, fmt.Errorf("reading the cluster did not finish within %v", timeout)
	}

	var running, pending, rest []runtime.Object
	for _, gvr := range access.Resources {
		items, err := listers[gvr].List(labels.Everything())
		if err != nil {
			return nil, err
		}
		for _, obj := range items {
			obj = obj.DeepCopyObject()
			if !keep(obj) {
				continue
			}
			switch p, ok := obj.(*v1.Pod); {
			case ok && p.Spec.NodeName == "":
				pending = append(pending, obj)
			case ok:
				running = append(running, obj)
			default:
				rest = append(rest, obj)
			}
		}
	}
	byName := func(objs []runtime.Object) {
		sort.SliceStable(objs, func(i, j int) bool { return objectKey(objs[i]) < objectKey(objs[j]) })
	}
	byName(rest)
	byName(running)
	// Pending pods in the order the scheduling queue pops them: higher priority
	// first, then older first.
	sort.SliceStable(pending, func(i, j int) bool {
		a, b := pending[i].(*v1.Pod), pending[j].(*v1.Pod)
		if pa, pb := priorityOf(a), priorityOf(b); pa != pb {
			return pa > pb
		}
		if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
			return a.CreationTimestamp.Before(&b.CreationTimestamp)
		}
		return objectKey(a) < objectKey(b)
	})
	var body bytes.Buffer
	unknown := map[string]bool{}
	objs := append(append(rest, running...), pending...)
	var dropped []string
	if anon {
		var m *anonymize.Map
		objs, m = anonymize.Objects(objs)
		dropped = m.Dropped()
	}
	for _, obj := range objs {
		obj, known := scrub.Object(obj)
		if obj == nil {
			continue
		}
		if err := setTypeMeta(obj); err != nil {
			return nil, err
		}
		if !known {
			unknown[obj.GetObjectKind().GroupVersionKind().Kind] = true
		}
		p, isPod := obj.(*v1.Pod)
		data, err := marshalSnapshot(obj, isPod && p.Spec.NodeName != "")
		if err != nil {
			return nil, err
		}
		body.WriteString("---\n")
		body.Write(data)
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# Snapshot of what the scheduler reads, taken by schedscope %s on %s.\n", Version, time.Now().UTC().Format(time.RFC3339))
	buf.WriteString("# Running pods first, then pending pods in the order the scheduling queue takes them\n# (priority, then age); replay with\n#   kubectl schedscope sim -f FILE\n")
	buf.WriteString("# Running pods are written one per line as JSON, which YAML reads as it is, so that the\n# snapshot of a large cluster loads faster.\n")
	if anon {
		buf.WriteString(anonymize.Header)
		if len(dropped) > 0 {
			fmt.Fprintf(&buf, "# Left out (kinds schedscope cannot anonymize): %s.\n", strings.Join(dropped, ", "))
		}
	}
	buf.WriteString("# Only fields the scheduler reads are kept: no environment, commands, secrets,\n# volume attributes, storage class parameters or annotations beyond the volume binder's.\n")
	if len(unknown) > 0 {
		kinds := make([]string, 0, len(unknown))
		for k := range unknown {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		fmt.Fprintf(&buf, "# Kept only the names and labels of %s (schedscope does not know which of their fields the scheduler reads).\n", strings.Join(kinds, ", "))
	}
	buf.Write(body.Bytes())
	return buf.Bytes(), nil
}

// marshalSnapshot writes one object of a snapshot: as YAML, or, asJSON, as
// one line of JSON. A snapshot of a large cluster is nearly all running
// pods, and converting YAML to JSON was the largest single cost of loading
// one (a 40 000-pod snapshot: 3.4 of 16 s of CPU).
func marshalSnapshot(obj runtime.Object, asJSON bool) ([]byte, error) {
	if !asJSON {
		return yaml.Marshal(obj)
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// snapshotExtras are read by admission rather than by the scheduler, and a
// fixture needs them to admit its pods as the cluster did.
var snapshotExtras = []schema.GroupVersionResource{
	{Group: "scheduling.k8s.io", Version: "v1", Resource: "priorityclasses"},
	{Group: "node.k8s.io", Version: "v1", Resource: "runtimeclasses"},
	{Group: "", Version: "v1", Resource: "limitranges"},
}

// SnapshotResources lists what Snapshot reads: what the scheduler reads, and
// the classes and limits admission applied to the pods.
func SnapshotResources(ctx context.Context, opts *Options) ([]schema.GroupVersionResource, error) {
	gvrs, err := ReadResources(ctx, opts)
	if err != nil {
		return nil, err
	}
	gvrs = append(gvrs, snapshotExtras...)
	cluster.SortResources(gvrs)
	return gvrs, nil
}

func priorityOf(p *v1.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

func objectKey(obj runtime.Object) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%T/%s/%s", obj, m.GetNamespace(), m.GetName())
}

func setTypeMeta(obj runtime.Object) error {
	gvks, _, err := clientgoscheme.Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return fmt.Errorf("unknown type %T", obj)
	}
	obj.GetObjectKind().SetGroupVersionKind(gvks[0])
	return nil
}

// keep reports whether obj belongs in a fixture: finished pods and pending pods
// being deleted do not.
func keep(obj runtime.Object) bool {
	if o, ok := obj.(*v1.Pod); ok {
		return o.Status.Phase != v1.PodSucceeded && o.Status.Phase != v1.PodFailed && (o.DeletionTimestamp == nil || o.Spec.NodeName != "")
	}
	return true
}
