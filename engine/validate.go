package engine

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/core/limitrange"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/node/runtimeclass"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
	"k8s.io/kubernetes/pkg/registry/storage/csidriver"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
	"k8s.io/kubernetes/pkg/registry/storage/csistoragecapacity"
	"k8s.io/kubernetes/pkg/registry/storage/storageclass"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattachment"
)

// createStrategyMap holds create strategies by kind.
type createStrategyMap = map[schema.GroupKind]rest.RESTCreateStrategy

// createStrategies are the API server's own create strategies (the registry's
// PrepareForCreate and Validate, as kube-apiserver runs them on every create),
// by kind. A fixture object of a kind listed here is validated exactly as a
// real API server would validate it.
func createStrategies(namespaces corev1client.NamespaceInterface) createStrategyMap {
	return createStrategyMap{
		{Kind: "Pod"}:                                         pod.Strategy,
		{Kind: "Node"}:                                        node.Strategy,
		{Kind: "Namespace"}:                                   namespace.Strategy,
		{Kind: "PersistentVolume"}:                            persistentvolume.Strategy,
		{Kind: "PersistentVolumeClaim"}:                       persistentvolumeclaim.Strategy,
		{Kind: "Service"}:                                     service.Strategy,
		{Kind: "ReplicationController"}:                       replicationcontroller.Strategy,
		{Kind: "LimitRange"}:                                  limitrange.Strategy,
		{Group: "apps", Kind: "ReplicaSet"}:                   replicaset.Strategy,
		{Group: "apps", Kind: "StatefulSet"}:                  statefulset.Strategy,
		{Group: "policy", Kind: "PodDisruptionBudget"}:        poddisruptionbudget.Strategy,
		{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:   priorityclass.Strategy,
		{Group: "node.k8s.io", Kind: "RuntimeClass"}:          runtimeclass.Strategy,
		{Group: "storage.k8s.io", Kind: "StorageClass"}:       storageclass.Strategy,
		{Group: "storage.k8s.io", Kind: "CSINode"}:            csinode.Strategy,
		{Group: "storage.k8s.io", Kind: "CSIDriver"}:          csidriver.Strategy,
		{Group: "storage.k8s.io", Kind: "CSIStorageCapacity"}: csistoragecapacity.Strategy,
		{Group: "storage.k8s.io", Kind: "VolumeAttachment"}:   volumeattachment.Strategy,
		{Group: "resource.k8s.io", Kind: "DeviceClass"}:       deviceclass.Strategy,
		{Group: "resource.k8s.io", Kind: "DeviceTaintRule"}:   devicetaintrule.Strategy,
		{Group: "resource.k8s.io", Kind: "ResourceSlice"}:     resourceslice.Strategy,
		// Claims ask the namespace only when they request admin access.
		{Group: "resource.k8s.io", Kind: "ResourceClaim"}:         resourceclaim.NewStrategy(namespaces, nil),
		{Group: "resource.k8s.io", Kind: "ResourceClaimTemplate"}: resourceclaimtemplate.NewStrategy(namespaces),
	}
}

// validateCreate runs the API server's create path (rest.BeforeCreate: the
// kind's PrepareForCreate, its validation and the common metadata checks) on
// a copy of obj converted to the internal version, and returns the first
// error as one line. obj itself is not changed.
func validateCreate(strategies createStrategyMap, obj runtime.Object) error {
	_, err := beforeCreate(strategies, obj.DeepCopyObject())
	return err
}

// restoreStatus copies before's status field onto obj, for any kind.
func restoreStatus(obj, before runtime.Object) {
	dst := reflect.ValueOf(obj).Elem().FieldByName("Status")
	src := reflect.ValueOf(before).Elem().FieldByName("Status")
	if dst.IsValid() && src.IsValid() && dst.CanSet() && dst.Type() == src.Type() {
		dst.Set(src)
	}
}

// beforeCreate converts obj to the internal version and runs
// rest.BeforeCreate on it; it returns the internal object, or nil for a kind
// with no strategy here.
func beforeCreate(strategies createStrategyMap, obj runtime.Object) (runtime.Object, error) {
	gvks, _, err := legacyscheme.Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return nil, fmt.Errorf("unknown type %T", obj)
	}
	gvk := gvks[0]
	strategy, ok := strategies[gvk.GroupKind()]
	if !ok {
		return nil, nil
	}
	internal, err := legacyscheme.Scheme.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", gvk.Kind, err)
	}
	if err := legacyscheme.Scheme.Convert(obj, internal, nil); err != nil {
		return nil, fmt.Errorf("%s: %v", gvk.Kind, err)
	}
	m, err := metaOf(obj)
	if err != nil {
		return nil, err
	}
	if err := runBeforeCreate(strategy, gvk, m, internal); err != nil {
		return nil, err
	}
	return internal, nil
}

// runBeforeCreate runs rest.BeforeCreate (the strategy's PrepareForCreate,
// its validation and the common metadata checks) on an internal object, in
// the request context kube-apiserver would give it.
func runBeforeCreate(strategy rest.RESTCreateStrategy, gvk schema.GroupVersionKind, m *metav1.ObjectMeta, internal runtime.Object) error {
	ns := ""
	if strategy.NamespaceScoped() {
		ns = m.Namespace
	}
	ctx := genericapirequest.WithNamespace(context.Background(), ns)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: "create",
		APIGroup: gvk.Group, APIVersion: gvk.Version, Namespace: ns, Name: m.Name})
	if err := rest.BeforeCreate(strategy, ctx, internal); err != nil {
		return firstCause(gvk.Kind, m.Name, err)
	}
	return nil
}

// firstCause words the first field error of an Invalid error as one line,
// e.g. `Pod "web": spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0`.
func firstCause(kind, name string, err error) error {
	var st apierrors.APIStatus
	if s, ok := err.(apierrors.APIStatus); ok {
		st = s
	}
	if st != nil && st.Status().Details != nil && len(st.Status().Details.Causes) > 0 {
		c := st.Status().Details.Causes[0]
		msg := c.Message
		if c.Field != "" {
			msg = c.Field + ": " + msg
		}
		if n := len(st.Status().Details.Causes); n > 1 {
			msg += fmt.Sprintf(" (and %d more)", n-1)
		}
		return fmt.Errorf("%s %q is invalid: %s", kind, name, strings.Join(strings.Fields(msg), " "))
	}
	return fmt.Errorf("%s %q is invalid: %s", kind, name, oneLine(err))
}

// checkBoundNode reports a pod bound to a node the fixture does not hold: the
// API server accepts it, but no kubelet would ever run it, so it is a mistake.
func checkBoundNode(p *v1.Pod, nodes map[string]bool) error {
	if p.Spec.NodeName == "" || nodes[p.Spec.NodeName] {
		return nil
	}
	return fmt.Errorf("pod %s/%s: spec.nodeName: node %q is not in the fixture", p.Namespace, p.Name, p.Spec.NodeName)
}
