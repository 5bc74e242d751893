package engine

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
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

// defaultTolerationSeconds is what the DefaultTolerationSeconds admission plugin adds.
var defaultTolerationSeconds = int64(300)

// fixtureEpoch is the creation time given to fixture objects, so runs are repeatable.
var fixtureEpoch = metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))

// admit does to each object what the API server and its default admission plugins
// would before the scheduler sees it: defaulting, namespace, UID, creation time, pod
// priority from its PriorityClass, the default not-ready/unreachable tolerations,
// and a Pending status for pods that are not yet bound.
func admit(f *Fixture, objs []runtime.Object) error {
	classes := map[string]*schedulingv1.PriorityClass{}
	for _, pc := range builtinPriorityClasses() {
		classes[pc.Name] = pc
	}
	var globalDefault *schedulingv1.PriorityClass
	namespaces := map[string]bool{"default": true, "kube-system": true}
	var defaultStorageClass string
	limitRanges := map[string][]*v1.LimitRange{}
	runtimeClasses := map[string]*nodev1.RuntimeClass{}
	nodes := map[string]bool{}
	var nsObjs []runtime.Object
	for _, o := range objs {
		switch o := o.(type) {
		case *v1.Node:
			nodes[o.Name] = true
		case *v1.LimitRange:
			legacyscheme.Scheme.Default(o)
			ns := o.Namespace
			if ns == "" {
				ns = metav1.NamespaceDefault
			}
			limitRanges[ns] = append(limitRanges[ns], o)
		case *nodev1.RuntimeClass:
			runtimeClasses[o.Name] = o
		case *schedulingv1.PriorityClass:
			classes[o.Name] = o
			if o.GlobalDefault {
				globalDefault = o
			}
		case *v1.Namespace:
			namespaces[o.Name] = true
			nsObjs = append(nsObjs, o)
		case *storagev1.StorageClass:
			if o.Annotations["storageclass.kubernetes.io/is-default-class"] == "true" {
				defaultStorageClass = o.Name
			}
		}
	}
	strategies := createStrategies(fake.NewSimpleClientset(nsObjs...).CoreV1().Namespaces())
	seen := map[string]int{}
	for i, o := range objs {
		fail := func(err error) error { return &objectError{index: i, err: err} }
		legacyscheme.Scheme.Default(o)
		m, err := metaOf(o)
		if err != nil {
			return fail(err)
		}
		kind := fmt.Sprintf("%T", o)
		if namespaced(o) && m.Namespace == "" {
			m.Namespace = metav1.NamespaceDefault
		}
		if m.Name == "" {
			return fail(fmt.Errorf("%s: metadata.name is required", kindName(o)))
		}
		key := kind + "/" + m.Namespace + "/" + m.Name
		if first, dup := seen[key]; dup {
			return fail(fmt.Errorf("%s %q is defined twice (first as object %d)", kindName(o), strings.TrimPrefix(m.Namespace+"/"+m.Name, "/"), first+1))
		}
		seen[key] = i
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
		switch o := o.(type) {
		case *v1.Pod:
			if namespaced(o) && !namespaces[o.Namespace] {
				f.Warnings = append(f.Warnings, fmt.Sprintf("pod %s/%s: namespace %q is not defined in the fixture; it is created implicitly", o.Namespace, o.Name, o.Namespace))
				namespaces[o.Namespace] = true
				f.Objects = append(f.Objects, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: o.Namespace, UID: types.UID("ns-" + o.Namespace), CreationTimestamp: fixtureEpoch, ResourceVersion: "1"}})
			}
			if o.Spec.NodeName == "" {
				// LimitRanger and RuntimeClass act on creation, before the
				// scheduler; running pods in a fixture were created long ago.
				admitLimitRanger(o, limitRanges[o.Namespace])
				if err := admitRuntimeClass(o, runtimeClasses); err != nil {
					return fail(err)
				}
			}
			if err := admitPod(o, classes, globalDefault); err != nil {
				return fail(err)
			}
			if err := checkBoundNode(o, nodes); err != nil {
				return fail(err)
			}
			if err := prepareCreate(strategies, o); err != nil {
				return fail(err)
			}
			if o.Spec.NodeName == "" {
				f.Pending = append(f.Pending, o)
				continue
			}
			if o.Status.Phase == "" {
				o.Status.Phase = v1.PodRunning
			}
		case *v1.PersistentVolumeClaim:
			if o.Spec.StorageClassName == nil && defaultStorageClass != "" {
				sc := defaultStorageClass
				o.Spec.StorageClassName = &sc
			}
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
		if _, isPod := o.(*v1.Pod); !isPod {
			if err := prepareCreate(strategies, o); err != nil {
				return fail(err)
			}
		}
		f.Objects = append(f.Objects, o)
	}
	for _, pc := range builtinPriorityClasses() {
		if _, ok := seen[fmt.Sprintf("%T", pc)+"//"+pc.Name]; !ok {
			pc.UID = types.UID("pc-" + pc.Name)
			pc.CreationTimestamp = fixtureEpoch
			pc.ResourceVersion = "1"
			f.Objects = append(f.Objects, pc)
		}
	}
	return nil
}

// admitPod applies the Priority and DefaultTolerationSeconds admission plugins.
func admitPod(p *v1.Pod, classes map[string]*schedulingv1.PriorityClass, globalDefault *schedulingv1.PriorityClass) error {
	var pc *schedulingv1.PriorityClass
	switch {
	case p.Spec.PriorityClassName != "":
		pc = classes[p.Spec.PriorityClassName]
		if pc == nil {
			return fmt.Errorf("pod %s/%s: spec.priorityClassName: no PriorityClass with name %q was found", p.Namespace, p.Name, p.Spec.PriorityClassName)
		}
	case globalDefault != nil:
		pc = globalDefault
		p.Spec.PriorityClassName = pc.Name
	}
	priority := int32(0)
	policy := v1.PreemptLowerPriority
	if pc != nil {
		priority = pc.Value
		if pc.PreemptionPolicy != nil {
			policy = *pc.PreemptionPolicy
		}
	}
	if p.Spec.Priority != nil && *p.Spec.Priority != priority {
		return fmt.Errorf("pod %s/%s: spec.priority %d does not match the value %d of its priority class; omit spec.priority", p.Namespace, p.Name, *p.Spec.Priority, priority)
	}
	p.Spec.Priority = &priority
	if p.Spec.PreemptionPolicy == nil {
		p.Spec.PreemptionPolicy = &policy
	}
	addToleration(p, v1.TaintNodeNotReady)
	addToleration(p, v1.TaintNodeUnreachable)
	if p.Spec.NodeName == "" {
		p.Status = v1.PodStatus{Phase: v1.PodPending}
	}
	return nil
}

func addToleration(p *v1.Pod, key string) {
	for _, t := range p.Spec.Tolerations {
		if (t.Key == key || t.Key == "" && t.Operator == v1.TolerationOpExists) &&
			(t.Effect == v1.TaintEffectNoExecute || t.Effect == "") {
			return
		}
	}
	p.Spec.Tolerations = append(p.Spec.Tolerations, v1.Toleration{
		Key:               key,
		Operator:          v1.TolerationOpExists,
		Effect:            v1.TaintEffectNoExecute,
		TolerationSeconds: &defaultTolerationSeconds,
	})
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

// admitLimitRanger gives containers the default requests and limits of the
// namespace's LimitRanges (type Container), as the LimitRanger admission
// plugin does for every new pod.
func admitLimitRanger(p *v1.Pod, ranges []*v1.LimitRange) {
	if len(ranges) == 0 {
		return
	}
	requests, limits := v1.ResourceList{}, v1.ResourceList{}
	for _, lr := range ranges {
		for _, item := range lr.Spec.Limits {
			if item.Type != v1.LimitTypeContainer {
				continue
			}
			for k, v := range item.DefaultRequest {
				requests[k] = v.DeepCopy()
			}
			for k, v := range item.Default {
				limits[k] = v.DeepCopy()
			}
		}
	}
	merge := func(c *v1.Container) {
		if c.Resources.Limits == nil {
			c.Resources.Limits = v1.ResourceList{}
		}
		if c.Resources.Requests == nil {
			c.Resources.Requests = v1.ResourceList{}
		}
		for k, v := range limits {
			if _, ok := c.Resources.Limits[k]; !ok {
				c.Resources.Limits[k] = v.DeepCopy()
			}
		}
		for k, v := range requests {
			if _, ok := c.Resources.Requests[k]; !ok {
				c.Resources.Requests[k] = v.DeepCopy()
			}
		}
	}
	for i := range p.Spec.Containers {
		merge(&p.Spec.Containers[i])
	}
	for i := range p.Spec.InitContainers {
		merge(&p.Spec.InitContainers[i])
	}
}

// admitRuntimeClass applies the RuntimeClass admission plugin: the class's pod
// overhead, and its node selector and tolerations for scheduling.
func admitRuntimeClass(p *v1.Pod, classes map[string]*nodev1.RuntimeClass) error {
	if p.Spec.RuntimeClassName == nil || *p.Spec.RuntimeClassName == "" {
		return nil
	}
	rc := classes[*p.Spec.RuntimeClassName]
	if rc == nil {
		return fmt.Errorf("pod %s/%s: spec.runtimeClassName: RuntimeClass %q not found", p.Namespace, p.Name, *p.Spec.RuntimeClassName)
	}
	if rc.Overhead != nil && p.Spec.Overhead == nil {
		p.Spec.Overhead = rc.Overhead.PodFixed.DeepCopy()
	}
	if rc.Scheduling != nil {
		for k, v := range rc.Scheduling.NodeSelector {
			if cur, ok := p.Spec.NodeSelector[k]; ok && cur != v {
				return fmt.Errorf("pod %s/%s: nodeSelector %s=%s conflicts with RuntimeClass %q (%s=%s)", p.Namespace, p.Name, k, cur, rc.Name, k, v)
			}
			if p.Spec.NodeSelector == nil {
				p.Spec.NodeSelector = map[string]string{}
			}
			p.Spec.NodeSelector[k] = v
		}
		for _, t := range rc.Scheduling.Tolerations {
			if !slices.ContainsFunc(p.Spec.Tolerations, func(x v1.Toleration) bool { return x.MatchToleration(&t) }) {
				p.Spec.Tolerations = append(p.Spec.Tolerations, t)
			}
		}
	}
	return nil
}
