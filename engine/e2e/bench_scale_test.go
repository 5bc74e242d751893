package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/engine/internal/scale"
)

// BenchmarkSnapshotVersusKubeScheduler puts the cluster BenchmarkSnapshotScale
// asks about (5 000 nodes, 40 000 bound pods, 20 pending: scale.Snapshot) on
// the e2e control plane and times, from process start, two programs that
// start against it:
//
//   - schedscope's binary, `live -A --no-tui`: until it prints its first
//     cycle, a prediction for one of the pending pods (ready to predict);
//   - the real kube-scheduler (in this process, beside the API server, as
//     the e2e tests run it): until the API server reports its first binding
//     of a pending pod (start, caches synced, one cycle, the binding).
//
// live runs first, while no scheduler has bound the pending pods. Both
// share the machine with the API server and etcd, which serve their lists.
//
// The control plane has no kubelets: the benchmark writes each bound pod's
// status as its kubelet would (Running, Ready), so that the cluster is one
// whose pods run. Between the two live runs, a user's question: `snapshot`
// of the cluster piped into `explain -f - --pod`, with no admitted-fixture
// cache.
//
// live also runs once before the bound pods are created (the nodes and the
// pending pods only): the difference of its resident memory when ready,
// with and without the 40 000 bound pods, is what the mirror costs per pod.
func BenchmarkSnapshotVersusKubeScheduler(b *testing.B) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	const nodes, bound, pending = 5000, 40000, 20
	objs, err := fixture.DecodeManifest("snapshot", scale.Snapshot(nodes, bound, pending))
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(b.TempDir(), "kubectl-schedscope")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/kubectl-schedscope").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	// The cluster without its bound pods, then the bound pods.
	var unbound, boundPods []runtime.Object
	for _, o := range objs {
		if p, ok := o.(*v1.Pod); ok && p.Spec.NodeName != "" {
			boundPods = append(boundPods, o)
		} else {
			unbound = append(unbound, o)
		}
	}
	if len(boundPods) != bound {
		b.Fatalf("the snapshot holds %d bound pods, want %d", len(boundPods), bound)
	}
	var firstBinding, load float64
	var none, full liveFigures
	var piped pipeFigures
	for i := 0; i < b.N; i++ {
		s := &scope{TB: b}
		ctx, cancel := context.WithCancel(context.Background())
		cp := startControlPlane(s)
		kubeconfig := cp.kubeconfig(s, "admin", cp.admin)
		start := time.Now()
		createInParallel(s, ctx, cp, unbound)
		load += time.Since(start).Seconds()
		none.add(timeLiveReady(s, ctx, bin, kubeconfig))
		start = time.Now()
		createInParallel(s, ctx, cp, boundPods)
		startInParallel(s, ctx, cp, boundPods)
		load += time.Since(start).Seconds()
		full.add(timeLiveReady(s, ctx, bin, kubeconfig))
		piped.add(snapshotExplained(s, bin, kubeconfig))
		firstBinding += timeFirstBinding(s, ctx, cp)
		cancel()
		s.close()
	}
	n := float64(b.N)
	b.ReportMetric(full.ready/n, "live-ready-s")
	b.ReportMetric(full.rssMB/n, "live-RSS-MB")
	b.ReportMetric(full.peakMB/n, "live-peak-RSS-MB")
	b.ReportMetric(none.rssMB/n, "live-no-bound-RSS-MB")
	b.ReportMetric((full.rssMB-none.rssMB)/n*1024/bound, "live-KB/bound-pod")
	b.ReportMetric(piped.snapshot/n, "snapshot-s")
	b.ReportMetric(piped.bytes/n, "snapshot-bytes")
	b.ReportMetric(piped.explain/n, "snapshot-explain-s")
	b.ReportMetric(piped.explainMB/n, "snapshot-explain-peak-RSS-MB")
	b.ReportMetric(firstBinding/n, "kube-scheduler-first-binding-s")
	b.ReportMetric(load/n, "api-server-create-s")
	b.ReportMetric(0, "ns/op")
}

// createInParallel creates objs on the control plane, namespaces first,
// then nodes, then pods, eight at a time.
func createInParallel(b testing.TB, ctx context.Context, cp *controlPlane, objs []runtime.Object) {
	b.Helper()
	var namespaces, nodes, pods []runtime.Object
	for _, o := range objs {
		switch o.(type) {
		case *v1.Namespace:
			namespaces = append(namespaces, o)
		case *v1.Node:
			nodes = append(nodes, o)
		case *v1.Pod:
			pods = append(pods, o)
		default:
			b.Fatalf("the snapshot holds a %T", o)
		}
	}
	for _, group := range [][]runtime.Object{namespaces, nodes, pods} {
		inParallel(b, group, func(o runtime.Object) error {
			var err error
			switch o := o.(type) {
			case *v1.Namespace:
				_, err = cp.client.CoreV1().Namespaces().Create(ctx, o, metav1.CreateOptions{})
			case *v1.Node:
				_, err = cp.client.CoreV1().Nodes().Create(ctx, o, metav1.CreateOptions{})
			case *v1.Pod:
				if o.Namespace == "" {
					o.Namespace = "default"
				}
				_, err = cp.client.CoreV1().Pods(o.Namespace).Create(ctx, o, metav1.CreateOptions{})
			}
			if err != nil {
				return fmt.Errorf("creating the snapshot: %w", err)
			}
			return nil
		})
	}
}

// startInParallel does what the bound pods' kubelets would do, eight at a
// time: each pod's status says it runs, Ready. The control plane has no
// kubelets, and a pod is created Pending whatever status it is given; a
// cluster's snapshot holds running pods.
func startInParallel(b testing.TB, ctx context.Context, cp *controlPlane, pods []runtime.Object) {
	b.Helper()
	inParallel(b, pods, func(o runtime.Object) error {
		p := o.(*v1.Pod)
		pod, err := cp.client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		now := metav1.Now()
		pod.Status.Phase = v1.PodRunning
		pod.Status.StartTime = &now
		for _, t := range []v1.PodConditionType{v1.PodScheduled, v1.PodInitialized, v1.ContainersReady, v1.PodReady} {
			pod.Status.Conditions = append(pod.Status.Conditions, v1.PodCondition{Type: t, Status: v1.ConditionTrue, LastTransitionTime: now})
		}
		for _, c := range pod.Spec.Containers {
			pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, v1.ContainerStatus{
				Name: c.Name, Image: c.Image, Ready: true, Started: ptr.To(true),
				State: v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: now}},
			})
		}
		if _, err := cp.client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("starting pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		return nil
	})
}

// inParallel calls do on each of objs, eight at a time, and fails b with
// the first error.
func inParallel(b testing.TB, objs []runtime.Object, do func(runtime.Object) error) {
	b.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(objs) {
					return
				}
				if err := do(objs[i]); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
}

// pipeFigures are what snapshotExplained measures of one snapshot piped
// into explain, or the sum over several.
type pipeFigures struct {
	snapshot  float64 // seconds `snapshot` took
	bytes     float64 // the manifest it wrote
	explain   float64 // seconds `explain -f -` took on it, no cache
	explainMB float64 // explain's peak RSS
}

func (f *pipeFigures) add(g pipeFigures) {
	f.snapshot += g.snapshot
	f.bytes += g.bytes
	f.explain += g.explain
	f.explainMB += g.explainMB
}

// snapshotExplained does what a user does with a cluster: `snapshot` of
// it, piped into `explain -f - --pod pending-7` with no admitted-fixture
// cache, each the binary from process start to exit.
func snapshotExplained(b testing.TB, bin, kubeconfig string) pipeFigures {
	b.Helper()
	var manifest, stderr bytes.Buffer
	cmd := exec.Command(bin, "snapshot", "--kubeconfig", kubeconfig)
	cmd.Stdout, cmd.Stderr = &manifest, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("snapshot: %v\n%s", err, stderr.String())
	}
	f := pipeFigures{snapshot: time.Since(start).Seconds(), bytes: float64(manifest.Len())}
	var out bytes.Buffer
	stderr.Reset()
	cmd = exec.Command("/usr/bin/time", "-v", bin, "explain", "-f", "-", "--pod", "pending-7")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = &manifest, &out, &stderr
	cmd.Env = append(os.Environ(), "SCHEDSCOPE_NO_CACHE=1")
	start = time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("explain -f -: %v\n%s", err, stderr.String())
	}
	f.explain = time.Since(start).Seconds()
	if !strings.Contains(out.String(), "Bound on node-") {
		b.Fatalf("explain of the snapshot did not bind pending-7:\n%s", out.String())
	}
	mb, ok := scale.PeakRSS(stderr.String())
	if !ok {
		b.Fatalf("/usr/bin/time reported no peak RSS:\n%s", stderr.String())
	}
	f.explainMB = mb
	return f
}

// liveFigures are what timeLiveReady measures of one live process, or the
// sum over several.
type liveFigures struct {
	ready  float64 // seconds from process start to the first cycle line
	rssMB  float64 // resident memory then
	peakMB float64 // the most resident memory until then
}

func (f *liveFigures) add(g liveFigures) {
	f.ready += g.ready
	f.rssMB += g.rssMB
	f.peakMB += g.peakMB
}

// timeLiveReady starts `live -A --no-tui` and returns the seconds from its
// start to its first cycle line, and its resident memory at that moment.
func timeLiveReady(b testing.TB, ctx context.Context, bin, kubeconfig string) liveFigures {
	b.Helper()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "live", "-A", "--no-tui", "--kubeconfig", kubeconfig)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		cancel()
		_ = cmd.Wait()
	}()
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "cycle ") {
			f := liveFigures{ready: time.Since(start).Seconds()}
			f.rssMB, f.peakMB = residentMB(b, cmd.Process.Pid)
			return f
		}
	}
	b.Fatalf("live printed no cycle within 5 minutes\n%s", stderr.String())
	return liveFigures{}
}

// residentMB reads a process's resident memory and its peak so far, in MB,
// from /proc/PID/status (VmRSS, VmHWM).
func residentMB(b testing.TB, pid int) (rss, peak float64) {
	b.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		field, value, ok := strings.Cut(l, ":")
		if !ok || (field != "VmRSS" && field != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 64)
		if err != nil {
			b.Fatalf("/proc/%d/status: %s: %v", pid, l, err)
		}
		if field == "VmRSS" {
			rss = kb / 1024
		} else {
			peak = kb / 1024
		}
	}
	if rss == 0 || peak == 0 {
		b.Fatalf("/proc/%d/status holds no VmRSS or VmHWM", pid)
	}
	return rss, peak
}

// timeFirstBinding starts kube-scheduler and returns the seconds from its
// start to the first pod the API server reports bound.
func timeFirstBinding(b testing.TB, ctx context.Context, cp *controlPlane) float64 {
	b.Helper()
	w, err := cp.client.CoreV1().Pods("default").Watch(ctx, metav1.ListOptions{LabelSelector: "app=pending"})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Stop()
	start := time.Now()
	cp.startScheduler(b, ctx)
	timeout := time.After(5 * time.Minute)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				b.Fatal("the pod watch ended")
			}
			if p, ok := ev.Object.(*v1.Pod); ok && p.Spec.NodeName != "" {
				return time.Since(start).Seconds()
			}
		case <-timeout:
			b.Fatal("kube-scheduler bound no pod in 5 minutes")
		}
	}
}
