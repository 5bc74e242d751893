package commands

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder/export/otel"
	"github.com/schedscope/schedscope/recorder/input"
)

// DeployOptions holds the flags of deploy.
type DeployOptions struct {
	// gates is --feature-gates, passed on to live (and the role grants
	// what the scheduler reads under them).
	gates           featureGatesFlag
	Namespace       string
	ClusterName     string
	CreateNamespace bool
	Image           string
	Config          string
	OTLPEndpoint    string
	OTLPProtocol    string
	Storage         string
	MaxSize         int64
	Keep            int
	streams         genericiooptions.IOStreams
}

// NewCmdDeploy prints the manifests of an in-cluster flight recorder.
func NewCmdDeploy(streams genericiooptions.IOStreams) *cobra.Command {
	o := &DeployOptions{streams: streams}
	cmd := &cobra.Command{
		Use:   "deploy --image IMAGE [--namespace NS] [--otlp-endpoint URL] [--config FILE]",
		Short: "Print the manifests of an in-cluster flight recorder: live --no-tui --record, as a Deployment",
		Long: "deploy prints, as rbac does, what runs schedscope inside the cluster as a flight recorder: a namespace\n" +
			"held to the restricted Pod Security Standard, a ServiceAccount with the read-only ClusterRole live needs and its\n" +
			"binding, a ConfigMap with the scheduler configuration (--config, else kube-scheduler's defaults), a\n" +
			"PersistentVolumeClaim for the rotating recordings, and a Deployment running\n" +
			"  kubectl-schedscope live --no-tui -A --record /var/lib/schedscope/flight.ssr [--otlp-endpoint URL]\n" +
			"non-root, on a read-only root filesystem, without privilege escalation or capabilities, with resources\n" +
			"requested and liveness and readiness probes on --health-addr. Nothing is sent to the cluster:\n" +
			"  kubectl schedscope deploy --image REGISTRY/kubectl-schedscope:TAG --otlp-endpoint http://otel-collector.observability:4317 | kubectl apply -f -\n" +
			"Copy a recording out with kubectl cp, and open it with replay. No image is published: build one from\n" +
			".image/Dockerfile (docker build -f .image/Dockerfile -t REGISTRY/kubectl-schedscope:TAG .) and push it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			silenceKlog()
			out, err := o.manifests(cmd)
			if err != nil {
				return err
			}
			_, err = streams.Out.Write(out)
			return err
		},
	}
	cmd.Flags().StringVarP(&o.Namespace, "namespace", "n", "schedscope", "namespace to run in")
	cmd.Flags().BoolVar(&o.CreateNamespace, "create-namespace", true, "print the namespace too, labelled to enforce the restricted Pod Security Standard (false: it exists)")
	cmd.Flags().StringVar(&o.Image, "image", "", "container image with kubectl-schedscope as its entrypoint, built from .image/Dockerfile (required: none is published; README: Fleet)")
	cmd.Flags().StringVar(&o.Config, "config", "", "the cluster's KubeSchedulerConfiguration file, put in the ConfigMap (default: kube-scheduler's default profile)")
	o.gates.addFlag(cmd.Flags())
	cmd.Flags().StringVar(&o.OTLPEndpoint, "otlp-endpoint", "", "send every cycle as a trace to this OTLP endpoint, from inside the cluster (e.g. http://otel-collector.observability:4317)")
	cmd.Flags().StringVar(&o.ClusterName, "cluster-name", "", "the cluster's name in the traces (k8s.cluster.name, through OTEL_RESOURCE_ATTRIBUTES): inside the cluster no kubeconfig context names it")
	cmd.Flags().StringVar(&o.OTLPProtocol, "otlp-protocol", "", "grpc or http/protobuf (default: grpc for port 4317, else http/protobuf)")
	cmd.Flags().StringVar(&o.Storage, "storage", "", "size of the recordings' volume (default: room for --keep+1 files of --max-size, and a quarter more)")
	cmd.Flags().Int64Var(&o.MaxSize, "max-size", 256<<20, "start a new recording file when one reaches this many bytes")
	cmd.Flags().IntVar(&o.Keep, "keep", 4, "how many full recording files to keep")
	return cmd
}

// The names deploy gives what it prints.
const (
	deployName             = "schedscope"
	configKey              = "config.yaml"
	configDir              = "/etc/schedscope"
	recordingsDir          = "/var/lib/schedscope"
	healthPort             = 8080
	deployUID              = 65532 // distroless's nonroot
	defaultSchedulerConfig = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n# kube-scheduler's default profile; replace with the cluster's own configuration.\n"
)

func (o *DeployOptions) manifests(cmd *cobra.Command) ([]byte, error) {
	if errs := validation.IsDNS1123Label(o.Namespace); len(errs) > 0 {
		return nil, errorf("--namespace %q: %s", input.Quote(o.Namespace), errs[0])
	}
	if strings.ContainsAny(o.ClusterName, ",=") {
		return nil, errorf("--cluster-name %q: a name without , or =", input.Quote(o.ClusterName))
	}
	if o.MaxSize <= 0 || o.Keep < 0 {
		return nil, errorf("--max-size must be positive and --keep not negative")
	}
	// The endpoint is the cluster's, checked without this shell's
	// OTEL_* variables, which the Deployment does not see.
	if o.OTLPProtocol != "" && o.OTLPEndpoint == "" {
		return nil, errorf("--otlp-protocol needs --otlp-endpoint")
	}
	if o.OTLPEndpoint != "" {
		if _, _, err := otel.Resolve("--otlp-endpoint", o.OTLPEndpoint, o.OTLPProtocol, func(string) string { return "" }); err != nil {
			return nil, errorf("%v", err)
		}
	}
	storage := resource.NewQuantity((o.MaxSize*int64(o.Keep+1))*5/4, resource.BinarySI)
	if o.Storage != "" {
		q, err := resource.ParseQuantity(o.Storage)
		if err != nil {
			return nil, errorf("--storage %q: %v", input.Quote(o.Storage), err)
		}
		storage = &q
	}
	config := []byte(defaultSchedulerConfig)
	opts := &engine.Options{}
	if o.Config != "" {
		b, err := os.ReadFile(o.Config)
		if err != nil {
			return nil, err
		}
		cfg, err := engine.LoadConfigFile(o.Config)
		if err != nil {
			return nil, err
		}
		if b, err = withoutExtenderTLS(b); err != nil {
			return nil, fmt.Errorf("%s: %w", o.Config, err)
		}
		config, opts.Config = b, cfg
	}
	// No schedscope image is published: a default would name one that
	// does not exist, and a pod that never starts once applied.
	if strings.TrimSpace(o.Image) == "" {
		return nil, errorf("deploy needs --image: no schedscope image is published; build one from .image/Dockerfile (docker build -f .image/Dockerfile -t REGISTRY/kubectl-schedscope:TAG .) and push it where the cluster pulls from")
	}
	role, err := clusterRole(cmd.Context(), opts)
	if err != nil {
		return nil, err
	}

	ns := o.Namespace
	meta := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app.kubernetes.io/name": deployName}}
	}
	var objs []runtime.Object
	if o.CreateNamespace {
		objs = append(objs, &v1.Namespace{TypeMeta: typeMeta("v1", "Namespace"), ObjectMeta: metav1.ObjectMeta{Name: ns, Labels: map[string]string{
			"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/warn": "restricted"}}})
	}
	objs = append(objs,
		&v1.ServiceAccount{TypeMeta: typeMeta("v1", "ServiceAccount"), ObjectMeta: meta(deployName)},
		role,
		&rbacv1.ClusterRoleBinding{TypeMeta: typeMeta("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"),
			ObjectMeta: metav1.ObjectMeta{Name: ClusterRoleName + "-" + ns},
			RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: ClusterRoleName},
			Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: deployName, Namespace: ns}}},
		&v1.ConfigMap{TypeMeta: typeMeta("v1", "ConfigMap"), ObjectMeta: meta(deployName + "-config"), Data: map[string]string{configKey: string(config)}},
		&v1.PersistentVolumeClaim{TypeMeta: typeMeta("v1", "PersistentVolumeClaim"), ObjectMeta: meta(deployName + "-recordings"),
			Spec: v1.PersistentVolumeClaimSpec{AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce},
				Resources: v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: *storage}}}},
		o.deployment(meta(deployName)),
	)
	var out bytes.Buffer
	for i, obj := range objs {
		b, err := yaml.Marshal(obj)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out.WriteString("---\n")
		}
		out.Write(dropEmpty(b))
	}
	return out.Bytes(), nil
}

func typeMeta(apiVersion, kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}
}

// dropEmpty removes what the API types marshal and a manifest does not
// say: "creationTimestamp: null", and an empty top-level spec or status.
func dropEmpty(b []byte) []byte {
	var kept [][]byte
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		switch string(bytes.TrimRight(line, "\n")) {
		case "status: {}", "spec: {}":
			continue
		}
		if !bytes.Equal(bytes.TrimSpace(line), []byte("creationTimestamp: null")) {
			kept = append(kept, line)
		}
	}
	return bytes.Join(kept, nil)
}

// withoutExtenderTLS returns a KubeSchedulerConfiguration without its
// extenders' tlsConfig (private key, certificate, CA): the deployed live
// never calls an extender, and a ConfigMap is no place for a key. A
// configuration without one is returned as it was, comments and all.
func withoutExtenderTLS(config []byte) ([]byte, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(config, &doc); err != nil {
		return nil, err
	}
	extenders, _ := doc["extenders"].([]any)
	stripped := false
	for _, e := range extenders {
		if ext, ok := e.(map[string]any); ok {
			if _, ok := ext["tlsConfig"]; ok {
				delete(ext, "tlsConfig")
				stripped = true
			}
		}
	}
	if !stripped {
		return config, nil
	}
	return yaml.Marshal(doc)
}

// deployGracePeriod is the pod's terminationGracePeriodSeconds: on SIGTERM
// live closes its recording and sends its last traces, which --otlp-timeout
// (5 s by default) bounds; the rest is room for a slow volume.
const deployGracePeriod = 30 * time.Second

func (o *DeployOptions) deployment(meta metav1.ObjectMeta) *appsv1.Deployment {
	args := []string{"live", "--no-tui", "-A", "--config", configDir + "/" + configKey,
		"--record", recordingsDir + "/flight.ssr", "--max-size", strconv.FormatInt(o.MaxSize, 10), "--keep", strconv.Itoa(o.Keep),
		"--health-addr", fmt.Sprintf(":%d", healthPort)}
	if len(o.gates.gates) > 0 {
		args = append(args, "--feature-gates", o.gates.value)
	}
	if o.OTLPEndpoint != "" {
		args = append(args, "--otlp-endpoint", o.OTLPEndpoint)
		if o.OTLPProtocol != "" {
			args = append(args, "--otlp-protocol", o.OTLPProtocol)
		}
	}
	env := []v1.EnvVar{{Name: "HOME", Value: "/tmp"}}
	if o.ClusterName != "" {
		env = append(env, v1.EnvVar{Name: "OTEL_RESOURCE_ATTRIBUTES", Value: "k8s.cluster.name=" + o.ClusterName})
	}
	yes, no := true, false
	uid, grace := int64(deployUID), int64(deployGracePeriod/time.Second)
	one := int32(1)
	probe := func(path string, period int32) *v1.Probe {
		return &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Path: path, Port: intstr.FromString("health")}}, PeriodSeconds: period}
	}
	labels := map[string]string{"app.kubernetes.io/name": deployName}
	return &appsv1.Deployment{
		TypeMeta:   typeMeta("apps/v1", "Deployment"),
		ObjectMeta: meta,
		Spec: appsv1.DeploymentSpec{
			Replicas: &one,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			// One writer of the recordings' volume (ReadWriteOnce) at a time.
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
			Template: v1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: v1.PodSpec{
					ServiceAccountName:            deployName,
					TerminationGracePeriodSeconds: &grace,
					SecurityContext: &v1.PodSecurityContext{RunAsNonRoot: &yes, RunAsUser: &uid, RunAsGroup: &uid, FSGroup: &uid,
						SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault}},
					Containers: []v1.Container{{
						Name:  deployName,
						Image: o.Image,
						Args:  args,
						// Where a tool looks for its home, cache and config.
						Env:   env,
						Ports: []v1.ContainerPort{{Name: "health", ContainerPort: healthPort}},
						Resources: v1.ResourceRequirements{
							Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("512Mi")},
							Limits:   v1.ResourceList{v1.ResourceMemory: resource.MustParse("2Gi")},
						},
						// Ready once the mirror has listed the cluster, and
						// while it reaches the API server.
						ReadinessProbe: probe("/readyz", 10),
						LivenessProbe:  probe("/livez", 20),
						SecurityContext: &v1.SecurityContext{
							AllowPrivilegeEscalation: &no,
							ReadOnlyRootFilesystem:   &yes,
							RunAsNonRoot:             &yes,
							Capabilities:             &v1.Capabilities{Drop: []v1.Capability{"ALL"}},
							SeccompProfile:           &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault},
						},
						VolumeMounts: []v1.VolumeMount{
							{Name: "config", MountPath: configDir, ReadOnly: true},
							{Name: "recordings", MountPath: recordingsDir},
							{Name: "tmp", MountPath: "/tmp"},
						},
					}},
					Volumes: []v1.Volume{
						{Name: "config", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: deployName + "-config"}}}},
						{Name: "recordings", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: deployName + "-recordings"}}},
						{Name: "tmp", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
					},
				},
			},
		},
	}
}
