package engine

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
)

func metaName(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: name} }

// fixtureEpoch is the creation time given to fixture objects, so runs are repeatable.
var fixtureEpoch = metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))

// createRank orders a fixture's objects as a client creating them would
// (and as the end-to-end tests apply them): namespaces, then other objects,
// then running pods, then pending pods, each group in document order. The
// admission plugins see only what was created before an object.
func createRank(o runtime.Object) int {
	switch p := o.(type) {
	case *v1.Namespace:
		return 0
	case *v1.Pod:
		if p.Spec.NodeName == "" {
			return 3
		}
		return 2
	}
	return 1
}

// admit does to each object what kube-apiserver does on a create before the
// scheduler sees it: defaulting, namespace, UID, creation time, then its
// admission plugins and the kind's create strategy, run as upstream code
// (see admissionChain). Objects keep their document order. The objects
// before the first pending pod, and bound pods, are created first (see
// createRank); every later document then follows in document order, as a
// pending pod or a Step, each admitted on the cluster as it stands at that
// point (a replacement through the kind's update path).
func admit(f *Fixture, objs []runtime.Object) error {
	split := len(objs)
	for i, o := range objs {
		if pendingPod(o) {
			split = i
			break
		}
	}
	namespaces := map[string]bool{"default": true, "kube-system": true}
	nodes := map[string]bool{}
	var nsObjs []runtime.Object
	for i, o := range objs {
		if err := checkAnnotations(o, i, split); err != nil {
			return &objectError{index: i, err: err}
		}
		if !initialObject(o, i, split) {
			if ns, ok := o.(*v1.Namespace); ok && !deleteMark(o) {
				nsObjs = append(nsObjs, ns)
			}
			continue
		}
		switch o := o.(type) {
		case *v1.Node:
			nodes[o.Name] = true
		case *v1.Namespace:
			namespaces[o.Name] = true
			nsObjs = append(nsObjs, o)
		}
	}
	strategies := createStrategies(fake.NewSimpleClientset(nsObjs...).CoreV1().Namespaces())
	chain, err := newAdmissionChain(strategies)
	if err != nil {
		return err
	}
	defer chain.close()
	builtins := builtinPriorityClasses()
	live := map[string]runtime.Object{} // the cluster as the timeline stands
	for _, pc := range builtins {
		pc.UID = types.UID("pc-" + pc.Name)
		pc.CreationTimestamp = fixtureEpoch
		pc.ResourceVersion = "1"
		chain.known(pc)
		live[fmt.Sprintf("%T", pc)+"//"+pc.Name] = pc
	}
	var order, later []int
	for i, o := range objs {
		if initialObject(o, i, split) {
			order = append(order, i)
		} else {
			later = append(later, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return createRank(objs[a]) - createRank(objs[b]) })
	seen := map[string]int{}
	implicit := map[int][]runtime.Object{} // namespaces created for the object at an index
	// identify defaults o and gives it its namespace and key.
	identify := func(o runtime.Object) (*metav1.ObjectMeta, string, error) {
		legacyscheme.Scheme.Default(o)
		m, err := metaOf(o)
		if err != nil {
			return nil, "", err
		}
		if namespaced(o) && m.Namespace == "" {
			m.Namespace = metav1.NamespaceDefault
		}
		if m.Name == "" {
			return nil, "", fmt.Errorf("%s: metadata.name is required", kindName(o))
		}
		return m, fmt.Sprintf("%T", o) + "/" + m.Namespace + "/" + m.Name, nil
	}
	// create admits o as a new object.
	create := func(i int, o runtime.Object, m *metav1.ObjectMeta, key string) error {
		if m.UID == "" {
			sum := sha256.Sum256([]byte(key))
			m.UID = types.UID(fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16]))
		}
		if m.CreationTimestamp.IsZero() {
			m.CreationTimestamp = fixtureEpoch
		}
		if m.ResourceVersion == "" {
			m.ResourceVersion = "1"
		}
		if p, ok := o.(*v1.Pod); ok {
			if !namespaces[p.Namespace] {
				f.Warnings = append(f.Warnings, fmt.Sprintf("pod %s/%s: namespace %q is not defined in the fixture; it is created implicitly", p.Namespace, p.Name, p.Namespace))
				namespaces[p.Namespace] = true
				ns := &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: p.Namespace, UID: types.UID("ns-" + p.Namespace), CreationTimestamp: fixtureEpoch, ResourceVersion: "1"}}
				chain.known(ns)
				live[fmt.Sprintf("%T", ns)+"//"+ns.Name] = ns
				implicit[i] = append(implicit[i], ns)
			}
			if err := checkBoundNode(p, nodes); err != nil {
				return err
			}
		}
		if err := checkPodGroupKind(o); err != nil {
			return err
		}
		if err := chain.create(o); err != nil {
			return err
		}
		chain.known(o)
		live[key] = o
		switch o := o.(type) {
		case *v1.Namespace:
			namespaces[o.Name] = true
		case *v1.Pod:
			if o.Spec.NodeName != "" && o.Status.Phase == "" {
				o.Status.Phase = v1.PodRunning
			}
		case *v1.PersistentVolumeClaim:
			if o.Status.Phase == "" {
				o.Status.Phase = v1.ClaimPending
			}
		case *v1.Node:
			if o.Status.Allocatable == nil {
				f.Warnings = append(f.Warnings, fmt.Sprintf("node %s has no status.allocatable: the scheduler sees zero allocatable resources and zero pods", o.Name))
			} else if q, ok := o.Status.Allocatable[v1.ResourcePods]; !ok || q.IsZero() {
				f.Warnings = append(f.Warnings, fmt.Sprintf("node %s has no allocatable pods: no pod can fit on it", o.Name))
			}
		}
		return nil
	}
	for _, i := range order {
		o := objs[i]
		fail := func(err error) error { return &objectError{index: i, err: err} }
		m, key, err := identify(o)
		if err != nil {
			return fail(err)
		}
		if first, dup := seen[key]; dup {
			return fail(fmt.Errorf("%s %q is defined twice (first as object %d)", kindName(o), strings.TrimPrefix(m.Namespace+"/"+m.Name, "/"), first+1))
		}
		seen[key] = i
		if err := create(i, o, m, key); err != nil {
			return fail(err)
		}
	}
	steps := map[int]*Step{}
	for _, i := range later {
		o := objs[i]
		fail := func(err error) error { return &objectError{index: i, err: err} }
		if deleteMark(o) {
			if err := checkDeleteBody(o); err != nil {
				return fail(err)
			}
		}
		m, key, err := identify(o)
		if err != nil {
			return fail(err)
		}
		cur, exists := live[key]
		name := strings.TrimPrefix(m.Namespace+"/"+m.Name, "/")
		switch {
		case deleteMark(o):
			if !exists {
				return fail(fmt.Errorf("%s %q: %s: there is no %s %q at this point of the fixture (never created, or deleted before)", kindName(o), name, DeleteAnnotation, kindName(o), name))
			}
			delete(live, key)
			chain.forget(cur)
			if n, ok := cur.(*v1.Node); ok {
				delete(nodes, n.Name)
			}
			steps[i] = &Step{Op: StepDelete, Object: cur}
		case exists:
			if err := replaceable(strategies, o); err != nil {
				return fail(fmt.Errorf("%s %q %v", kindName(o), name, err))
			}
			if err := chain.update(o, cur); err != nil {
				return fail(err)
			}
			chain.known(o)
			live[key] = o
			steps[i] = &Step{Op: StepReplace, Object: o}
		default:
			if err := create(i, o, m, key); err != nil {
				return fail(err)
			}
			if n, ok := o.(*v1.Node); ok {
				nodes[n.Name] = true
			}
			if !pendingPod(o) {
				steps[i] = &Step{Op: StepCreate, Object: o}
			}
		}
	}
	for i, o := range objs {
		f.Objects = append(f.Objects, implicit[i]...)
		if c := steps[i]; c != nil {
			c.After, c.Source, c.index = len(f.Pending), fmt.Sprintf("document %d", i+1), i
			f.Steps = append(f.Steps, *c)
			continue
		}
		if pendingPod(o) {
			f.Pending = append(f.Pending, o.(*v1.Pod))
			continue
		}
		f.Objects = append(f.Objects, o)
	}
	for _, pc := range builtins {
		if _, ok := seen[fmt.Sprintf("%T", pc)+"//"+pc.Name]; !ok {
			f.Objects = append(f.Objects, pc)
		}
	}
	return nil
}

func metaOf(o runtime.Object) (*metav1.ObjectMeta, error) {
	type hasMeta interface{ GetObjectMeta() metav1.Object }
	if m, ok := o.(hasMeta); ok {
		if om, ok := m.GetObjectMeta().(*metav1.ObjectMeta); ok {
			return om, nil
		}
	}
	return nil, fmt.Errorf("%s has no object metadata", kindName(o))
}

func kindName(o runtime.Object) string {
	gvks, _, err := legacyscheme.Scheme.ObjectKinds(o)
	if err != nil || len(gvks) == 0 {
		return fmt.Sprintf("%T", o)
	}
	return gvks[0].Kind
}

// clusterScoped names the kinds, among those a fixture may hold, that have no namespace.
var clusterScoped = map[string]bool{
	"Node": true, "Namespace": true, "PersistentVolume": true, "PriorityClass": true,
	"StorageClass": true, "CSINode": true, "CSIDriver": true, "VolumeAttachment": true,
	"RuntimeClass": true, "DeviceClass": true, "ResourceSlice": true, "DeviceTaintRule": true,
	"ClusterRole": true, "ClusterRoleBinding": true,
}

func namespaced(o runtime.Object) bool { return !clusterScoped[kindName(o)] }
