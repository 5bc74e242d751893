package engine

import (
	"github.com/schedscope/schedscope/recorder"

	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

// forkSecretive is forkStuck whose pod, and node cordoned, also hold values
// marked LEAK (in any case: names must be lowercase) in the places snapshot
// scrubs, beside what the scheduler reads.
func forkSecretive(t *testing.T) *Fork {
	t.Helper()
	f := forkStuck(t)
	p := f.Pod.DeepCopy()
	p.Labels = map[string]string{"app": "web"}
	p.Annotations = map[string]string{"example.com/token": "LEAK-annotation"}
	p.Spec.Tolerations = []v1.Toleration{{Key: "dedicated", Operator: v1.TolerationOpExists}}
	p.Spec.ImagePullSecrets = []v1.LocalObjectReference{{Name: "leak-pull-secret"}}
	c := &p.Spec.Containers[0]
	c.Image = "registry.example/web:1"
	c.Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("1Gi")}
	c.Command, c.Args = []string{"run", "--password=LEAK-command"}, []string{"LEAK-arg"}
	c.Env = []v1.EnvVar{{Name: "PASSWORD", Value: "LEAK-env"}}
	c.EnvFrom = []v1.EnvFromSource{{SecretRef: &v1.SecretEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "leak-envfrom"}}}}
	p.Spec.Volumes = []v1.Volume{
		{Name: "csi", VolumeSource: v1.VolumeSource{CSI: &v1.CSIVolumeSource{Driver: "csi.example.com",
			VolumeAttributes: map[string]string{"password": "LEAK-csi-attribute"}, NodePublishSecretRef: &v1.LocalObjectReference{Name: "leak-csi-ref"}}}},
		{Name: "git", VolumeSource: v1.VolumeSource{GitRepo: &v1.GitRepoVolumeSource{Repository: "https://user:LEAK-git@example.com/r.git"}}},
		{Name: "creds", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "leak-secret-volume"}}},
		{Name: "claim", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}},
	}
	c.VolumeMounts = []v1.VolumeMount{{Name: "creds", MountPath: "/leak-mount"}}
	admitted, err := f.admitPod(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Pod = admitted
	i, err := f.nodeIndex("cordoned")
	if err != nil {
		t.Fatal(err)
	}
	n := f.Nodes[i]
	n.Annotations = map[string]string{"cloud.example.com/api-key": "LEAK-node-annotation"}
	n.Spec.ProviderID = "LEAK-provider-id"
	n.Status.Addresses = []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: "LEAK-address"}}
	return f
}

// The manifests handed to $EDITOR hold what the scheduler reads and none of
// the values snapshot scrubs: environment, commands, annotations, volume
// attributes, secret names.
func TestPodYAMLHoldsOnlyWhatTheSchedulerReads(t *testing.T) {
	f := forkSecretive(t)
	full, err := yaml.Marshal(f.Pod)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(full), "LEAK-env") {
		t.Fatal("the fork's pod holds no secret to begin with; the check would prove nothing")
	}
	pod, err := f.PodYAML()
	if err != nil {
		t.Fatal(err)
	}
	node, err := f.NodeYAML("cordoned")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		manifest []byte
		want     []string
	}{
		{"pod", pod, []string{"kind: Pod", "name: stuck", "namespace: default", "image: registry.example/web:1", "cpu: 250m", "memory: 1Gi", "key: dedicated", "claimName: data", "tier: batch", "app: web"}},
		{"node", node, []string{"kind: Node", "name: cordoned", "unschedulable: true", "cpu: \"8\""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := string(tt.manifest)
			for _, line := range strings.Split(s, "\n") {
				l := strings.ToLower(strings.TrimSpace(line))
				for _, leak := range []string{"leak", "managedfields", "resourceversion"} {
					if strings.Contains(l, leak) || strings.HasPrefix(l, "uid:") {
						t.Errorf("the manifest keeps %q", strings.TrimSpace(line))
					}
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("the manifest lacks %q:\n%s", w, s)
				}
			}
		})
	}
}

// An edit of the manifest is applied onto the whole pod: what the editor
// never showed survives, what the user changed or deleted changes.
func TestPodYAMLEditKeepsWhatTheEditorDidNotShow(t *testing.T) {
	f := forkSecretive(t)
	manifest, err := f.PodYAML()
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(manifest), "cpu: 250m", "cpu: 500m", 1)
	edited = strings.Replace(edited, "    app: web\n", "", 1)
	if edited == string(manifest) {
		t.Fatalf("the edit changed nothing in:\n%s", manifest)
	}
	g, err := f.With(recorder.EditPod{Shown: manifest, Edited: []byte(edited), Source: "the edited pod"})
	if err != nil {
		t.Fatal(err)
	}
	p := g.Pod
	c := p.Spec.Containers[0]
	if got := c.Resources.Requests[v1.ResourceCPU]; got.Cmp(resource.MustParse("500m")) != 0 {
		t.Errorf("cpu request %s, want the edited 500m", got.String())
	}
	if _, ok := p.Labels["app"]; ok {
		t.Errorf("labels %v: the deleted label is still there", p.Labels)
	}
	var envFrom, mount, pullSecret, csiAttribute, csiSecret, secretVolume, gitRepo string
	if len(c.EnvFrom) > 0 && c.EnvFrom[0].SecretRef != nil {
		envFrom = c.EnvFrom[0].SecretRef.Name
	}
	if len(c.VolumeMounts) > 0 {
		mount = c.VolumeMounts[0].MountPath
	}
	if len(p.Spec.ImagePullSecrets) > 0 {
		pullSecret = p.Spec.ImagePullSecrets[0].Name
	}
	if v := volume(p, "csi").CSI; v != nil {
		csiAttribute = v.VolumeAttributes["password"]
		if v.NodePublishSecretRef != nil {
			csiSecret = v.NodePublishSecretRef.Name
		}
	}
	if v := volume(p, "creds").Secret; v != nil {
		secretVolume = v.SecretName
	}
	if v := volume(p, "git").GitRepo; v != nil {
		gitRepo = v.Repository
	}
	kept := []struct {
		what      string
		got, want string
	}{
		{"env", envValue(c, "PASSWORD"), "LEAK-env"},
		{"command", strings.Join(c.Command, " "), "run --password=LEAK-command"},
		{"args", strings.Join(c.Args, " "), "LEAK-arg"},
		{"envFrom", envFrom, "leak-envfrom"},
		{"mount", mount, "/leak-mount"},
		{"annotation", p.Annotations["example.com/token"], "LEAK-annotation"},
		{"image pull secret", pullSecret, "leak-pull-secret"},
		{"CSI attribute", csiAttribute, "LEAK-csi-attribute"},
		{"CSI secret", csiSecret, "leak-csi-ref"},
		{"secret volume", secretVolume, "leak-secret-volume"},
		{"gitRepo", gitRepo, "https://user:LEAK-git@example.com/r.git"},
		{"uid", string(p.UID), string(f.Pod.UID)},
	}
	for _, k := range kept {
		if k.got != k.want {
			t.Errorf("%s: %q after the edit, want %q kept", k.what, k.got, k.want)
		}
	}
}

// An edit that changes nothing gives the pod that replacing it with its
// whole manifest gave (what the TUI did before the manifest was scrubbed).
func TestPodYAMLUnchangedEditIsTheWholePod(t *testing.T) {
	f := forkSecretive(t)
	manifest, err := f.PodYAML()
	if err != nil {
		t.Fatal(err)
	}
	whole := f.Pod.DeepCopy()
	whole.APIVersion, whole.Kind = "v1", "Pod"
	whole.ManagedFields = nil
	wholeYAML, err := yaml.Marshal(whole)
	if err != nil {
		t.Fatal(err)
	}
	edited, err := f.With(recorder.EditPod{Shown: manifest, Edited: manifest, Source: "the edited pod"})
	if err != nil {
		t.Fatal(err)
	}
	replaced, err := f.With(recorder.ReplacePod{Manifest: wholeYAML, Source: "the whole pod"})
	if err != nil {
		t.Fatal(err)
	}
	if !equality.Semantic.DeepEqual(replaced.Pod, edited.Pod) {
		a, _ := yaml.Marshal(replaced.Pod)
		b, _ := yaml.Marshal(edited.Pod)
		t.Errorf("an unchanged edit differs from the whole pod (-replaced +edited):\n%s", cmp.Diff(string(a), string(b)))
	}
}

// A node's edit is applied onto the whole node likewise.
func TestWhatIfNodeEditKeepsWhatTheEditorDidNotShow(t *testing.T) {
	f := forkSecretive(t)
	manifest, err := f.NodeYAML("cordoned")
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(manifest), "unschedulable: true", "unschedulable: false", 1)
	g, err := f.With(recorder.EditNode{Node: "cordoned", Shown: manifest, Edited: []byte(edited), Source: "the edited node cordoned"})
	if err != nil {
		t.Fatal(err)
	}
	i, _ := g.nodeIndex("cordoned")
	n := g.Nodes[i]
	if n.Spec.Unschedulable {
		t.Error("the node is still cordoned")
	}
	if n.Annotations["cloud.example.com/api-key"] != "LEAK-node-annotation" || n.Spec.ProviderID != "LEAK-provider-id" ||
		len(n.Status.Addresses) != 1 || n.Labels["tier"] != "batch" {
		t.Errorf("the edit lost what the manifest left out: annotations %v, providerID %q, addresses %v, labels %v",
			n.Annotations, n.Spec.ProviderID, n.Status.Addresses, n.Labels)
	}
}

func envValue(c v1.Container, name string) string {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
}

func volume(p *v1.Pod, name string) *v1.Volume {
	for i := range p.Spec.Volumes {
		if p.Spec.Volumes[i].Name == name {
			return &p.Spec.Volumes[i]
		}
	}
	return &v1.Volume{}
}
