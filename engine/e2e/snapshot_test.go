package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/cmd/kubectl-schedscope/commands"
	"github.com/schedscope/schedscope/engine/anonymize"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/otel/otlptest"
)

const secretValue = "s3cr3t-value-never-exported"

// TestSnapshotReplaysOffline takes a snapshot of a cluster with pending pods
// (before any scheduler runs), then lets the real kube-scheduler place them;
// schedscope's explain of the snapshot must make the same decisions. The
// snapshot must hold no secret material.
func TestSnapshotReplaysOffline(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cp := startControlPlane(t)
	grantReader(t, ctx, cp)

	for _, n := range []*v1.Node{
		makeNode("alpha", "zone-a", "4", "8Gi"),
		makeNode("beta", "zone-a", "8", "16Gi"),
		makeNode("gamma", "zone-b", "4", "16Gi", v1.Taint{Key: "spot", Value: "true", Effect: v1.TaintEffectPreferNoSchedule}),
	} {
		if _, err := cp.client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cp.client.CoreV1().Secrets("default").Create(ctx, &v1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "db"}, StringData: map[string]string{"password": secretValue}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for i, v := range []int32{1000, 100, 10} {
		pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i)}, Value: v}
		if _, err := cp.client.SchedulingV1().PriorityClasses().Create(ctx, pc, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	running := makePod(podSpec{name: "running", cpu: "3", mem: "4Gi", labels: map[string]string{"app": "db"}})
	running.Spec.NodeName = "alpha"
	running.Spec.Containers[0].Env = []v1.EnvVar{{Name: "PASSWORD", Value: secretValue}}
	running.Spec.Containers[0].Command = []string{"run", "--password=" + secretValue}
	running.Annotations = map[string]string{"example.com/token": secretValue}
	running.Spec.Volumes = []v1.Volume{
		{Name: "csi", VolumeSource: v1.VolumeSource{CSI: &v1.CSIVolumeSource{Driver: "csi.example.com",
			VolumeAttributes: map[string]string{"password": secretValue}, NodePublishSecretRef: &v1.LocalObjectReference{Name: secretValue}}}},
		{Name: "flex", VolumeSource: v1.VolumeSource{FlexVolume: &v1.FlexVolumeSource{Driver: "example/flex", Options: map[string]string{"pw": secretValue}}}},
		{Name: "iscsi", VolumeSource: v1.VolumeSource{ISCSI: &v1.ISCSIVolumeSource{TargetPortal: "10.0.0.1:3260", IQN: "iqn.2001-04.com.example:storage", Lun: 1,
			SecretRef: &v1.LocalObjectReference{Name: secretValue}, SessionCHAPAuth: true}}},
	}
	if _, err := cp.client.CoreV1().Pods("default").Create(ctx, running, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Controllers (no controller manager runs, so they create no pods) whose
	// templates carry secrets, a PV with CSI secret references and attributes,
	// a storage class whose parameters name a secret, an annotated node.
	template := makePod(podSpec{name: "tmpl", cpu: "100m", mem: "64Mi", labels: map[string]string{"app": "tmpl"}})
	template.Spec.Containers[0].Env = []v1.EnvVar{{Name: "TOKEN", Value: secretValue}}
	tmpl := v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: template.Labels, Annotations: map[string]string{"vault": secretValue}}, Spec: template.Spec}
	replicas := int32(0)
	sel := &metav1.LabelSelector{MatchLabels: template.Labels}
	if _, err := cp.client.AppsV1().ReplicaSets("default").Create(ctx, &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs"},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Selector: sel, Template: tmpl}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cp.client.AppsV1().StatefulSets("default").Create(ctx, &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "ss"},
		Spec: appsv1.StatefulSetSpec{Replicas: &replicas, Selector: sel, Template: tmpl, ServiceName: "ss"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cp.client.CoreV1().ReplicationControllers("default").Create(ctx, &v1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "rc"},
		Spec: v1.ReplicationControllerSpec{Replicas: &replicas, Selector: template.Labels, Template: &tmpl}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	ref := &v1.SecretReference{Name: secretValue, Namespace: "default"}
	if _, err := cp.client.CoreV1().PersistentVolumes().Create(ctx, &v1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: "pv-csi"},
		Spec: v1.PersistentVolumeSpec{Capacity: v1.ResourceList{v1.ResourceStorage: resource.MustParse("1Gi")}, AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce},
			PersistentVolumeSource: v1.PersistentVolumeSource{CSI: &v1.CSIPersistentVolumeSource{Driver: "csi.example.com", VolumeHandle: "vol-1",
				VolumeAttributes: map[string]string{"key": secretValue}, NodePublishSecretRef: ref, NodeStageSecretRef: ref, ControllerPublishSecretRef: ref}}}},
		metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cp.client.StorageV1().StorageClasses().Create(ctx, &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: "fast"}, Provisioner: "csi.example.com",
		Parameters: map[string]string{"csi.storage.k8s.io/provisioner-secret-name": secretValue}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	alpha, err := cp.client.CoreV1().Nodes().Get(ctx, "alpha", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	alpha.Annotations = map[string]string{"cloud.example.com/api-key": secretValue}
	if _, err := cp.client.CoreV1().Nodes().Update(ctx, alpha, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Distinct priorities fix the order the scheduling queue takes the pods in.
	pending := []struct {
		spec  podSpec
		class string
	}{
		{podSpec{name: "low", cpu: "3", mem: "2Gi", labels: map[string]string{"app": "web"}, spreadZone: true}, "p2"},
		{podSpec{name: "high", cpu: "2", mem: "8Gi", preferZone: "zone-b"}, "p0"},
		{podSpec{name: "mid", cpu: "5", mem: "2Gi", labels: map[string]string{"app": "web"}, spreadZone: true}, "p1"},
		{podSpec{name: "nowhere", cpu: "9", mem: "1Gi"}, "p2"},
	}
	for _, p := range pending {
		pod := makePod(p.spec)
		pod.Spec.PriorityClassName = p.class
		pod.Spec.Containers[0].Env = []v1.EnvVar{{Name: "TOKEN", Value: secretValue}}
		if err := admitted(ctx, func() error {
			_, err := cp.client.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}

	kc := cp.kubeconfig(t, "schedscope", cp.userConfig(schedscopeToken, ""))
	var out, errOut bytes.Buffer
	if code := commands.ExecuteContext(ctx, genericiooptions.IOStreams{Out: &out, ErrOut: &errOut}, []string{"snapshot", "--kubeconfig", kc}); code != 0 {
		t.Fatalf("snapshot failed: %s", errOut.String())
	}
	snap := out.Bytes()
	for _, want := range []string{"kind: ReplicaSet", "kind: StatefulSet", "kind: ReplicationController", "kind: PersistentVolume", "kind: StorageClass", "driver: csi.example.com",
		"---\n{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"running\""} {
		if !bytes.Contains(snap, []byte(want)) {
			t.Errorf("the snapshot lacks %q; the secret check would prove less", want)
		}
	}
	for _, bad := range []string{secretValue, "kind: Secret", "kind: ConfigMap", "managedFields", "last-applied-configuration", "uid:", `"uid":`} {
		if bytes.Contains(snap, []byte(bad)) {
			t.Errorf("the snapshot contains %q", bad)
		}
	}
	if t.Failed() {
		t.Logf("snapshot:\n%s", snap)
	}

	// snapshot --anonymize of the same cluster, checked below: no name of it left, and the
	// same decisions, through the map anonymize makes of the plain snapshot.
	var anonOut bytes.Buffer
	errOut.Reset()
	if code := commands.ExecuteContext(ctx, genericiooptions.IOStreams{Out: &anonOut, ErrOut: &errOut}, []string{"snapshot", "--anonymize", "--kubeconfig", kc}); code != 0 {
		t.Fatalf("snapshot --anonymize failed: %s", errOut.String())
	}
	anon := anonOut.Bytes()

	cp.startScheduler(t, ctx)
	real := map[string]outcome{}
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		for _, p := range pending {
			cur, err := cp.client.CoreV1().Pods("default").Get(ctx, p.spec.name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			key := "default/" + p.spec.name
			if cur.Spec.NodeName != "" {
				real[key] = outcome{node: cur.Spec.NodeName}
				continue
			}
			for _, c := range cur.Status.Conditions {
				if c.Type == v1.PodScheduled && c.Reason == v1.PodReasonUnschedulable {
					real[key] = outcome{message: c.Message}
				}
			}
		}
		return len(real) == len(pending), nil
	})
	if err != nil {
		t.Fatalf("the real kube-scheduler did not settle every pod: %v (settled: %v)", err, real)
	}
	ours := simulate(t, "snapshot.yaml", snap)
	compare(t, real, ours)

	// The anonymized snapshot: no name of the cluster left, and the same
	// decisions, through the map anonymize makes of the plain snapshot.
	for _, bad := range []string{secretValue, "alpha", "beta", "gamma", "zone-a", "zone-b", "spot", "web", "nowhere", "tmpl", "p0", makePod(podSpec{name: "x", cpu: "1", mem: "1Gi"}).Spec.Containers[0].Image} {
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(bad) + `\b`).Match(anon) {
			t.Errorf("the anonymized snapshot contains %q", bad)
		}
	}
	_, m, err := anonymize.Manifest("snapshot.yaml", snap)
	if err != nil {
		t.Fatal(err)
	}
	mapped := map[string]outcome{}
	for k, o := range real {
		name := m.Name("Pod", "default", strings.TrimPrefix(k, "default/"))
		if name == "" {
			t.Fatalf("the anonymized snapshot has no stand-in for %s", k)
		}
		if o.node != "" {
			o.node = m.Node(o.node)
		}
		mapped["default/"+name] = o
	}
	compare(t, mapped, simulate(t, "anonymized.yaml", anon))
	if t.Failed() {
		t.Logf("anonymized snapshot:\n%s", anon)
	}
}

// TestLiveCommandHeadless runs `kubectl schedscope live --no-tui -o json`
// against the control plane with the documented read-only access, and reads
// its cycles and observations back, its traces from an OTLP receiver, and
// its readiness from --health-addr.
func TestLiveCommandHeadless(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cp := startControlPlane(t)
	grantReader(t, ctx, cp)
	for _, n := range []*v1.Node{makeNode("one", "zone-a", "2", "4Gi"), makeNode("two", "zone-b", "4", "8Gi")} {
		if _, err := cp.client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	cp.startScheduler(t, ctx)
	kc := cp.kubeconfig(t, "schedscope", cp.userConfig(schedscopeToken, ""))
	out := &lockedBuffer{}
	var errOut bytes.Buffer
	done := make(chan int, 1)
	rec := t.TempDir() + "/live.rec"
	rcv := otlptest.Start(t)
	health := freeAddr(t)
	go func() {
		done <- commands.ExecuteContext(ctx, genericiooptions.IOStreams{Out: out, ErrOut: &errOut},
			[]string{"live", "--kubeconfig", kc, "--no-tui", "-o", "json", "--record", rec, "--otlp-endpoint", rcv.HTTP, "--health-addr", health})
	}()
	// Wait until live mode is up: its first heartbeat or list shows in the audit log.
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return len(cp.requestsBy(t, schedscopeUser)) > 0, nil
	}); err != nil {
		t.Fatalf("live mode never talked to the API server: %s", errOut.String())
	}
	// Its header line comes once the mirror is built, as it starts
	// scheduling: a pod the cluster binds before that gets no cycle.
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(context.Context) (bool, error) {
		return strings.Contains(out.String(), `"format":"schedscope-export"`), nil
	}); err != nil {
		t.Fatalf("live mode printed no header: %s", errOut.String())
	}
	if code := probe(t, "http://"+health+"/readyz"); code != http.StatusOK {
		t.Errorf("/readyz answered %d once live mode was scheduling", code)
	}
	if _, err := cp.client.CoreV1().Pods("default").Create(ctx, makePod(podSpec{name: "app", cpu: "1", mem: "1Gi"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var cycle, observed map[string]json.RawMessage
	var states []string
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(context.Context) (bool, error) {
		states = nil
		for _, line := range strings.Split(out.String(), "\n") {
			var m map[string]json.RawMessage
			if json.Unmarshal([]byte(line), &m) != nil {
				continue
			}
			if m["cycle"] != nil {
				cycle = m
			}
			if m["observed"] != nil {
				observed = m
			}
			var st recorder.PodState
			if m["pod"] != nil && json.Unmarshal(m["pod"], &st) == nil && st.Pod.Name == "app" {
				states = append(states, st.State)
			}
		}
		return cycle != nil && observed != nil && slices.Contains(states, recorder.PodBound), nil
	}); err != nil {
		t.Fatalf("no cycle and observation on stdout: %v\nstdout: %s\nstderr: %s", err, out.String(), errOut.String())
	}
	var o struct {
		Node, Predicted string
		Seq             int
	}
	if err := json.Unmarshal(observed["observed"], &o); err != nil {
		t.Fatal(err)
	}
	if o.Node == "" || o.Node != o.Predicted || o.Seq == 0 {
		t.Errorf("observed %+v: want the real node to equal the prediction", o)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("live exited with %d: %s", code, errOut.String())
	}
	rr, err := recorder.LoadFile(rec)
	if err != nil || len(rr.Problems) > 0 {
		t.Fatalf("the flight recording does not load: %v %v", err, rr.Problems)
	}
	// Every cycle went to the receiver as a trace, at the recording's times,
	// naming the cluster by its kubeconfig context.
	spans := rcv.Spans(t, len(rr.Cycles))
	for _, c := range rr.Cycles {
		found := false
		for _, r := range otlptest.Roots(spans) {
			if r.Attrs["schedscope.cycle.seq"] == strconv.Itoa(c.Seq) {
				found = r.Start.Equal(c.Start) && r.Attrs["k8s.pod.name"] == c.Pod.Name && r.Resource["k8s.cluster.name"] == "schedscope"
			}
		}
		if !found {
			t.Errorf("cycle %d of %s: no trace at its time naming its pod and the cluster", c.Seq, c.Pod.Key())
		}
	}
	if !strings.Contains(errOut.String(), "otlp: sent ") {
		t.Errorf("live did not say on exit what it sent: %s", errOut.String())
	}
	// The pod's state changes, headless: queued, then bound.
	if len(states) < 2 || states[0] != recorder.PodActive || states[len(states)-1] != recorder.PodBound {
		t.Errorf("app's states on stdout %v, want Active … Bound", states)
	}
	if len(rr.Queue) == 0 {
		t.Error("the flight recording holds no queue events")
	}
	if len(rr.Cycles) == 0 || len(rr.Observed) == 0 || rr.Header.Source.Kind != "cluster" {
		t.Errorf("flight recording holds %d cycles and %d observations from %+v, want at least one of each from a cluster", len(rr.Cycles), len(rr.Observed), rr.Header.Source)
	}
}

// freeAddr is a 127.0.0.1 address nothing listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// probe returns the status of a GET of url, as a kubelet's probe sees it.
func probe(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("probe %s: %v", url, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
