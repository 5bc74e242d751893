// Package scrub keeps, of a Kubernetes object, only what the scheduler reads
// (and what the object needs to be valid): each kind is rebuilt field by
// field from an allow-list, so a field added to a kind later, or one nobody
// thought of (a CSI volume's attributes, a flexVolume's options, a gitRepo
// URL with credentials in it, a template's environment), is left behind by
// default. It is the one allow-list of what schedscope writes outside a
// run: a snapshot of a cluster (engine/snapshot.go), the manifest a what-if
// edit shows, and whether a loaded fixture may be cached on disk
// (engine/fixture/cache.go, which uses Clean).
package scrub

import (
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	resourcev1 "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Clean reports whether obj holds nothing the allow-list drops: its kind
// is known and Object keeps all of it (its kind's name aside).
func Clean(obj runtime.Object) bool {
	out, known := Object(obj)
	if !known || out == nil {
		return false
	}
	out.GetObjectKind().SetGroupVersionKind(obj.GetObjectKind().GroupVersionKind())
	return equality.Semantic.DeepEqual(out, obj)
}

// keptAnnotations are the annotations the scheduler reads: the volume
// binder's (a PVC's selected node and provisioner, a PV's binding state).
var keptAnnotations = map[string]bool{
	"volume.kubernetes.io/selected-node":            true,
	"volume.kubernetes.io/storage-provisioner":      true,
	"volume.beta.kubernetes.io/storage-provisioner": true,
	"pv.kubernetes.io/bind-completed":               true,
	"pv.kubernetes.io/bound-by-controller":          true,
	"pv.kubernetes.io/provisioned-by":               true,
}

// RedactedHostPath stands in for a persistent volume source the scheduler does
// not read (NFS, CephFS, flexVolume, …): a PV needs one to be valid.
const RedactedHostPath = "/schedscope-snapshot/redacted"

// Object returns the part of obj the allow-list keeps, and whether its kind
// is known. An unknown kind keeps its name, namespace and labels only. The
// result shares what it keeps with obj, and names no kind (TypeMeta).
func Object(obj runtime.Object) (runtime.Object, bool) {
	switch o := obj.(type) {
	case *v1.Pod:
		return Pod(o), true
	case *v1.Node:
		return Node(o), true
	case *v1.Namespace:
		return &v1.Namespace{ObjectMeta: scrubMeta(o.ObjectMeta)}, true
	case *v1.PersistentVolume:
		return scrubPV(o), true
	case *v1.PersistentVolumeClaim:
		return &v1.PersistentVolumeClaim{ObjectMeta: scrubMeta(o.ObjectMeta), Spec: scrubPVCSpec(o.Spec),
			Status: v1.PersistentVolumeClaimStatus{Phase: o.Status.Phase, AccessModes: o.Status.AccessModes, Capacity: o.Status.Capacity}}, true
	case *v1.Service:
		return scrubService(o), true
	case *v1.ReplicationController:
		out := &v1.ReplicationController{ObjectMeta: scrubMeta(o.ObjectMeta)}
		out.Spec.Replicas, out.Spec.Selector = o.Spec.Replicas, o.Spec.Selector
		if o.Spec.Template != nil {
			t := scrubTemplate(*o.Spec.Template)
			out.Spec.Template = &t
		}
		return out, true
	case *appsv1.ReplicaSet:
		out := &appsv1.ReplicaSet{ObjectMeta: scrubMeta(o.ObjectMeta)}
		out.Spec.Replicas, out.Spec.Selector, out.Spec.Template = o.Spec.Replicas, o.Spec.Selector, scrubTemplate(o.Spec.Template)
		return out, true
	case *appsv1.StatefulSet:
		out := &appsv1.StatefulSet{ObjectMeta: scrubMeta(o.ObjectMeta)}
		out.Spec.Replicas, out.Spec.Selector, out.Spec.ServiceName = o.Spec.Replicas, o.Spec.Selector, o.Spec.ServiceName
		out.Spec.Template = scrubTemplate(o.Spec.Template)
		return out, true
	case *policyv1.PodDisruptionBudget:
		return &policyv1.PodDisruptionBudget{ObjectMeta: scrubMeta(o.ObjectMeta), Spec: o.Spec,
			Status: policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: o.Status.DisruptionsAllowed, DisruptedPods: o.Status.DisruptedPods,
				CurrentHealthy: o.Status.CurrentHealthy, DesiredHealthy: o.Status.DesiredHealthy, ExpectedPods: o.Status.ExpectedPods}}, true
	case *storagev1.StorageClass:
		// Parameters go: they name provisioner secrets.
		return &storagev1.StorageClass{ObjectMeta: scrubMeta(o.ObjectMeta), Provisioner: o.Provisioner, ReclaimPolicy: o.ReclaimPolicy,
			VolumeBindingMode: o.VolumeBindingMode, AllowedTopologies: o.AllowedTopologies, AllowVolumeExpansion: o.AllowVolumeExpansion}, true
	case *storagev1.CSINode:
		return &storagev1.CSINode{ObjectMeta: scrubMeta(o.ObjectMeta), Spec: o.Spec}, true
	case *storagev1.CSIDriver:
		return &storagev1.CSIDriver{ObjectMeta: scrubMeta(o.ObjectMeta), Spec: o.Spec}, true
	case *storagev1.CSIStorageCapacity:
		return &storagev1.CSIStorageCapacity{ObjectMeta: scrubMeta(o.ObjectMeta), NodeTopology: o.NodeTopology,
			StorageClassName: o.StorageClassName, Capacity: o.Capacity, MaximumVolumeSize: o.MaximumVolumeSize}, true
	case *storagev1.VolumeAttachment:
		out := &storagev1.VolumeAttachment{ObjectMeta: scrubMeta(o.ObjectMeta), Status: storagev1.VolumeAttachmentStatus{Attached: o.Status.Attached}}
		out.Spec.Attacher, out.Spec.NodeName = o.Spec.Attacher, o.Spec.NodeName
		out.Spec.Source.PersistentVolumeName = o.Spec.Source.PersistentVolumeName
		if s := o.Spec.Source.InlineVolumeSpec; s != nil {
			spec := scrubPVSpec(*s)
			out.Spec.Source.InlineVolumeSpec = &spec
		}
		return out, true
	case *schedulingv1.PriorityClass:
		return &schedulingv1.PriorityClass{ObjectMeta: scrubMeta(o.ObjectMeta), Value: o.Value, GlobalDefault: o.GlobalDefault, PreemptionPolicy: o.PreemptionPolicy}, true
	case *nodev1.RuntimeClass:
		return &nodev1.RuntimeClass{ObjectMeta: scrubMeta(o.ObjectMeta), Handler: o.Handler, Overhead: o.Overhead, Scheduling: o.Scheduling}, true
	case *v1.LimitRange:
		return &v1.LimitRange{ObjectMeta: scrubMeta(o.ObjectMeta), Spec: o.Spec}, true
	case *resourcev1.ResourceClaim:
		out := &resourcev1.ResourceClaim{ObjectMeta: scrubMeta(o.ObjectMeta), Spec: scrubClaimSpec(o.Spec)}
		out.Status.ReservedFor = o.Status.ReservedFor
		if a := o.Status.Allocation; a != nil {
			// Opaque driver configuration may hold credentials; the scheduler
			// reads which devices were allocated, and where.
			alloc := resourcev1.AllocationResult{NodeSelector: a.NodeSelector, AllocationTimestamp: a.AllocationTimestamp}
			alloc.Devices.Results = a.Devices.Results
			out.Status.Allocation = &alloc
		}
		return out, true
	case *resourcev1.ResourceClaimTemplate:
		out := &resourcev1.ResourceClaimTemplate{ObjectMeta: scrubMeta(o.ObjectMeta)}
		out.Spec.ObjectMeta = metav1.ObjectMeta{Labels: o.Spec.ObjectMeta.Labels}
		out.Spec.Spec = scrubClaimSpec(o.Spec.Spec)
		return out, true
	case *resourcev1.DeviceClass:
		out := &resourcev1.DeviceClass{ObjectMeta: scrubMeta(o.ObjectMeta)}
		out.Spec.Selectors, out.Spec.ExtendedResourceName = o.Spec.Selectors, o.Spec.ExtendedResourceName
		return out, true
	case *resourcev1.ResourceSlice:
		// Published by drivers for the scheduler: all of it is scheduling input.
		return &resourcev1.ResourceSlice{ObjectMeta: scrubMeta(o.ObjectMeta), Spec: o.Spec}, true
	case *resourcev1.DeviceTaintRule:
		return &resourcev1.DeviceTaintRule{ObjectMeta: scrubMeta(o.ObjectMeta), Spec: o.Spec}, true
	case *schedulingv1beta1.Workload:
		// Its templates are policies, constraints and claims: scheduling input.
		return &schedulingv1beta1.Workload{ObjectMeta: scrubMeta(o.ObjectMeta), Spec: o.Spec}, true
	case *schedulingv1beta1.PodGroup:
		// Its conditions are the scheduler's verdicts, written, not read
		// (their messages name pods and nodes); its claims' status is read.
		return &schedulingv1beta1.PodGroup{ObjectMeta: scrubMeta(o.ObjectMeta), Spec: o.Spec,
			Status: schedulingv1beta1.PodGroupStatus{ResourceClaimStatuses: o.Status.ResourceClaimStatuses}}, true
	case *schedulingv1alpha3.CompositePodGroup:
		return &schedulingv1alpha3.CompositePodGroup{ObjectMeta: scrubMeta(o.ObjectMeta), Spec: o.Spec}, true
	}
	return metaOnly(obj), false
}

// scrubMeta keeps a name, a namespace, labels (selectors read them), the
// annotations the scheduler reads, and a deletion in progress.
func scrubMeta(m metav1.ObjectMeta) metav1.ObjectMeta {
	out := metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, Labels: m.Labels, DeletionTimestamp: m.DeletionTimestamp}
	for k, v := range m.Annotations {
		if keptAnnotations[k] {
			if out.Annotations == nil {
				out.Annotations = map[string]string{}
			}
			out.Annotations[k] = v
		}
	}
	return out
}

// metaOnly returns an empty object of obj's type with obj's name, namespace
// and labels.
func metaOnly(obj runtime.Object) runtime.Object {
	out, ok := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
	src, err1 := meta.Accessor(obj)
	dst, err2 := meta.Accessor(out)
	if !ok || err1 != nil || err2 != nil {
		return nil
	}
	dst.SetName(src.GetName())
	dst.SetNamespace(src.GetNamespace())
	dst.SetLabels(src.GetLabels())
	return out
}

// Pod is the part of a pod the scheduler reads.
func Pod(in *v1.Pod) *v1.Pod {
	s := &in.Spec
	out := &v1.Pod{ObjectMeta: scrubMeta(in.ObjectMeta), Spec: v1.PodSpec{
		NodeName: s.NodeName, NodeSelector: s.NodeSelector, Affinity: s.Affinity, Tolerations: s.Tolerations,
		SchedulerName: s.SchedulerName, Priority: s.Priority, PriorityClassName: s.PriorityClassName,
		PreemptionPolicy: s.PreemptionPolicy, Overhead: s.Overhead, RuntimeClassName: s.RuntimeClassName,
		TopologySpreadConstraints: s.TopologySpreadConstraints, SchedulingGates: s.SchedulingGates, SchedulingGroup: s.SchedulingGroup,
		ResourceClaims: s.ResourceClaims, Resources: s.Resources, HostNetwork: s.HostNetwork, OS: s.OS,
		RestartPolicy: s.RestartPolicy, TerminationGracePeriodSeconds: s.TerminationGracePeriodSeconds,
		InitContainers: scrubContainers(s.InitContainers, true), Containers: scrubContainers(s.Containers, true),
	}}
	for _, v := range s.Volumes {
		out.Spec.Volumes = append(out.Spec.Volumes, scrubVolume(v))
	}
	// Of a pod's status the scheduler reads its phase and nomination, its DRA
	// claims, and the resources of resized containers.
	out.Status = v1.PodStatus{Phase: in.Status.Phase, NominatedNodeName: in.Status.NominatedNodeName,
		ResourceClaimStatuses: in.Status.ResourceClaimStatuses, ExtendedResourceClaimStatus: in.Status.ExtendedResourceClaimStatus}
	for _, cs := range in.Status.ContainerStatuses {
		if cs.Resources != nil || len(cs.AllocatedResources) > 0 {
			out.Status.ContainerStatuses = append(out.Status.ContainerStatuses, v1.ContainerStatus{Name: cs.Name, Resources: cs.Resources, AllocatedResources: cs.AllocatedResources})
		}
	}
	return out
}

// scrubContainers keeps what scheduling reads of containers: the image
// (ImageLocality), resources and the restart policy of sidecars (NodeResourcesFit),
// and ports (NodePorts). Commands, arguments, environment, probes and mounts go.
func scrubContainers(cs []v1.Container, resources bool) []v1.Container {
	var out []v1.Container
	for _, c := range cs {
		k := v1.Container{Name: c.Name, Image: c.Image, RestartPolicy: c.RestartPolicy}
		if resources {
			k.Resources, k.Ports = c.Resources, c.Ports
		}
		out = append(out, k)
	}
	return out
}

// scrubTemplate keeps a controller's pod template as far as the controller
// needs it to be valid: its labels and its containers' names and images.
func scrubTemplate(t v1.PodTemplateSpec) v1.PodTemplateSpec {
	return v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: t.Labels},
		Spec: v1.PodSpec{Containers: scrubContainers(t.Spec.Containers, false)}}
}

// scrubVolume keeps the volume sources the scheduler's volume plugins read,
// with only the fields they compare; any other source becomes an emptyDir
// under the same name.
func scrubVolume(v v1.Volume) v1.Volume {
	out := v1.Volume{Name: v.Name}
	src := v.VolumeSource
	switch {
	case src.PersistentVolumeClaim != nil:
		out.PersistentVolumeClaim = &v1.PersistentVolumeClaimVolumeSource{ClaimName: src.PersistentVolumeClaim.ClaimName, ReadOnly: src.PersistentVolumeClaim.ReadOnly}
	case src.Ephemeral != nil && src.Ephemeral.VolumeClaimTemplate != nil:
		t := src.Ephemeral.VolumeClaimTemplate
		out.Ephemeral = &v1.EphemeralVolumeSource{VolumeClaimTemplate: &v1.PersistentVolumeClaimTemplate{
			ObjectMeta: metav1.ObjectMeta{Labels: t.Labels}, Spec: scrubPVCSpec(t.Spec)}}
	case src.CSI != nil:
		out.CSI = &v1.CSIVolumeSource{Driver: src.CSI.Driver, ReadOnly: src.CSI.ReadOnly}
	case src.GCEPersistentDisk != nil:
		out.GCEPersistentDisk = scrubGCE(src.GCEPersistentDisk)
	case src.AWSElasticBlockStore != nil:
		out.AWSElasticBlockStore = scrubEBS(src.AWSElasticBlockStore)
	case src.AzureDisk != nil:
		out.AzureDisk = scrubAzureDisk(src.AzureDisk)
	case src.Cinder != nil:
		out.Cinder = &v1.CinderVolumeSource{VolumeID: src.Cinder.VolumeID, ReadOnly: src.Cinder.ReadOnly}
	case src.RBD != nil:
		out.RBD = &v1.RBDVolumeSource{CephMonitors: src.RBD.CephMonitors, RBDImage: src.RBD.RBDImage, RBDPool: src.RBD.RBDPool, ReadOnly: src.RBD.ReadOnly}
	case src.ISCSI != nil:
		out.ISCSI = &v1.ISCSIVolumeSource{TargetPortal: src.ISCSI.TargetPortal, IQN: src.ISCSI.IQN, Lun: src.ISCSI.Lun, Portals: src.ISCSI.Portals, ReadOnly: src.ISCSI.ReadOnly}
	default:
		out.EmptyDir = &v1.EmptyDirVolumeSource{}
	}
	return out
}

func scrubPVCSpec(s v1.PersistentVolumeClaimSpec) v1.PersistentVolumeClaimSpec {
	return v1.PersistentVolumeClaimSpec{AccessModes: s.AccessModes, Selector: s.Selector, Resources: s.Resources,
		VolumeName: s.VolumeName, StorageClassName: s.StorageClassName, VolumeMode: s.VolumeMode,
		VolumeAttributesClassName: s.VolumeAttributesClassName}
}

func scrubPV(in *v1.PersistentVolume) *v1.PersistentVolume {
	return &v1.PersistentVolume{ObjectMeta: scrubMeta(in.ObjectMeta), Spec: scrubPVSpec(in.Spec),
		Status: v1.PersistentVolumeStatus{Phase: in.Status.Phase}}
}

func scrubPVSpec(s v1.PersistentVolumeSpec) v1.PersistentVolumeSpec {
	out := v1.PersistentVolumeSpec{Capacity: s.Capacity, AccessModes: s.AccessModes,
		PersistentVolumeReclaimPolicy: s.PersistentVolumeReclaimPolicy, StorageClassName: s.StorageClassName,
		VolumeMode: s.VolumeMode, NodeAffinity: s.NodeAffinity, VolumeAttributesClassName: s.VolumeAttributesClassName}
	if r := s.ClaimRef; r != nil {
		out.ClaimRef = &v1.ObjectReference{Kind: r.Kind, APIVersion: r.APIVersion, Namespace: r.Namespace, Name: r.Name}
	}
	src := s.PersistentVolumeSource
	switch {
	case src.CSI != nil:
		// The driver and handle identify the volume for CSI limits; its
		// attributes and secret references stay behind.
		out.CSI = &v1.CSIPersistentVolumeSource{Driver: src.CSI.Driver, VolumeHandle: src.CSI.VolumeHandle, ReadOnly: src.CSI.ReadOnly, FSType: src.CSI.FSType}
	case src.GCEPersistentDisk != nil:
		out.GCEPersistentDisk = scrubGCE(src.GCEPersistentDisk)
	case src.AWSElasticBlockStore != nil:
		out.AWSElasticBlockStore = scrubEBS(src.AWSElasticBlockStore)
	case src.AzureDisk != nil:
		out.AzureDisk = scrubAzureDisk(src.AzureDisk)
	case src.Cinder != nil:
		out.Cinder = &v1.CinderPersistentVolumeSource{VolumeID: src.Cinder.VolumeID, ReadOnly: src.Cinder.ReadOnly}
	case src.RBD != nil:
		out.RBD = &v1.RBDPersistentVolumeSource{CephMonitors: src.RBD.CephMonitors, RBDImage: src.RBD.RBDImage, RBDPool: src.RBD.RBDPool, ReadOnly: src.RBD.ReadOnly}
	case src.ISCSI != nil:
		out.ISCSI = &v1.ISCSIPersistentVolumeSource{TargetPortal: src.ISCSI.TargetPortal, IQN: src.ISCSI.IQN, Lun: src.ISCSI.Lun, Portals: src.ISCSI.Portals, ReadOnly: src.ISCSI.ReadOnly}
	case src.Local != nil:
		out.Local = &v1.LocalVolumeSource{Path: src.Local.Path}
	case src.HostPath != nil:
		out.HostPath = &v1.HostPathVolumeSource{Path: src.HostPath.Path, Type: src.HostPath.Type}
	default:
		out.HostPath = &v1.HostPathVolumeSource{Path: RedactedHostPath}
	}
	return out
}

func scrubService(in *v1.Service) *v1.Service {
	out := &v1.Service{ObjectMeta: scrubMeta(in.ObjectMeta)}
	out.Spec.Selector, out.Spec.Type, out.Spec.ExternalName = in.Spec.Selector, in.Spec.Type, in.Spec.ExternalName
	if in.Spec.ClusterIP == v1.ClusterIPNone {
		out.Spec.ClusterIP = v1.ClusterIPNone
	}
	for _, p := range in.Spec.Ports {
		out.Spec.Ports = append(out.Spec.Ports, v1.ServicePort{Name: p.Name, Protocol: p.Protocol, Port: p.Port, TargetPort: p.TargetPort})
	}
	return out
}

// scrubClaimSpec keeps a claim's device requests and constraints; opaque
// driver configuration (which may hold credentials) goes.
func scrubClaimSpec(s resourcev1.ResourceClaimSpec) resourcev1.ResourceClaimSpec {
	var out resourcev1.ResourceClaimSpec
	out.Devices.Requests, out.Devices.Constraints = s.Devices.Requests, s.Devices.Constraints
	return out
}

// Node keeps a node's labels, taints and schedulability, and of its
// status what the scheduler reads: capacity, allocatable, images and features.
func Node(in *v1.Node) *v1.Node {
	out := &v1.Node{ObjectMeta: scrubMeta(in.ObjectMeta)}
	out.Spec.Unschedulable, out.Spec.Taints = in.Spec.Unschedulable, in.Spec.Taints
	out.Status = v1.NodeStatus{Capacity: in.Status.Capacity, Allocatable: in.Status.Allocatable, Images: in.Status.Images,
		Features: in.Status.Features, DeclaredFeatures: in.Status.DeclaredFeatures}
	return out
}

// The in-tree disk sources shared by pod volumes and persistent volumes keep
// the identity the volume plugins compare (VolumeRestrictions, CSI limits
// through migration).

func scrubGCE(s *v1.GCEPersistentDiskVolumeSource) *v1.GCEPersistentDiskVolumeSource {
	return &v1.GCEPersistentDiskVolumeSource{PDName: s.PDName, Partition: s.Partition, ReadOnly: s.ReadOnly}
}

func scrubEBS(s *v1.AWSElasticBlockStoreVolumeSource) *v1.AWSElasticBlockStoreVolumeSource {
	return &v1.AWSElasticBlockStoreVolumeSource{VolumeID: s.VolumeID, Partition: s.Partition, ReadOnly: s.ReadOnly}
}

func scrubAzureDisk(s *v1.AzureDiskVolumeSource) *v1.AzureDiskVolumeSource {
	return &v1.AzureDiskVolumeSource{DiskName: s.DiskName, DataDiskURI: s.DataDiskURI, Kind: s.Kind, ReadOnly: s.ReadOnly}
}
