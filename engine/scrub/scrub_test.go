package scrub

import (
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// secretive returns objects with a secret-like value, marked SECRET, in every
// place where clusters are known to keep them, next to the fields the
// scheduler reads.
func secretive() []runtime.Object {
	leaky := metav1.ObjectMeta{Name: "x", Namespace: "default", Labels: map[string]string{"app": "web"},
		Annotations: map[string]string{"example.com/token": "SECRET-annotation", "kubectl.kubernetes.io/last-applied-configuration": "SECRET-last-applied"}}
	container := v1.Container{Name: "c", Image: "registry.example/web:1",
		Command: []string{"run", "--password=SECRET-command"}, Args: []string{"SECRET-arg"},
		Env:           []v1.EnvVar{{Name: "PASSWORD", Value: "SECRET-env"}},
		EnvFrom:       []v1.EnvFromSource{{SecretRef: &v1.SecretEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "SECRET-envfrom"}}}},
		Resources:     v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m")}},
		Ports:         []v1.ContainerPort{{ContainerPort: 80, HostPort: 8080}},
		LivenessProbe: &v1.Probe{ProbeHandler: v1.ProbeHandler{Exec: &v1.ExecAction{Command: []string{"SECRET-probe"}}}},
	}
	template := v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"vault": "SECRET-template-annotation"}},
		Spec: v1.PodSpec{Containers: []v1.Container{container}}}
	secretRef := &v1.SecretReference{Name: "SECRET-secret-ref", Namespace: "default"}
	pod := &v1.Pod{ObjectMeta: leaky, Spec: v1.PodSpec{
		Containers:  []v1.Container{container},
		Tolerations: []v1.Toleration{{Key: "dedicated", Operator: v1.TolerationOpExists}},
		Volumes: []v1.Volume{
			{Name: "csi", VolumeSource: v1.VolumeSource{CSI: &v1.CSIVolumeSource{Driver: "csi.example.com",
				VolumeAttributes:     map[string]string{"password": "SECRET-csi-attribute"},
				NodePublishSecretRef: &v1.LocalObjectReference{Name: "SECRET-csi-ref"}}}},
			{Name: "flex", VolumeSource: v1.VolumeSource{FlexVolume: &v1.FlexVolumeSource{Driver: "example/flex", Options: map[string]string{"pw": "SECRET-flex"}}}},
			{Name: "git", VolumeSource: v1.VolumeSource{GitRepo: &v1.GitRepoVolumeSource{Repository: "https://user:SECRET-git@example.com/r.git"}}},
			{Name: "iscsi", VolumeSource: v1.VolumeSource{ISCSI: &v1.ISCSIVolumeSource{TargetPortal: "10.0.0.1:3260", IQN: "iqn.2001-04.com.example:t", Lun: 1,
				SecretRef: &v1.LocalObjectReference{Name: "SECRET-iscsi"}, InitiatorName: ptrTo("SECRET-initiator")}}},
			{Name: "rbd", VolumeSource: v1.VolumeSource{RBD: &v1.RBDVolumeSource{CephMonitors: []string{"mon:6789"}, RBDImage: "img", RBDPool: "pool",
				RadosUser: "SECRET-rados-user", Keyring: "/etc/SECRET-keyring", SecretRef: &v1.LocalObjectReference{Name: "SECRET-rbd"}}}},
			{Name: "secret", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "SECRET-secret-volume"}}},
			{Name: "claim", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}},
		},
	}}
	pv := &v1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: "pv", Annotations: map[string]string{"pv.kubernetes.io/bound-by-controller": "yes", "note": "SECRET-pv-annotation"}},
		Spec: v1.PersistentVolumeSpec{Capacity: v1.ResourceList{v1.ResourceStorage: resource.MustParse("1Gi")}, AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce},
			PersistentVolumeSource: v1.PersistentVolumeSource{CSI: &v1.CSIPersistentVolumeSource{Driver: "csi.example.com", VolumeHandle: "vol-1",
				VolumeAttributes: map[string]string{"key": "SECRET-pv-attribute"}, NodePublishSecretRef: secretRef, ControllerPublishSecretRef: secretRef,
				NodeStageSecretRef: secretRef, ControllerExpandSecretRef: secretRef, NodeExpandSecretRef: secretRef}}}}
	nfs := &v1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: "nfs"},
		Spec: v1.PersistentVolumeSpec{PersistentVolumeSource: v1.PersistentVolumeSource{NFS: &v1.NFSVolumeSource{Server: "SECRET-nfs-server", Path: "/SECRET-nfs-path"}}}}
	pvc := &v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data", Namespace: "default",
		Annotations: map[string]string{"volume.kubernetes.io/selected-node": "node-a", "backup.example.com/key": "SECRET-pvc-annotation"}},
		Spec: v1.PersistentVolumeClaimSpec{DataSourceRef: &v1.TypedObjectReference{Kind: "Snapshot", Name: "SECRET-datasource"}}}
	replicas := int32(2)
	rs := &appsv1.ReplicaSet{ObjectMeta: leaky, Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, Template: template}}
	ss := &appsv1.StatefulSet{ObjectMeta: leaky, Spec: appsv1.StatefulSetSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, Template: template}}
	rc := &v1.ReplicationController{ObjectMeta: leaky, Spec: v1.ReplicationControllerSpec{Replicas: &replicas, Selector: map[string]string{"app": "web"}, Template: &template}}
	sc := &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: "fast"}, Provisioner: "csi.example.com",
		Parameters: map[string]string{"csi.storage.k8s.io/provisioner-secret-name": "SECRET-sc-parameter"}, MountOptions: []string{"SECRET-mount-option"}}
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{"zone": "a"}, Annotations: map[string]string{"cloud.example.com/api-key": "SECRET-node-annotation"}},
		Spec:   v1.NodeSpec{ProviderID: "SECRET-provider-id", Taints: []v1.Taint{{Key: "dedicated", Effect: v1.TaintEffectNoSchedule}}},
		Status: v1.NodeStatus{Allocatable: v1.ResourceList{v1.ResourceCPU: resource.MustParse("4")}, Addresses: []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: "SECRET-address"}}}}
	claim := &resourcev1.ResourceClaim{ObjectMeta: leaky}
	claim.Spec.Devices.Requests = []resourcev1.DeviceRequest{{Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu.example.com"}}}
	opaque := resourcev1.DeviceConfiguration{Opaque: &resourcev1.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"token":"SECRET-dra"}`)}}}
	claim.Spec.Devices.Config = []resourcev1.DeviceClaimConfiguration{{DeviceConfiguration: opaque}}
	class := &resourcev1.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "gpu.example.com"}, Spec: resourcev1.DeviceClassSpec{Config: []resourcev1.DeviceClassConfiguration{{DeviceConfiguration: opaque}}}}
	return []runtime.Object{pod, pv, nfs, pvc, rs, ss, rc, sc, node, claim, class}
}

func ptrTo[T any](v T) *T { return &v }

func TestScrubKeepsNoSecret(t *testing.T) {
	objs := secretive()
	var all strings.Builder
	for _, obj := range objs {
		before, err := yaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(before), "SECRET") {
			t.Fatalf("%T holds no secret to begin with; the check would prove nothing", obj)
		}
		out, known := Object(obj)
		if !known {
			t.Errorf("Object does not know %T", obj)
		}
		data, err := yaml.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "SECRET") {
				t.Errorf("%T keeps %q", obj, strings.TrimSpace(line))
			}
		}
		all.Write(data)
	}
	// What the scheduler reads survives.
	for _, want := range []string{
		"image: registry.example/web:1", "cpu: 250m", "hostPort: 8080", "key: dedicated", "claimName: data",
		"driver: csi.example.com", "volumeHandle: vol-1", "volume.kubernetes.io/selected-node: node-a",
		"pv.kubernetes.io/bound-by-controller: \"yes\"", "iqn: iqn.2001-04.com.example:t", "image: img",
		"provisioner: csi.example.com", "deviceClassName: gpu.example.com", "app: web", "zone: a", "path: " + RedactedHostPath,
	} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the scrubbed objects lost %q", want)
		}
	}
}

// What Object keeps, written and read back as a snapshot is, is Clean; what
// it drops is not.
func TestCleanIsWhatObjectKeeps(t *testing.T) {
	for _, obj := range secretive() {
		if Clean(obj) {
			t.Errorf("%T with secret-like values is clean", obj)
		}
		out, _ := Object(obj)
		data, err := yaml.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		back := reflect.New(reflect.TypeOf(out).Elem()).Interface().(runtime.Object)
		if err := yaml.UnmarshalStrict(data, back); err != nil {
			t.Fatal(err)
		}
		if !Clean(back) {
			t.Errorf("%T as a snapshot writes it is not clean:\n%s", obj, data)
		}
	}
}
