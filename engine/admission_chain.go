package engine

import (
	"context"
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/kubeapiserver/options"
	"k8s.io/kubernetes/plugin/pkg/admission/defaulttolerationseconds"
	"k8s.io/kubernetes/plugin/pkg/admission/limitranger"
	"k8s.io/kubernetes/plugin/pkg/admission/priority"
	"k8s.io/kubernetes/plugin/pkg/admission/runtimeclass"
	"k8s.io/kubernetes/plugin/pkg/admission/storage/storageclass/setdefault"
)

// fixtureAdmission names the admission plugins, enabled by default in
// kube-apiserver, that change or refuse what a fixture can hold. They run
// as upstream code, in kube-apiserver's order (options.AllOrderedPlugins).
// Left out: NamespaceLifecycle (the loader creates a missing namespace and
// warns), ServiceAccount (it adds token volumes the scheduler ignores, and
// needs the account to exist), TaintNodesByCondition (fixture nodes are
// ready), and those for kinds a fixture cannot hold.
var fixtureAdmission = []string{
	limitranger.PluginName, priority.PluginName, defaulttolerationseconds.PluginName,
	setdefault.PluginName, runtimeclass.PluginName,
}

// admissionChain runs the upstream admission plugins on fixture objects as
// kube-apiserver runs them on a create: mutating admission, then the kind's
// create strategy (rest.BeforeCreate), then validating admission.
type admissionChain struct {
	chain   admission.Interface
	factory informers.SharedInformerFactory
	stop    chan struct{}
	objects admission.ObjectInterfaces
	strats  createStrategyMap
}

// newAdmissionChain builds the plugins over informers that hold nothing
// yet; each admitted object the plugins look up is added with known, so
// that an object sees only those created before it, as on a real API server.
func newAdmissionChain(strats createStrategyMap) (*admissionChain, error) {
	client := fake.NewSimpleClientset()
	c := &admissionChain{
		factory: informers.NewSharedInformerFactory(client, 0),
		stop:    make(chan struct{}),
		objects: admission.NewObjectInterfacesFromScheme(legacyscheme.Scheme),
		strats:  strats,
	}
	plugins := admission.NewPlugins()
	limitranger.Register(plugins)
	priority.Register(plugins)
	defaulttolerationseconds.Register(plugins)
	setdefault.Register(plugins)
	runtimeclass.Register(plugins)
	var names []string
	for _, n := range options.AllOrderedPlugins {
		if slices.Contains(fixtureAdmission, n) {
			names = append(names, n)
		}
	}
	if len(names) != len(fixtureAdmission) {
		return nil, fmt.Errorf("kube-apiserver's plugin order lacks one of %v; the pinned Kubernetes changed", fixtureAdmission)
	}
	init := initializer.New(client, nil, c.factory, nil, utilfeature.DefaultFeatureGate, nil, c.stop, nil)
	// As Plugins.NewFromPlugins builds the API server's chain, without its log lines.
	var handlers []admission.Interface
	for _, name := range names {
		h, err := plugins.InitPlugin(name, nil, init)
		if err != nil {
			return nil, fmt.Errorf("admission plugin %s: %w", name, err)
		}
		handlers = append(handlers, h)
	}
	c.chain = admission.NewChainHandler(handlers...)
	// The plugins asked for their informers while being initialized; with an
	// empty clientset they sync at once.
	c.factory.Start(c.stop)
	c.factory.WaitForCacheSync(c.stop)
	return c, nil
}

func (c *admissionChain) close() { close(c.stop) }

// known makes an admitted object visible to the plugins' listers.
func (c *admissionChain) known(obj runtime.Object) {
	if inf := c.indexerFor(obj); inf != nil {
		_ = inf.Add(obj.DeepCopyObject())
	}
}

// indexerFor is the lister store of the kind of obj the admission plugins
// read, or nil for a kind they do not.
func (c *admissionChain) indexerFor(obj runtime.Object) cache.Indexer {
	switch obj.(type) {
	case *v1.LimitRange:
		return c.factory.Core().V1().LimitRanges().Informer().GetIndexer()
	case *v1.Namespace:
		return c.factory.Core().V1().Namespaces().Informer().GetIndexer()
	case *schedulingv1.PriorityClass:
		return c.factory.Scheduling().V1().PriorityClasses().Informer().GetIndexer()
	case *nodev1.RuntimeClass:
		return c.factory.Node().V1().RuntimeClasses().Informer().GetIndexer()
	case *storagev1.StorageClass:
		return c.factory.Storage().V1().StorageClasses().Informer().GetIndexer()
	}
	return nil
}

// create runs kube-apiserver's create path on obj and keeps what it changed,
// as the stored object would: mutating admission (a pod's priority, default
// requests, tolerations, runtime class overhead; a claim's default storage
// class), the kind's strategy (the pod strategy merges a pod affinity term's
// matchLabelKeys into its label selector, marks a gated pod, sets the QoS
// class), validation, validating admission. What a fixture states as
// existing is kept: the identity and creation time the loader gave it, and
// the status of every object but a pending pod.
func (c *admissionChain) create(obj runtime.Object) error {
	gvks, _, err := legacyscheme.Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return fmt.Errorf("unknown type %T", obj)
	}
	gvk := gvks[0]
	internal, err := legacyscheme.Scheme.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return fmt.Errorf("%s: %v", gvk.Kind, err)
	}
	before := obj.DeepCopyObject()
	if err := legacyscheme.Scheme.Convert(before.DeepCopyObject(), internal, nil); err != nil {
		return fmt.Errorf("%s: %v", gvk.Kind, err)
	}
	m, err := metaOf(obj)
	if err != nil {
		return err
	}
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	attrs := admission.NewAttributesRecord(internal, nil, gvk, m.Namespace, m.Name, gvr, "", admission.Create,
		&metav1.CreateOptions{}, false, &user.DefaultInfo{Name: "schedscope-fixture"})
	ctx := context.Background()
	if mut, ok := c.chain.(admission.MutationInterface); ok && mut.Handles(admission.Create) {
		if err := mut.Admit(ctx, attrs, c.objects); err != nil {
			return admissionError(gvk.Kind, m.Name, err)
		}
	}
	if strategy, ok := c.strats[gvk.GroupKind()]; ok {
		if err := runBeforeCreate(strategy, gvk, m, internal); err != nil {
			return err
		}
	}
	if val, ok := c.chain.(admission.ValidationInterface); ok && val.Handles(admission.Create) {
		if err := val.Validate(ctx, attrs, c.objects); err != nil {
			return admissionError(gvk.Kind, m.Name, err)
		}
	}
	if err := legacyscheme.Scheme.Convert(internal, obj, nil); err != nil {
		return fmt.Errorf("%s: %v", gvk.Kind, err)
	}
	b, _ := metaOf(before)
	m.UID, m.CreationTimestamp, m.ResourceVersion, m.ManagedFields = b.UID, b.CreationTimestamp, b.ResourceVersion, nil
	if p, ok := before.(*v1.Pod); ok && p.Spec.NodeName == "" {
		return nil
	}
	restoreStatus(obj, before)
	return nil
}

// admissionError words an admission plugin's refusal as one line naming
// the object: upstream's own message ("pods "web" is forbidden: ..."), or
// the first field error of an Invalid one.
func admissionError(kind, name string, err error) error {
	if apierrors.IsInvalid(err) {
		return firstCause(kind, name, err)
	}
	return fmt.Errorf("%s", oneLine(err))
}

// forget removes a deleted object from the plugins' listers.
func (c *admissionChain) forget(obj runtime.Object) {
	if inf := c.indexerFor(obj); inf != nil {
		_ = inf.Delete(obj)
	}
}

// update runs kube-apiserver's update path on obj, replacing old (as
// admitted): mutating admission, the kind's update strategy
// (rest.BeforeUpdate: PrepareForUpdate, update validation, the immutable
// metadata checks), validating admission. obj keeps old's identity and
// creation time. Its status is the one it states, as the object's
// controller (a node's kubelet) would write it through the status
// subresource; when it states none, old's is kept, as an update keeps it.
func (c *admissionChain) update(obj, old runtime.Object) error {
	gvks, _, err := legacyscheme.Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return fmt.Errorf("unknown type %T", obj)
	}
	gvk := gvks[0]
	m, err := metaOf(obj)
	if err != nil {
		return err
	}
	om, err := metaOf(old)
	if err != nil {
		return err
	}
	m.UID, m.CreationTimestamp, m.ResourceVersion = om.UID, om.CreationTimestamp, om.ResourceVersion
	strategy, ok := c.strats[gvk.GroupKind()].(rest.RESTUpdateStrategy)
	if !ok {
		return fmt.Errorf("%s %q: no update path", gvk.Kind, m.Name)
	}
	internal, err := legacyscheme.Scheme.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return fmt.Errorf("%s: %v", gvk.Kind, err)
	}
	oldInternal, err := legacyscheme.Scheme.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return fmt.Errorf("%s: %v", gvk.Kind, err)
	}
	before := obj.DeepCopyObject()
	if err := legacyscheme.Scheme.Convert(before.DeepCopyObject(), internal, nil); err != nil {
		return fmt.Errorf("%s: %v", gvk.Kind, err)
	}
	if err := legacyscheme.Scheme.Convert(old.DeepCopyObject(), oldInternal, nil); err != nil {
		return fmt.Errorf("%s: %v", gvk.Kind, err)
	}
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	attrs := admission.NewAttributesRecord(internal, oldInternal, gvk, m.Namespace, m.Name, gvr, "", admission.Update,
		&metav1.UpdateOptions{}, false, &user.DefaultInfo{Name: "schedscope-fixture"})
	ctx := context.Background()
	if mut, ok := c.chain.(admission.MutationInterface); ok && mut.Handles(admission.Update) {
		if err := mut.Admit(ctx, attrs, c.objects); err != nil {
			return admissionError(gvk.Kind, m.Name, err)
		}
	}
	ns := ""
	if strategy.NamespaceScoped() {
		ns = m.Namespace
	}
	rctx := genericapirequest.WithNamespace(ctx, ns)
	rctx = genericapirequest.WithRequestInfo(rctx, &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: "update",
		APIGroup: gvk.Group, APIVersion: gvk.Version, Namespace: ns, Name: m.Name})
	if err := rest.BeforeUpdate(strategy, rctx, internal, oldInternal); err != nil {
		return firstCause(gvk.Kind, m.Name, err)
	}
	if val, ok := c.chain.(admission.ValidationInterface); ok && val.Handles(admission.Update) {
		if err := val.Validate(ctx, attrs, c.objects); err != nil {
			return admissionError(gvk.Kind, m.Name, err)
		}
	}
	if err := legacyscheme.Scheme.Convert(internal, obj, nil); err != nil {
		return fmt.Errorf("%s: %v", gvk.Kind, err)
	}
	m.UID, m.CreationTimestamp, m.ResourceVersion, m.ManagedFields = om.UID, om.CreationTimestamp, om.ResourceVersion, nil
	if statusStated(before) {
		restoreStatus(obj, before)
	} else {
		restoreStatus(obj, old)
	}
	return nil
}
