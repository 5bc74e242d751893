package e2e

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/dynamic"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/cmd/kubectl-schedscope/commands"
)

// warnings keeps the warnings the API server returns.
type warnings struct {
	mu  sync.Mutex
	got []string
}

func (w *warnings) HandleWarningHeader(_ int, _ string, text string) {
	w.mu.Lock()
	w.got = append(w.got, text)
	w.mu.Unlock()
}

// TestDeployIsAcceptedUnderRestricted applies deploy's manifests to a real
// API server with server-side dry run, in a namespace held to the
// restricted Pod Security Standard: every object is accepted, without a
// warning, and a pod made from the Deployment's template passes the API
// server's own PodSecurity admission (while the same pod allowed privilege
// escalation is refused, so the check is live).
func TestDeployIsAcceptedUnderRestricted(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx := context.Background()
	cp := startControlPlane(t)

	var out, errOut bytes.Buffer
	if code := commands.ExecuteContext(ctx, genericiooptions.IOStreams{Out: &out, ErrOut: &errOut},
		[]string{"deploy", "--namespace", "flight", "--image", "registry.example/kubectl-schedscope:e2e", "--otlp-endpoint", "http://otel-collector.observability:4317"}); code != 0 {
		t.Fatalf("deploy: %s", errOut.String())
	}
	var objs []runtime.Object
	docs := utilyaml.NewYAMLReader(bufio.NewReader(&out))
	for {
		doc, err := docs.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		obj, _, err := clientgoscheme.Codecs.UniversalDeserializer().Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("deploy printed what the API types do not decode: %v\n%s", err, doc)
		}
		objs = append(objs, obj)
	}
	kinds := map[string]int{}
	for _, o := range objs {
		kinds[o.GetObjectKind().GroupVersionKind().Kind]++
	}
	for _, k := range []string{"Namespace", "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "ConfigMap", "PersistentVolumeClaim", "Deployment"} {
		if kinds[k] != 1 {
			t.Errorf("deploy printed %d %s, want 1", kinds[k], k)
		}
	}

	cfg := rest.CopyConfig(cp.admin)
	warned := &warnings{}
	cfg.WarningHandler = warned
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	groups, err := restmapper.GetAPIGroupResources(cp.client.Discovery())
	if err != nil {
		t.Fatal(err)
	}
	res := &resources{dyn, restmapper.NewDiscoveryRESTMapper(groups)}
	// The namespace is created for real: a dry run creates nothing for the
	// namespaced objects' dry runs to go in.
	ns := objs[0].(*v1.Namespace)
	if _, err := cp.client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var deployment *appsv1.Deployment
	for _, o := range objs {
		ri, u := res.of(t, o)
		if _, err := ri.Apply(ctx, u.GetName(), u, metav1.ApplyOptions{FieldManager: "schedscope-e2e", DryRun: []string{metav1.DryRunAll}}); err != nil {
			t.Errorf("server-side dry run of %s %s: %v", u.GetKind(), u.GetName(), err)
		}
		if d, ok := o.(*appsv1.Deployment); ok {
			deployment = d
		}
	}
	warned.mu.Lock()
	if len(warned.got) > 0 {
		t.Errorf("the API server warned: %q", warned.got)
	}
	warned.mu.Unlock()

	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "from-template", Namespace: "flight"}, Spec: *deployment.Spec.Template.Spec.DeepCopy()}
	if _, err := cp.client.CoreV1().Pods("flight").Create(ctx, pod, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
		t.Errorf("a pod of the Deployment's template: %v", err)
	}
	yes := true
	pod.Spec.Containers[0].SecurityContext.AllowPrivilegeEscalation = &yes
	_, err = cp.client.CoreV1().Pods("flight").Create(ctx, pod, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err == nil || !strings.Contains(err.Error(), "violates PodSecurity") {
		t.Errorf("the same pod allowed privilege escalation was not refused by PodSecurity (%v): the check above proves nothing", err)
	}
}
