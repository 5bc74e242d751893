package engine

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
)

// DeleteAnnotation, set to "true" on a document that follows a pending pod
// and names an object (kind, metadata.name, metadata.namespace and nothing
// else), deletes that object at that point of the fixture's timeline.
const DeleteAnnotation = "schedscope.io/delete"

// A fixture is a timeline: the objects before its first pending pod (and
// every pod bound to a node) are the cluster the scheduler starts with; each
// document after it arrives in document order, once the scheduler has
// settled on what came before: a pending pod, or a Step changing another
// object.

// StepOp is what a Step does to the cluster.
type StepOp string

// What a later document does: create an object, replace the one of the
// same kind, namespace and name (an update, as kubectl replace sends), or
// delete it (DeleteAnnotation).
const (
	StepCreate  StepOp = "create"
	StepReplace StepOp = "replace"
	StepDelete  StepOp = "delete"
)

// A Step is a document that follows a pending pod and is not one: an
// object created, replaced or deleted mid-run.
type Step struct {
	Op StepOp
	// Object is the object as admitted (created or replacing), or, for a
	// delete, the object deleted as it stood.
	Object runtime.Object
	// After counts the fixture's pending pods that arrive before the step.
	After int
	// Source names the document: "file:line", or "document N".
	Source string
	index  int // of the object in the fixture's documents, after replicas
}

// String describes the step in a few words, e.g. `create Node "n4"`.
func (s Step) String() string {
	name := ""
	if m, err := metaOf(s.Object); err == nil {
		name = m.Name
		if namespaced(s.Object) {
			name = m.Namespace + "/" + name
		}
	}
	return fmt.Sprintf("%s %s %q", s.Op, kindName(s.Object), name)
}

// deleteMark reports whether o is a deletion: it carries DeleteAnnotation.
func deleteMark(o runtime.Object) bool {
	m, err := metaOf(o)
	if err != nil {
		return false
	}
	_, ok := m.Annotations[DeleteAnnotation]
	return ok
}

// pendingPod reports whether o is a pod to be scheduled (not a deletion).
func pendingPod(o runtime.Object) bool {
	p, ok := o.(*v1.Pod)
	return ok && p.Spec.NodeName == "" && !deleteMark(o)
}

// initialObject reports whether the object at index i of a fixture, whose
// first pending pod is at split, belongs to the cluster the run starts with.
func initialObject(o runtime.Object, i, split int) bool {
	if i < split {
		return true
	}
	p, ok := o.(*v1.Pod)
	return ok && p.Spec.NodeName != "" && !deleteMark(o)
}

// checkAnnotations refuses a schedscope.io/ annotation schedscope does not
// know (a misspelt delete would otherwise replace the object with an empty
// one), and a delete annotation whose value is not "true".
func checkAnnotations(o runtime.Object, i, split int) error {
	m, err := metaOf(o)
	if err != nil {
		return err
	}
	for k, v := range m.Annotations {
		switch {
		case k == DeleteAnnotation:
			if v != "true" {
				return fmt.Errorf("%s %q: metadata.annotations[%s]: want \"true\", got %q", kindName(o), m.Name, DeleteAnnotation, v)
			}
			if i < split {
				return fmt.Errorf("%s %q: metadata.annotations[%s]: a deletion must follow a pending pod; the documents before the first pending pod are the cluster the run starts with", kindName(o), m.Name, DeleteAnnotation)
			}
		case strings.HasPrefix(k, "schedscope.io/"):
			return fmt.Errorf("%s %q: metadata.annotations[%s]: unknown schedscope annotation (known: %s, %s)", kindName(o), m.Name, k, DeleteAnnotation, ReplicasAnnotation)
		}
	}
	return nil
}

// checkDeleteBody refuses a deletion that states more than which object it
// deletes: a body with a spec, labels or status reads as a replacement, and
// deleting would silently drop what it says.
func checkDeleteBody(o runtime.Object) error {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return err
	}
	var extra []string
	for k, v := range u {
		switch k {
		case "apiVersion", "kind":
		case "metadata":
			md, _ := v.(map[string]any)
			for mk, mv := range md {
				switch mk {
				case "name", "namespace":
				case "annotations":
					if a, _ := mv.(map[string]any); len(a) > 1 {
						extra = append(extra, "metadata.annotations other than "+DeleteAnnotation)
					}
				default:
					if !emptyValue(mv) {
						extra = append(extra, "metadata."+mk)
					}
				}
			}
		default:
			if !emptyValue(v) {
				extra = append(extra, k)
			}
		}
	}
	if len(extra) == 0 {
		return nil
	}
	sort.Strings(extra)
	m, _ := metaOf(o)
	return fmt.Errorf("%s %q: a deletion (%s) names the object only, by kind, metadata.name and metadata.namespace; remove %s", kindName(o), m.Name, DeleteAnnotation, strings.Join(extra, ", "))
}

// emptyValue reports whether an unstructured value states nothing.
func emptyValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, x := range v {
			if !emptyValue(x) {
				return false
			}
		}
		return true
	case []any:
		return len(v) == 0
	case string:
		return v == ""
	case bool:
		return !v
	case int64:
		return v == 0
	case float64:
		return v == 0
	}
	return false
}

// replaceable reports whether a later document may replace an object of
// o's kind: the API server must have an update path for it here, and a pod
// is refused (see replacePod).
func replaceable(strats createStrategyMap, o runtime.Object) error {
	if _, ok := o.(*v1.Pod); ok {
		return errReplacePod
	}
	gvks, _, err := legacyscheme.Scheme.ObjectKinds(o)
	if err == nil && len(gvks) > 0 {
		if s, ok := strats[gvks[0].GroupKind()]; ok {
			if _, ok := s.(rest.RESTUpdateStrategy); ok {
				return nil
			}
		}
	}
	var kinds []string
	for gk, s := range strats {
		if _, ok := s.(rest.RESTUpdateStrategy); ok && gk.Kind != "Pod" {
			kinds = append(kinds, gk.Kind)
		}
	}
	slices.Sort(kinds)
	return fmt.Errorf("cannot be replaced by a later document (kinds that can be: %s)", strings.Join(kinds, ", "))
}

// errReplacePod explains why a pod is not replaced: the API server refuses
// almost every change to a pod's spec (its node, containers, requests,
// affinity), and a pod is rescheduled only by deleting and creating it.
var errReplacePod = errors.New("already exists: a pod's spec cannot be changed once created (kube-apiserver refuses such an update); delete it first (" + DeleteAnnotation + `: "true") and create it again`)

// statusStated reports whether o's status field says anything.
func statusStated(o runtime.Object) bool {
	s := reflect.ValueOf(o).Elem().FieldByName("Status")
	return s.IsValid() && !s.IsZero()
}

// apply makes a step's write to the in-memory API server, through the
// clientset's reactors as every other write (each is counted, and an
// update gets a new resourceVersion).
func (e *Engine) apply(s Step) error {
	gvks, _, err := clientgoscheme.Scheme.ObjectKinds(s.Object)
	if err != nil || len(gvks) == 0 {
		return fmt.Errorf("%s: unknown kind %T", s.Source, s.Object)
	}
	gvr, _ := meta.UnsafeGuessKindToResource(gvks[0])
	m, err := metaOf(s.Object)
	if err != nil {
		return err
	}
	var action clienttesting.Action
	switch s.Op {
	case StepCreate:
		action = clienttesting.NewCreateAction(gvr, m.Namespace, s.Object.DeepCopyObject())
	case StepReplace:
		// The update goes on from the stored object's resourceVersion, so
		// that a second replacement is newer than the first for caches that
		// compare versions (the volume binder's assume cache).
		obj := s.Object.DeepCopyObject()
		cur, err := e.client.Tracker().Get(gvr, m.Namespace, m.Name)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", s.Source, s, err)
		}
		if cm, err := metaOf(cur); err == nil {
			om, _ := metaOf(obj)
			om.ResourceVersion = cm.ResourceVersion
		}
		action = clienttesting.NewUpdateAction(gvr, m.Namespace, obj)
	case StepDelete:
		action = clienttesting.NewDeleteAction(gvr, m.Namespace, m.Name)
	default:
		return fmt.Errorf("%s: unknown step %q", s.Source, s.Op)
	}
	if _, err := e.client.Invokes(action, nil); err != nil {
		return fmt.Errorf("%s: %s: %w", s.Source, s, err)
	}
	return nil
}

// objectsEver lists every object the fixture creates at some point: the
// initial ones, then those its steps create, in order.
func (fx *Fixture) objectsEver() []runtime.Object {
	out := slices.Clip(fx.Objects)
	for _, s := range fx.Steps {
		if s.Op == StepCreate {
			out = append(out, s.Object)
		}
	}
	return out
}
