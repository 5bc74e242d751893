package controllers

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientset "k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	storagelisters "k8s.io/client-go/listers/storage/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	storagehelpers "k8s.io/component-helpers/storage/volume"
)

// The simulated provisioner stands for every CSI driver's external
// provisioner: it answers the claims the persistent-volume binder marks for
// it (a StorageClass whose provisioner is not kubernetes.io/no-provisioner)
// with a volume pvc-<claim uid> of the claim's size, access modes and
// class, reserved for the claim, which the real binder binds. With
// WaitForFirstConsumer it waits for the scheduler's selected node, and the
// volume is reachable from that node's topology (see topology); with
// Immediate binding, from the class's allowedTopologies, or everywhere.
type provisioner struct {
	client   clientset.Interface
	claims   corelisters.PersistentVolumeClaimLister
	volumes  corelisters.PersistentVolumeLister
	classes  storagelisters.StorageClassLister
	nodes    corelisters.NodeLister
	csiNodes storagelisters.CSINodeLister
	queue    *countedQueue
}

func newProvisioner(deps Deps) (*provisioner, error) {
	f := deps.Informers
	p := &provisioner{
		client:   deps.Client,
		claims:   f.Core().V1().PersistentVolumeClaims().Lister(),
		volumes:  f.Core().V1().PersistentVolumes().Lister(),
		classes:  f.Storage().V1().StorageClasses().Lister(),
		nodes:    f.Core().V1().Nodes().Lister(),
		csiNodes: f.Storage().V1().CSINodes().Lister(),
		queue: newCountedQueue("simulated provisioner", workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "simulated_provisioner"}), deps.Changed),
	}
	enqueue := func(obj any) {
		if c, ok := obj.(*v1.PersistentVolumeClaim); ok && provisionerOf(c) != "" && c.Spec.VolumeName == "" {
			if key, err := cache.MetaNamespaceKeyFunc(c); err == nil {
				p.queue.Add(key)
			}
		}
	}
	if _, err := f.Core().V1().PersistentVolumeClaims().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
	}); err != nil {
		return nil, err
	}
	// The listers read below must be synced before the first claim is handled.
	f.Core().V1().PersistentVolumes().Informer()
	f.Storage().V1().StorageClasses().Informer()
	f.Core().V1().Nodes().Informer()
	f.Storage().V1().CSINodes().Informer()
	return p, nil
}

// provisionerOf is the provisioner the binder handed the claim to.
func provisionerOf(c *v1.PersistentVolumeClaim) string {
	if p := c.Annotations[storagehelpers.AnnStorageProvisioner]; p != "" {
		return p
	}
	return c.Annotations[storagehelpers.AnnBetaStorageProvisioner]
}

func (p *provisioner) run(ctx context.Context) { work(ctx, p.queue, p.provision) }

// provision creates the volume for the claim key, if the claim still wants one.
func (p *provisioner) provision(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	claim, err := p.claims.PersistentVolumeClaims(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	driver := provisionerOf(claim)
	if driver == "" || claim.Spec.VolumeName != "" || driver == storagehelpers.NotSupportedProvisioner {
		return nil
	}
	class, err := p.classes.Get(storagehelpers.GetPersistentVolumeClaimClass(claim))
	if err != nil || class.Provisioner != driver {
		return nil // no class, or another provisioner's
	}
	selected := claim.Annotations[storagehelpers.AnnSelectedNode]
	if class.VolumeBindingMode != nil && *class.VolumeBindingMode == storagev1.VolumeBindingWaitForFirstConsumer && selected == "" {
		return nil // the scheduler has not chosen a node yet
	}
	pvName := "pvc-" + string(claim.UID)
	if _, err := p.volumes.Get(pvName); err == nil {
		return nil
	}
	affinity, err := p.topology(class, driver, selected)
	if err != nil || affinity == nil && selected != "" {
		return err
	}
	reclaim := v1.PersistentVolumeReclaimDelete
	if class.ReclaimPolicy != nil {
		reclaim = *class.ReclaimPolicy
	}
	pv := &v1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: pvName, Annotations: map[string]string{storagehelpers.AnnDynamicallyProvisioned: driver}},
		Spec: v1.PersistentVolumeSpec{
			Capacity:                      v1.ResourceList{v1.ResourceStorage: claim.Spec.Resources.Requests[v1.ResourceStorage]},
			AccessModes:                   claim.Spec.AccessModes,
			VolumeMode:                    claim.Spec.VolumeMode,
			StorageClassName:              class.Name,
			PersistentVolumeReclaimPolicy: reclaim,
			MountOptions:                  class.MountOptions,
			ClaimRef: &v1.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1",
				Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID},
			PersistentVolumeSource: v1.PersistentVolumeSource{CSI: &v1.CSIPersistentVolumeSource{Driver: driver, VolumeHandle: pvName}},
			NodeAffinity:           affinity,
		},
	}
	_, err = p.client.CoreV1().PersistentVolumes().Create(ctx, pv, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// topology is the node affinity of a volume provisioned for selected (""
// with Immediate binding): the selected node's values of the driver's
// topology keys, as its CSINode lists them, else the keys of the class's
// allowedTopologies, else the node's zone, else its hostname.
func (p *provisioner) topology(class *storagev1.StorageClass, driver, selected string) (*v1.VolumeNodeAffinity, error) {
	if selected == "" {
		if len(class.AllowedTopologies) == 0 {
			return nil, nil
		}
		var terms []v1.NodeSelectorTerm
		for _, t := range class.AllowedTopologies {
			var term v1.NodeSelectorTerm
			for _, e := range t.MatchLabelExpressions {
				term.MatchExpressions = append(term.MatchExpressions, v1.NodeSelectorRequirement{Key: e.Key, Operator: v1.NodeSelectorOpIn, Values: e.Values})
			}
			terms = append(terms, term)
		}
		return &v1.VolumeNodeAffinity{Required: &v1.NodeSelector{NodeSelectorTerms: terms}}, nil
	}
	node, err := p.nodes.Get(selected)
	if apierrors.IsNotFound(err) {
		return nil, nil // deleted since; the scheduler will choose again
	}
	if err != nil {
		return nil, err
	}
	var keys []string
	if cn, err := p.csiNodes.Get(selected); err == nil {
		for _, d := range cn.Spec.Drivers {
			if d.Name == driver {
				keys = d.TopologyKeys
			}
		}
	}
	if len(keys) == 0 {
		seen := map[string]bool{}
		for _, t := range class.AllowedTopologies {
			for _, e := range t.MatchLabelExpressions {
				if !seen[e.Key] {
					seen[e.Key] = true
					keys = append(keys, e.Key)
				}
			}
		}
	}
	if len(keys) == 0 {
		keys = []string{v1.LabelHostname}
		if _, ok := node.Labels[v1.LabelTopologyZone]; ok {
			keys = []string{v1.LabelTopologyZone}
		}
	}
	var term v1.NodeSelectorTerm
	for _, k := range keys {
		v, ok := node.Labels[k]
		if !ok {
			return nil, fmt.Errorf("node %s has no label %s for the topology of %s", selected, k, driver)
		}
		term.MatchExpressions = append(term.MatchExpressions, v1.NodeSelectorRequirement{Key: k, Operator: v1.NodeSelectorOpIn, Values: []string{v}})
	}
	return &v1.VolumeNodeAffinity{Required: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{term}}}, nil
}
