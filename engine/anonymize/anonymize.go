// Package anonymize replaces what names a cluster in its objects (names,
// namespaces, custom label keys and label values, taints, images, ports,
// volume identifiers) with stand-ins that keep every scheduling decision:
// a string is mapped the same wherever it appears (a label value in labels,
// node selectors, affinity terms, spread constraints, PDB, Service and
// workload selectors; a taint in its tolerations; a node's name in
// kubernetes.io/hostname, nodeName and matchFields; a class in what names
// it), and a name made from its controller owner's keeps the owner's
// stand-in as its prefix. Resources are never touched.
//
// Stand-ins are ranks: the names of a class are sorted and the i-th is
// "<class>-<i>", zero-padded, so they sort as the originals did (the node
// order a partial search visits, name-ordered tie-breaks). The same input
// gives the same output; there is no key to keep secret, and nothing can be
// mapped back without the originals.
//
// Every object first goes through engine/scrub's allow-list (workloads'
// pod templates keep their pod's allow-list, as a fixture's controllers
// make pods of them); then:
//
//	field                                          treatment
//	metadata.name, generateName, namespace         mapped (default, kube-system, kube-public,
//	                                               kube-node-lease and system-* priority classes kept)
//	metadata.uid, ownerReferences[].uid            mapped
//	ownerReferences[].name                         mapped as the owner's name
//	label keys                                     kept when kubernetes.io or k8s.io, or set by a
//	                                               controller (pod-template-hash, …); else mapped
//	label values                                   mapped, by key: kubernetes.io/hostname as node
//	                                               names, zones, regions, metadata.name as
//	                                               namespaces; whole numbers (Gt, Lt) and
//	                                               kubernetes.io/os and arch kept
//	annotations                                    dropped but the volume binder's (selected-node
//	                                               mapped), the default storage class's and
//	                                               schedscope.io/delete
//	taints, tolerations                            keys and values as labels'; effects kept
//	container names, images, port names            mapped (images after upstream's normalising)
//	volume names, claim names, class names         mapped
//	disk IDs (GCE, EBS, Azure, Cinder, CSI handle) mapped (VolumeRestrictions compares them)
//	local and hostPath paths                       mapped
//	iSCSI and RBD sources                          kept (read by VolumeRestrictions; formats
//	                                               validated)
//	scheduler names, CSI driver names,
//	provisioners, feature names                    kept (a profile, a driver: not the cluster's)
//	requests, limits, capacity, allocatable,
//	priorities, counts, policies                   kept
//	DRA devices, attributes, CEL selectors         kept (CEL reads them; pools mapped)
//	pods' schedulingGroup, pod groups' parent,     mapped as the names of the PodGroup,
//	workloadRef and controllerRef                  CompositePodGroup, Workload or owner named
//	Workload and pod-group template names          mapped (one class for both kinds of template)
//	pod groups' topology constraint keys           as label keys (well-known ones kept)
//	pod groups' minCount, minGroupCount, policies  kept (conditions dropped: the scheduler
//	                                               writes them)
//	RuntimeClass handler, CSINode node IDs,
//	ExternalName                                   mapped (not read by the scheduler)
//	objects of other kinds (custom resources, …)   dropped (Dropped names them)
//
// recording.go rewrites a recording by the same rules (Rewrite): the names
// its records' fields hold (pods, namespaces, nodes, owners, node labels and
// taints, claims, classes, pod groups and composite pod groups, placement
// candidates' topology domains, UIDs) are ranked and mapped as a
// fixture's; codes, plugins, phases, scores and resources are kept, so
// every cycle reads as it did. text.go cleans its free text (plugins'
// reasons, messages, errors, marks' notes, and any field recording.go does
// not name): names are replaced, then every token that is neither a
// stand-in, a kept string, a number nor a word of vocabulary.txt is
// redacted.
package anonymize

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	resourcev1 "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/schedscope/schedscope/engine/scrub"
)

// A Map holds the stand-in of every original string, by class.
type Map struct {
	collecting bool
	seen       map[string]map[string]bool
	to         map[string]map[string]string
	// owners holds, for an object whose name its controller owner's makes
	// (owner name, "-", suffix), that owner: kind/namespace/name → ref.
	owners map[string]ownerName
	// ephemeral holds the claims of ephemeral volumes: kind/namespace/name
	// of the claim → the pod and volume it is named after.
	ephemeral map[string][2]string
	dropped   map[string]int
	// kept holds, for a recording, the strings its rules kept (Rewrite).
	kept map[string]bool
	// composites holds, for a recording, the namespace/name of each
	// CompositePodGroup its pod-group cycles name.
	composites map[string]bool
}

type ownerName struct {
	kind, name, suffix string
}

// Classes of strings, each with its own ranks.
const (
	classNamespace = "ns"
	classNode      = "node"
	classKey       = "key"
	classValue     = "value"
	classZone      = "zone"
	classRegion    = "region"
	classImage     = "image"
	classContainer = "container"
	classPort      = "port"
	classVolume    = "volume"
	classClaimRef  = "podclaim"
	classGate      = "gate"
	classUID       = "uid"
	classDisk      = "disk"
	classPath      = "path"
	classPool      = "pool"
	classHandler   = "handler"
	classNodeID    = "nodeid"
	classHost      = "host"
	classTemplate  = "template"
)

// kindClass is the class of a kind's names, shortened where its kind is long.
var kindClass = map[string]string{
	"Node": classNode, "CSINode": classNode, "Namespace": classNamespace, "Pod": "pod",
	"PersistentVolume": "pv", "PersistentVolumeClaim": "pvc", "StorageClass": "storageclass",
	"PriorityClass": "priority", "RuntimeClass": "runtimeclass", "ReplicationController": "rc",
	"ReplicaSet": "rs", "StatefulSet": "sts", "DaemonSet": "ds", "Deployment": "deploy",
	"PodDisruptionBudget": "pdb", "CSIStorageCapacity": "capacity", "VolumeAttachment": "attachment",
	"ResourceClaim": "claim", "ResourceClaimTemplate": "claimtemplate", "DeviceClass": "deviceclass",
	"ResourceSlice": "slice", "DeviceTaintRule": "taintrule", "VolumeAttributesClass": "vac",
}

func classOf(kind string) string {
	if c, ok := kindClass[kind]; ok {
		return c
	}
	return strings.ToLower(kind)
}

// Objects returns objs with every name replaced by its stand-in, in the same
// order, and the map that did it. An object of a kind it does not know is
// left out (Dropped). objs are not changed.
func Objects(objs []runtime.Object) ([]runtime.Object, *Map) {
	m := &Map{seen: map[string]map[string]bool{}, to: map[string]map[string]string{},
		owners: map[string]ownerName{}, ephemeral: map[string][2]string{}, dropped: map[string]int{}}
	type item struct {
		kind string
		meta metav1.ObjectMeta
		obj  runtime.Object
	}
	var items []item
	for _, obj := range objs {
		kind := kindOf(obj)
		meta, ok := objectMeta(obj)
		out := m.scrub(obj)
		if !ok || out == nil {
			m.dropped[kind]++
			continue
		}
		items = append(items, item{kind, *meta.DeepCopy(), out.DeepCopyObject()})
	}
	for _, it := range items {
		m.index(it.kind, it.meta, it.obj)
	}
	m.collecting = true
	for _, it := range items {
		m.object(it.kind, it.meta, it.obj)
	}
	m.assign()
	m.collecting = false
	out := make([]runtime.Object, 0, len(items))
	for _, it := range items {
		m.object(it.kind, it.meta, it.obj)
		out = append(out, it.obj)
	}
	return out, m
}

// Dropped names the kinds of the objects left out, with how many of each.
func (m *Map) Dropped() []string {
	var out []string
	for k, n := range m.dropped {
		out = append(out, fmt.Sprintf("%s (%d)", k, n))
	}
	sort.Strings(out)
	return out
}

// Node returns the stand-in of a node's name, or "" when the node was not
// in the objects.
func (m *Map) Node(name string) string { return m.to[classNode][name] }

// Namespace returns the stand-in of a namespace ("default" and the system
// ones are their own).
func (m *Map) Namespace(name string) string {
	if keepNamespace(name) {
		return name
	}
	return m.to[classNamespace][name]
}

// Name returns the stand-in of the name of an object of kind in namespace,
// "" when the objects named no such object.
func (m *Map) Name(kind, namespace, name string) string {
	was := m.collecting
	m.collecting = false
	defer func() { m.collecting = was }()
	if _, ok := m.owners[kind+"/"+namespace+"/"+name]; !ok && !m.seen[classOf(kind)][name] {
		return ""
	}
	return m.objectName(kind, namespace, name)
}

// assign gives each class's originals their stand-ins, in sorted order.
func (m *Map) assign() {
	for class, seen := range m.seen {
		names := make([]string, 0, len(seen))
		for s := range seen {
			names = append(names, s)
		}
		sort.Strings(names)
		width := max(3, len(strconv.Itoa(len(names))))
		to := make(map[string]string, len(names))
		for i, s := range names {
			to[s] = fmt.Sprintf("%s-%0*d", class, width, i+1)
		}
		m.to[class] = to
	}
}

// str maps *p in class: records it while collecting, replaces it after.
func (m *Map) str(class string, p *string) {
	if *p == "" {
		return
	}
	if m.collecting {
		if m.seen[class] == nil {
			m.seen[class] = map[string]bool{}
		}
		m.seen[class][*p] = true
		return
	}
	if s, ok := m.to[class][*p]; ok {
		*p = s
	}
}

func (m *Map) strs(class string, ps []string) {
	for i := range ps {
		m.str(class, &ps[i])
	}
}

func keepNamespace(ns string) bool {
	return ns == "default" || ns == "kube-system" || ns == "kube-public" || ns == "kube-node-lease"
}

func (m *Map) namespace(p *string) {
	if !keepNamespace(*p) {
		m.str(classNamespace, p)
	}
}

// objectName maps the name of an object of kind in ns: a name its
// controller owner made is the owner's stand-in and the same suffix.
func (m *Map) objectName(kind, ns, name string) string {
	if name == "" || kind == "PriorityClass" && strings.HasPrefix(name, "system-") {
		return name
	}
	if kind == "Namespace" {
		m.namespace(&name)
		return name
	}
	key := kind + "/" + ns + "/" + name
	if o, ok := m.owners[key]; ok {
		return m.objectName(o.kind, ns, o.name) + o.suffix
	}
	if e, ok := m.ephemeral[key]; ok {
		pod, vol := m.objectName("Pod", ns, e[0]), e[1]
		m.str(classVolume, &vol)
		return pod + "-" + vol
	}
	m.str(classOf(kind), &name)
	return name
}

func (m *Map) ref(kind, ns string, p *string) { *p = m.objectName(kind, ns, *p) }

// index notes which names owners made.
func (m *Map) index(kind string, meta metav1.ObjectMeta, obj runtime.Object) {
	for _, r := range meta.OwnerReferences {
		if r.Controller != nil && *r.Controller && r.Name != "" && strings.HasPrefix(meta.Name, r.Name+"-") {
			m.owners[kind+"/"+meta.Namespace+"/"+meta.Name] = ownerName{r.Kind, r.Name, meta.Name[len(r.Name):]}
		}
	}
	if p, ok := obj.(*v1.Pod); ok {
		for _, v := range p.Spec.Volumes {
			if v.Ephemeral != nil {
				m.ephemeral["PersistentVolumeClaim/"+meta.Namespace+"/"+meta.Name+"-"+v.Name] = [2]string{meta.Name, v.Name}
			}
		}
	}
}

// keptAnnotations are the annotations the scheduler, admission or the
// fixture loader read.
var keptAnnotations = map[string]bool{
	"volume.kubernetes.io/selected-node":            true,
	"volume.kubernetes.io/storage-provisioner":      true,
	"volume.beta.kubernetes.io/storage-provisioner": true,
	"pv.kubernetes.io/bind-completed":               true,
	"pv.kubernetes.io/bound-by-controller":          true,
	"pv.kubernetes.io/provisioned-by":               true,
	"storageclass.kubernetes.io/is-default-class":   true,
	"schedscope.io/delete":                          true,
}

// meta maps an object's metadata and sets it on obj.
func (m *Map) meta(kind string, in metav1.ObjectMeta, obj runtime.Object) {
	out := metav1.ObjectMeta{Name: m.objectName(kind, in.Namespace, in.Name), Namespace: in.Namespace,
		DeletionTimestamp: in.DeletionTimestamp, DeletionGracePeriodSeconds: in.DeletionGracePeriodSeconds}
	if in.GenerateName != "" {
		out.GenerateName = strings.TrimSuffix(in.GenerateName, "-")
		m.str(classOf(kind), &out.GenerateName)
		out.GenerateName += "-"
	}
	m.namespace(&out.Namespace)
	uid := string(in.UID)
	m.str(classUID, &uid)
	out.UID = types.UID(uid)
	out.Labels = m.labels(in.Labels)
	for k, v := range in.Annotations {
		if !keptAnnotations[k] {
			continue
		}
		if k == "volume.kubernetes.io/selected-node" {
			m.ref("Node", "", &v)
		}
		if out.Annotations == nil {
			out.Annotations = map[string]string{}
		}
		out.Annotations[k] = v
	}
	for _, r := range in.OwnerReferences {
		o := metav1.OwnerReference{APIVersion: r.APIVersion, Kind: r.Kind, Controller: r.Controller, BlockOwnerDeletion: r.BlockOwnerDeletion,
			Name: m.objectName(r.Kind, in.Namespace, r.Name)}
		uid := string(r.UID)
		m.str(classUID, &uid)
		o.UID = types.UID(uid)
		out.OwnerReferences = append(out.OwnerReferences, o)
	}
	if !m.collecting {
		reflect.ValueOf(obj).Elem().FieldByName("ObjectMeta").Set(reflect.ValueOf(out))
	}
}

// keepKey says whether a label (or taint) key is kept: Kubernetes' own, and
// the keys controllers set.
func keepKey(k string) bool {
	if prefix, _, ok := strings.Cut(k, "/"); ok {
		for _, d := range []string{"kubernetes.io", "k8s.io"} {
			if prefix == d || strings.HasSuffix(prefix, "."+d) {
				return true
			}
		}
		return false
	}
	switch k {
	case "pod-template-hash", "controller-revision-hash", "controller-uid", "job-name":
		return true
	}
	return false
}

func (m *Map) key(p *string) {
	if !keepKey(*p) {
		m.str(classKey, p)
	}
}

func (m *Map) keys(ps []string) {
	for i := range ps {
		m.key(&ps[i])
	}
}

// value maps a label (or taint) value by its original key.
func (m *Map) value(key string, p *string) {
	switch class := valueClass(key, *p); class {
	case "":
	case classNamespace:
		m.namespace(p)
	default:
		m.str(class, p)
	}
}

// valueClass is the class a label (or taint) value is mapped in, by its
// key; "" for one kept: whole numbers (Gt and Lt compare them), the os and
// arch, and controllers' hashes.
func valueClass(key, v string) string {
	if v == "" {
		return ""
	}
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		return ""
	}
	switch key {
	case v1.LabelHostname:
		return classNode
	case v1.LabelTopologyZone, v1.LabelFailureDomainBetaZone:
		return classZone
	case v1.LabelTopologyRegion, v1.LabelFailureDomainBetaRegion:
		return classRegion
	case "kubernetes.io/metadata.name":
		return classNamespace
	case v1.LabelOSStable, v1.LabelArchStable, "beta.kubernetes.io/os", "beta.kubernetes.io/arch",
		"pod-template-hash", "controller-revision-hash":
		return ""
	case "controller-uid", "batch.kubernetes.io/controller-uid":
		return classUID
	}
	return classValue
}

func (m *Map) values(key string, ps []string) {
	for i := range ps {
		m.value(key, &ps[i])
	}
}

func (m *Map) labels(in map[string]string) map[string]string {
	if len(in) == 0 {
		return in
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		m.value(k, &v)
		key := k
		m.key(&key)
		out[key] = v
	}
	if m.collecting {
		return in
	}
	return out
}

func (m *Map) selector(s *metav1.LabelSelector) {
	if s == nil {
		return
	}
	s.MatchLabels = m.labels(s.MatchLabels)
	for i := range s.MatchExpressions {
		e := &s.MatchExpressions[i]
		m.values(e.Key, e.Values)
		m.key(&e.Key)
	}
}

func (m *Map) nodeSelector(s *v1.NodeSelector) {
	if s == nil {
		return
	}
	for i := range s.NodeSelectorTerms {
		m.nodeSelectorTerm(&s.NodeSelectorTerms[i])
	}
}

func (m *Map) nodeSelectorTerm(t *v1.NodeSelectorTerm) {
	for i := range t.MatchExpressions {
		e := &t.MatchExpressions[i]
		m.values(e.Key, e.Values)
		m.key(&e.Key)
	}
	for i := range t.MatchFields {
		e := &t.MatchFields[i]
		if e.Key == "metadata.name" {
			for j := range e.Values {
				m.ref("Node", "", &e.Values[j])
			}
		}
	}
}

func (m *Map) affinityTerm(ns string, t *v1.PodAffinityTerm) {
	m.selector(t.LabelSelector)
	m.selector(t.NamespaceSelector)
	for i := range t.Namespaces {
		m.namespace(&t.Namespaces[i])
	}
	m.key(&t.TopologyKey)
	m.keys(t.MatchLabelKeys)
	m.keys(t.MismatchLabelKeys)
}

func (m *Map) affinity(ns string, a *v1.Affinity) {
	if a == nil {
		return
	}
	if n := a.NodeAffinity; n != nil {
		m.nodeSelector(n.RequiredDuringSchedulingIgnoredDuringExecution)
		for i := range n.PreferredDuringSchedulingIgnoredDuringExecution {
			m.nodeSelectorTerm(&n.PreferredDuringSchedulingIgnoredDuringExecution[i].Preference)
		}
	}
	for _, p := range []*v1.PodAffinity{a.PodAffinity} {
		if p == nil {
			continue
		}
		for i := range p.RequiredDuringSchedulingIgnoredDuringExecution {
			m.affinityTerm(ns, &p.RequiredDuringSchedulingIgnoredDuringExecution[i])
		}
		for i := range p.PreferredDuringSchedulingIgnoredDuringExecution {
			m.affinityTerm(ns, &p.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
		}
	}
	if p := a.PodAntiAffinity; p != nil {
		for i := range p.RequiredDuringSchedulingIgnoredDuringExecution {
			m.affinityTerm(ns, &p.RequiredDuringSchedulingIgnoredDuringExecution[i])
		}
		for i := range p.PreferredDuringSchedulingIgnoredDuringExecution {
			m.affinityTerm(ns, &p.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
		}
	}
}

func (m *Map) tolerations(ts []v1.Toleration) {
	for i := range ts {
		m.value(ts[i].Key, &ts[i].Value)
		m.key(&ts[i].Key)
	}
}

func (m *Map) taints(ts []v1.Taint) {
	for i := range ts {
		m.value(ts[i].Key, &ts[i].Value)
		m.key(&ts[i].Key)
	}
}

// image maps an image by the name ImageLocality compares: a pod's image
// without a tag or digest is ":latest". A node's image names are compared
// as they are, so one without a tag keeps none (and matches no pod's).
func (m *Map) image(p *string, node bool) {
	if *p == "" {
		return
	}
	s := *p
	untagged := strings.LastIndex(s, ":") <= strings.LastIndex(s, "/")
	if untagged {
		s += ":latest"
	}
	m.str(classImage, &s)
	if m.collecting {
		return
	}
	if !node || !untagged {
		s += ":latest"
	}
	*p = s
}

func (m *Map) containers(cs []v1.Container) {
	for i := range cs {
		c := &cs[i]
		m.str(classContainer, &c.Name)
		m.image(&c.Image, false)
		for j := range c.Ports {
			m.str(classPort, &c.Ports[j].Name)
		}
		for j := range c.Resources.Claims {
			m.str(classClaimRef, &c.Resources.Claims[j].Name)
		}
	}
}

// podSpec maps a pod's (or a template's) spec, after scrub.Pod.
func (m *Map) podSpec(ns string, s *v1.PodSpec) {
	m.ref("Node", "", &s.NodeName)
	s.NodeSelector = m.labels(s.NodeSelector)
	m.affinity(ns, s.Affinity)
	m.tolerations(s.Tolerations)
	m.ref("PriorityClass", "", &s.PriorityClassName)
	if s.RuntimeClassName != nil {
		m.ref("RuntimeClass", "", s.RuntimeClassName)
	}
	for i := range s.TopologySpreadConstraints {
		c := &s.TopologySpreadConstraints[i]
		m.key(&c.TopologyKey)
		m.selector(c.LabelSelector)
		m.keys(c.MatchLabelKeys)
	}
	for i := range s.SchedulingGates {
		m.str(classGate, &s.SchedulingGates[i].Name)
	}
	if g := s.SchedulingGroup; g != nil && g.PodGroupName != nil {
		m.ref("PodGroup", ns, g.PodGroupName)
	}
	for i := range s.ResourceClaims {
		c := &s.ResourceClaims[i]
		m.str(classClaimRef, &c.Name)
		if c.ResourceClaimName != nil {
			m.ref("ResourceClaim", ns, c.ResourceClaimName)
		}
		if c.ResourceClaimTemplateName != nil {
			m.ref("ResourceClaimTemplate", ns, c.ResourceClaimTemplateName)
		}
	}
	m.containers(s.InitContainers)
	m.containers(s.Containers)
	for i := range s.Volumes {
		m.volume(ns, &s.Volumes[i])
	}
}

func (m *Map) volume(ns string, v *v1.Volume) {
	m.str(classVolume, &v.Name)
	src := &v.VolumeSource
	if c := src.PersistentVolumeClaim; c != nil {
		m.ref("PersistentVolumeClaim", ns, &c.ClaimName)
	}
	if e := src.Ephemeral; e != nil && e.VolumeClaimTemplate != nil {
		e.VolumeClaimTemplate.Labels = m.labels(e.VolumeClaimTemplate.Labels)
		m.pvcSpec(ns, &e.VolumeClaimTemplate.Spec)
	}
	m.disks(src.GCEPersistentDisk, src.AWSElasticBlockStore, src.AzureDisk)
	if d := src.Cinder; d != nil {
		m.str(classDisk, &d.VolumeID)
	}
}

// disks maps the disk identifiers of the in-tree volume sources a pod's
// volume and a PersistentVolume share (Cinder's types differ) (VolumeZone and the volume limits
// count and match them).
func (m *Map) disks(gce *v1.GCEPersistentDiskVolumeSource, aws *v1.AWSElasticBlockStoreVolumeSource, azure *v1.AzureDiskVolumeSource) {
	if gce != nil {
		m.str(classDisk, &gce.PDName)
	}
	if aws != nil {
		m.str(classDisk, &aws.VolumeID)
	}
	if azure != nil {
		m.str(classDisk, &azure.DiskName)
		m.str(classDisk, &azure.DataDiskURI)
	}
}

func (m *Map) pvcSpec(ns string, s *v1.PersistentVolumeClaimSpec) {
	m.selector(s.Selector)
	m.ref("PersistentVolume", "", &s.VolumeName)
	if s.StorageClassName != nil {
		m.ref("StorageClass", "", s.StorageClassName)
	}
	if s.VolumeAttributesClassName != nil {
		m.ref("VolumeAttributesClass", "", s.VolumeAttributesClassName)
	}
}

func (m *Map) pvSpec(s *v1.PersistentVolumeSpec) {
	if r := s.ClaimRef; r != nil {
		m.ref("PersistentVolumeClaim", r.Namespace, &r.Name)
		m.namespace(&r.Namespace)
		r.UID = ""
	}
	m.ref("StorageClass", "", &s.StorageClassName)
	if s.VolumeAttributesClassName != nil {
		m.ref("VolumeAttributesClass", "", s.VolumeAttributesClassName)
	}
	if s.NodeAffinity != nil {
		m.nodeSelector(s.NodeAffinity.Required)
	}
	src := &s.PersistentVolumeSource
	if d := src.CSI; d != nil {
		m.str(classDisk, &d.VolumeHandle)
	}
	m.disks(src.GCEPersistentDisk, src.AWSElasticBlockStore, src.AzureDisk)
	if d := src.Cinder; d != nil {
		m.str(classDisk, &d.VolumeID)
	}
	if d := src.Local; d != nil {
		m.path(&d.Path)
	}
	if d := src.HostPath; d != nil && d.Path != scrub.RedactedHostPath {
		m.path(&d.Path)
	}
}

func (m *Map) path(p *string) {
	m.str(classPath, p)
	if !m.collecting && !strings.HasPrefix(*p, "/") {
		*p = "/schedscope/" + *p
	}
}

// template keeps of a workload's pod template its labels and its pod's
// allow-list, and maps them.
func (m *Map) template(ns string, t *v1.PodTemplateSpec) {
	if m.collecting {
		*t = v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: t.Labels}, Spec: scrub.Pod(&v1.Pod{Spec: t.Spec}).Spec}
		t.Spec = *t.Spec.DeepCopy()
	}
	t.Labels = m.labels(t.Labels)
	m.podSpec(ns, &t.Spec)
}

// scrub returns the part of obj the allow-list keeps (workloads' templates
// as pods'), nil for a kind it does not know.
func (m *Map) scrub(obj runtime.Object) runtime.Object {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return &appsv1.Deployment{ObjectMeta: o.ObjectMeta, Spec: appsv1.DeploymentSpec{Replicas: o.Spec.Replicas, Selector: o.Spec.Selector,
			Template: o.Spec.Template, Strategy: o.Spec.Strategy, MinReadySeconds: o.Spec.MinReadySeconds, Paused: o.Spec.Paused}}
	case *appsv1.ReplicaSet:
		return &appsv1.ReplicaSet{ObjectMeta: o.ObjectMeta, Spec: appsv1.ReplicaSetSpec{Replicas: o.Spec.Replicas, Selector: o.Spec.Selector, Template: o.Spec.Template}}
	case *appsv1.StatefulSet:
		return &appsv1.StatefulSet{ObjectMeta: o.ObjectMeta, Spec: appsv1.StatefulSetSpec{Replicas: o.Spec.Replicas, Selector: o.Spec.Selector,
			Template: o.Spec.Template, ServiceName: o.Spec.ServiceName, VolumeClaimTemplates: o.Spec.VolumeClaimTemplates,
			PodManagementPolicy: o.Spec.PodManagementPolicy, Ordinals: o.Spec.Ordinals}}
	case *appsv1.DaemonSet:
		return &appsv1.DaemonSet{ObjectMeta: o.ObjectMeta, Spec: appsv1.DaemonSetSpec{Selector: o.Spec.Selector, Template: o.Spec.Template}}
	case *v1.ReplicationController:
		return &v1.ReplicationController{ObjectMeta: o.ObjectMeta, Spec: v1.ReplicationControllerSpec{Replicas: o.Spec.Replicas, Selector: o.Spec.Selector, Template: o.Spec.Template}}
	case *batchv1.Job:
		out := &batchv1.Job{ObjectMeta: o.ObjectMeta, Spec: o.Spec}
		out.Spec.ManagedBy = nil
		return out
	case *batchv1.CronJob:
		out := &batchv1.CronJob{ObjectMeta: o.ObjectMeta}
		out.Spec.Schedule, out.Spec.Suspend, out.Spec.ConcurrencyPolicy = o.Spec.Schedule, o.Spec.Suspend, o.Spec.ConcurrencyPolicy
		out.Spec.JobTemplate.Labels, out.Spec.JobTemplate.Spec = o.Spec.JobTemplate.Labels, o.Spec.JobTemplate.Spec
		out.Spec.JobTemplate.Spec.ManagedBy = nil
		return out
	}
	out, known := scrub.Object(obj)
	if !known {
		return nil
	}
	return out
}

// object maps one object of kind; in is its metadata before scrub.
func (m *Map) object(kind string, in metav1.ObjectMeta, obj runtime.Object) {
	ns := in.Namespace
	switch o := obj.(type) {
	case *v1.Pod:
		m.podSpec(ns, &o.Spec)
		m.ref("Node", "", &o.Status.NominatedNodeName)
		for i := range o.Status.ResourceClaimStatuses {
			s := &o.Status.ResourceClaimStatuses[i]
			m.str(classClaimRef, &s.Name)
			if s.ResourceClaimName != nil {
				m.ref("ResourceClaim", ns, s.ResourceClaimName)
			}
		}
		if s := o.Status.ExtendedResourceClaimStatus; s != nil {
			m.ref("ResourceClaim", ns, &s.ResourceClaimName)
			for i := range s.RequestMappings {
				m.str(classContainer, &s.RequestMappings[i].ContainerName)
			}
		}
		for i := range o.Status.ContainerStatuses {
			m.str(classContainer, &o.Status.ContainerStatuses[i].Name)
		}
	case *v1.Node:
		m.taints(o.Spec.Taints)
		for i := range o.Status.Images {
			for j := range o.Status.Images[i].Names {
				m.image(&o.Status.Images[i].Names[j], true)
			}
		}
	case *v1.PersistentVolume:
		m.pvSpec(&o.Spec)
	case *v1.PersistentVolumeClaim:
		m.pvcSpec(ns, &o.Spec)
	case *v1.Service:
		o.Spec.Selector = m.labels(o.Spec.Selector)
		if o.Spec.ExternalName != "" {
			m.str(classHost, &o.Spec.ExternalName)
			if !m.collecting {
				o.Spec.ExternalName += ".example.invalid"
			}
		}
		for i := range o.Spec.Ports {
			p := &o.Spec.Ports[i]
			m.str(classPort, &p.Name)
			if p.TargetPort.Type == intstr.String {
				s := p.TargetPort.StrVal
				m.str(classPort, &s)
				p.TargetPort = intstr.FromString(s)
			}
		}
	case *v1.ReplicationController:
		o.Spec.Selector = m.labels(o.Spec.Selector)
		if o.Spec.Template != nil {
			m.template(ns, o.Spec.Template)
		}
	case *appsv1.ReplicaSet:
		m.selector(o.Spec.Selector)
		m.template(ns, &o.Spec.Template)
	case *appsv1.Deployment:
		m.selector(o.Spec.Selector)
		m.template(ns, &o.Spec.Template)
	case *appsv1.DaemonSet:
		m.selector(o.Spec.Selector)
		m.template(ns, &o.Spec.Template)
	case *appsv1.StatefulSet:
		m.selector(o.Spec.Selector)
		m.template(ns, &o.Spec.Template)
		m.ref("Service", ns, &o.Spec.ServiceName)
		for i := range o.Spec.VolumeClaimTemplates {
			c := &o.Spec.VolumeClaimTemplates[i]
			if m.collecting {
				*c = v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: c.Name, Labels: c.Labels}, Spec: *c.Spec.DeepCopy()}
			}
			m.str(classVolume, &c.Name)
			c.Labels = m.labels(c.Labels)
			m.pvcSpec(ns, &c.Spec)
		}
	case *batchv1.Job:
		m.jobSpec(ns, &o.Spec)
	case *batchv1.CronJob:
		o.Spec.JobTemplate.Labels = m.labels(o.Spec.JobTemplate.Labels)
		m.jobSpec(ns, &o.Spec.JobTemplate.Spec)
	case *policyv1.PodDisruptionBudget:
		m.selector(o.Spec.Selector)
		if len(o.Status.DisruptedPods) > 0 {
			out := map[string]metav1.Time{}
			for name, t := range o.Status.DisruptedPods {
				out[m.objectName("Pod", ns, name)] = t
			}
			if !m.collecting {
				o.Status.DisruptedPods = out
			}
		}
	case *storagev1.StorageClass:
		for i := range o.AllowedTopologies {
			for j := range o.AllowedTopologies[i].MatchLabelExpressions {
				e := &o.AllowedTopologies[i].MatchLabelExpressions[j]
				m.values(e.Key, e.Values)
				m.key(&e.Key)
			}
		}
	case *storagev1.CSINode:
		for i := range o.Spec.Drivers {
			d := &o.Spec.Drivers[i]
			m.str(classNodeID, &d.NodeID)
			m.keys(d.TopologyKeys)
		}
	case *storagev1.CSIStorageCapacity:
		m.selector(o.NodeTopology)
		m.ref("StorageClass", "", &o.StorageClassName)
	case *storagev1.VolumeAttachment:
		m.ref("Node", "", &o.Spec.NodeName)
		if o.Spec.Source.PersistentVolumeName != nil {
			m.ref("PersistentVolume", "", o.Spec.Source.PersistentVolumeName)
		}
		if s := o.Spec.Source.InlineVolumeSpec; s != nil {
			m.pvSpec(s)
		}
	case *nodev1.RuntimeClass:
		m.str(classHandler, &o.Handler)
		if s := o.Scheduling; s != nil {
			s.NodeSelector = m.labels(s.NodeSelector)
			m.tolerations(s.Tolerations)
		}
	case *resourcev1.ResourceClaim:
		m.claimSpec(&o.Spec)
		for i := range o.Status.ReservedFor {
			r := &o.Status.ReservedFor[i]
			if r.Resource == "pods" {
				m.ref("Pod", ns, &r.Name)
			}
			uid := string(r.UID)
			m.str(classUID, &uid)
			r.UID = types.UID(uid)
		}
		if a := o.Status.Allocation; a != nil {
			m.nodeSelector(a.NodeSelector)
			for i := range a.Devices.Results {
				m.str(classPool, &a.Devices.Results[i].Pool)
			}
		}
	case *resourcev1.ResourceClaimTemplate:
		o.Spec.Labels = m.labels(o.Spec.Labels)
		m.claimSpec(&o.Spec.Spec)
	case *resourcev1.ResourceSlice:
		if o.Spec.NodeName != nil {
			m.ref("Node", "", o.Spec.NodeName)
		}
		m.str(classPool, &o.Spec.Pool.Name)
		m.nodeSelector(o.Spec.NodeSelector)
	case *resourcev1.DeviceTaintRule:
		if s := o.Spec.DeviceSelector; s != nil && s.Pool != nil {
			m.str(classPool, s.Pool)
		}
	case *schedulingv1beta1.Workload:
		if r := o.Spec.ControllerRef; r != nil {
			m.ref(r.Kind, ns, &r.Name)
		}
		m.podGroupTemplates(ns, o.Spec.PodGroupTemplates)
		m.compositeTemplates(ns, o.Spec.CompositePodGroupTemplates)
	case *schedulingv1beta1.PodGroup:
		if p := o.Spec.ParentCompositePodGroupName; p != nil {
			m.ref("CompositePodGroup", ns, p)
		}
		if r := o.Spec.WorkloadRef; r != nil {
			m.workloadRef(ns, &r.WorkloadName, &r.TemplateName)
		}
		if c := o.Spec.SchedulingConstraints; c != nil {
			m.topology(c.Topology)
		}
		m.podGroupClaims(ns, o.Spec.ResourceClaims)
		m.ref("PriorityClass", "", &o.Spec.PriorityClassName)
		for i := range o.Status.ResourceClaimStatuses {
			s := &o.Status.ResourceClaimStatuses[i]
			m.str(classClaimRef, &s.Name)
			if s.ResourceClaimName != nil {
				m.ref("ResourceClaim", ns, s.ResourceClaimName)
			}
		}
	case *schedulingv1alpha3.CompositePodGroup:
		if p := o.Spec.ParentCompositePodGroupName; p != nil {
			m.ref("CompositePodGroup", ns, p)
		}
		if r := o.Spec.WorkloadRef; r != nil {
			m.workloadRef(ns, &r.WorkloadName, &r.TemplateName)
		}
		if c := o.Spec.SchedulingConstraints; c != nil {
			for i := range c.Topology {
				m.key(&c.Topology[i].Key)
			}
		}
		m.ref("PriorityClass", "", &o.Spec.PriorityClassName)
	case *v1.Namespace, *schedulingv1.PriorityClass, *v1.LimitRange, *storagev1.CSIDriver, *resourcev1.DeviceClass:
		// Nothing but their metadata names the cluster.
	}
	m.meta(kind, in, obj)
}

func (m *Map) jobSpec(ns string, s *batchv1.JobSpec) {
	m.selector(s.Selector)
	m.template(ns, &s.Template)
	if p := s.PodFailurePolicy; p != nil {
		for i := range p.Rules {
			if e := p.Rules[i].OnExitCodes; e != nil && e.ContainerName != nil {
				m.str(classContainer, e.ContainerName)
			}
		}
	}
}

// workloadRef maps a pod group's reference to its Workload and the
// template there it was made from (template names are one class, a
// PodGroupTemplate's and a CompositePodGroupTemplate's alike).
func (m *Map) workloadRef(ns string, workload, template *string) {
	m.ref("Workload", ns, workload)
	m.str(classTemplate, template)
}

// topology maps a pod group's topology constraints' keys as label keys
// (Kubernetes' own, topology.kubernetes.io/zone, are kept).
func (m *Map) topology(ts []schedulingv1beta1.TopologyConstraint) {
	for i := range ts {
		m.key(&ts[i].Key)
	}
}

func (m *Map) podGroupClaims(ns string, cs []schedulingv1beta1.PodGroupResourceClaim) {
	for i := range cs {
		c := &cs[i]
		m.str(classClaimRef, &c.Name)
		if c.ResourceClaimName != nil {
			m.ref("ResourceClaim", ns, c.ResourceClaimName)
		}
		if c.ResourceClaimTemplateName != nil {
			m.ref("ResourceClaimTemplate", ns, c.ResourceClaimTemplateName)
		}
	}
}

func (m *Map) podGroupTemplates(ns string, ts []schedulingv1beta1.PodGroupTemplate) {
	for i := range ts {
		t := &ts[i]
		m.str(classTemplate, &t.Name)
		if c := t.SchedulingConstraints; c != nil {
			m.topology(c.Topology)
		}
		m.podGroupClaims(ns, t.ResourceClaims)
		m.ref("PriorityClass", "", &t.PriorityClassName)
	}
}

func (m *Map) compositeTemplates(ns string, ts []schedulingv1beta1.CompositePodGroupTemplate) {
	for i := range ts {
		t := &ts[i]
		m.str(classTemplate, &t.Name)
		if c := t.SchedulingConstraints; c != nil {
			m.topology(c.Topology)
		}
		m.ref("PriorityClass", "", &t.PriorityClassName)
		m.podGroupTemplates(ns, t.PodGroupTemplates)
		m.compositeTemplates(ns, t.CompositePodGroupTemplates)
	}
}

func (m *Map) claimSpec(s *resourcev1.ResourceClaimSpec) {
	for i := range s.Devices.Requests {
		r := &s.Devices.Requests[i]
		if r.Exactly != nil {
			m.ref("DeviceClass", "", &r.Exactly.DeviceClassName)
		}
		for j := range r.FirstAvailable {
			m.ref("DeviceClass", "", &r.FirstAvailable[j].DeviceClassName)
		}
	}
}

func kindOf(obj runtime.Object) string {
	t := reflect.TypeOf(obj)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

// objectMeta returns a typed object's metadata.
func objectMeta(obj runtime.Object) (metav1.ObjectMeta, bool) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return metav1.ObjectMeta{}, false
	}
	f := v.Elem().FieldByName("ObjectMeta")
	if !f.IsValid() {
		return metav1.ObjectMeta{}, false
	}
	meta, ok := f.Interface().(metav1.ObjectMeta)
	return meta, ok
}
