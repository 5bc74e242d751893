package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// benchManifest is 1 000 nodes in three zones and n plain pods.
func benchManifest(nodes, pods int) []byte {
	var b strings.Builder
	for z := 0; z < 3; z++ {
		n := nodes / 3
		if z == 2 {
			n = nodes - 2*(nodes/3)
		}
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata:\n  name: z%d\n  labels: {topology.kubernetes.io/zone: zone-%d}\n  annotations: {schedscope.io/replicas: \"%d\"}\nstatus:\n  allocatable: {cpu: \"16\", memory: 64Gi, pods: \"110\"}\n  capacity: {cpu: \"16\", memory: 64Gi, pods: \"110\"}\n---\n", z, z, n)
	}
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Pod\nmetadata: {name: app, namespace: default, annotations: {schedscope.io/replicas: \"%d\"}}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m, memory: 128Mi}}}]\n", pods)
	return []byte(b.String())
}

// tunedFlags are kube-scheduler flags as users set them for throughput: the
// client's rate limit (default 50 QPS, burst 100) raised so far that the API
// server, not the client, sets the pace.
var tunedFlags = []string{"--kube-api-qps=5000", "--kube-api-burst=5000"}

// BenchmarkVersusKubeScheduler schedules the same 1 000 nodes × 1 000 pods with
// the real kube-scheduler on the e2e control plane (every pod created first;
// timed from the first binding to the last), once as configured by default and once
// tuned for throughput (tunedFlags), and with schedscope's engine recording
// every cycle to a file as record does (burst arrival, as the pods are created
// here), side by side in each iteration. It reports the three rates and
// schedscope's ratio to each kube-scheduler (target ≥ 2 against the tuned one).
func BenchmarkVersusKubeScheduler(b *testing.B) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	const nodes, pods = 1000, 1000
	data := benchManifest(nodes, pods)
	var realTotal, tunedTotal, oursTotal time.Duration
	for i := 0; i < b.N; i++ {
		realTotal += realScheduler(b, data, pods)
		tunedTotal += realScheduler(b, data, pods, tunedFlags...)
		oursTotal += schedscopeRun(b, data)
	}
	rate := func(d time.Duration) float64 { return float64(pods*b.N) / d.Seconds() }
	b.ReportMetric(rate(realTotal), "kube-scheduler-pods/s")
	b.ReportMetric(rate(tunedTotal), "kube-scheduler-tuned-pods/s")
	b.ReportMetric(rate(oursTotal), "schedscope-pods/s")
	b.ReportMetric(rate(oursTotal)/rate(realTotal), "ratio")
	b.ReportMetric(rate(oursTotal)/rate(tunedTotal), "ratio-tuned")
	b.ReportMetric(0, "ns/op")
}

// realScheduler creates the pods on a fresh control plane, then runs
// kube-scheduler with flags, and returns the time it took to bind them all.
func realScheduler(tb *testing.B, data []byte, pods int, flags ...string) time.Duration {
	tb.Helper()
	// The control plane and the scheduler (whose configz registration is
	// process-wide) are torn down when this run ends, not with the benchmark.
	b := &scope{TB: tb}
	defer b.close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	objs, err := fixture.DecodeManifest("bench", data)
	if err != nil {
		b.Fatal(err)
	}
	cp := startControlPlane(b)
	pending := applyObjects(b, ctx, cp, objs)
	// Every pod exists before the scheduler starts, so that creating them
	// (serially, through one client) does not pace the scheduler.
	for _, p := range pending {
		if _, err := cp.client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	w, err := cp.client.CoreV1().Pods("default").Watch(ctx, metav1.ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Stop()
	cp.startScheduler(b, ctx, flags...)
	bound := map[string]bool{}
	var first time.Time
	timeout := time.After(10 * time.Minute)
	for len(bound) < pods {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				b.Fatal("the pod watch ended")
			}
			if p, ok := ev.Object.(*v1.Pod); ok && p.Spec.NodeName != "" && !bound[p.Name] {
				if first.IsZero() {
					first = time.Now()
				}
				bound[p.Name] = true
			}
		case <-timeout:
			b.Fatalf("kube-scheduler bound %d of %d pods in 10 minutes", len(bound), pods)
		}
	}
	// From the first binding to the last, scaled to all pods: the scheduler's
	// own start and cache sync are not counted.
	return time.Since(first) * time.Duration(pods) / time.Duration(pods-1)
}

func schedscopeRun(b *testing.B, data []byte) time.Duration {
	b.Helper()
	fx, err := fixture.Load("bench", data)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f, err := os.Create(filepath.Join(b.TempDir(), "bench.rec"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var w *recorder.AsyncWriter
	e, err := engine.New(ctx, fx, engine.Options{OnCycle: func(c *recorder.Cycle) { _ = w.WriteCycle(c) }})
	if err != nil {
		b.Fatal(err)
	}
	fw, err := recorder.NewWriter(f, e.Header())
	if err != nil {
		b.Fatal(err)
	}
	w = recorder.NewAsyncWriter(fw, recorder.DefaultAsyncQueue, false)
	start := time.Now()
	res, err := e.RunBurst(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	d := time.Since(start)
	for k, n := range res.Bindings {
		if n == "" {
			b.Fatalf("schedscope left %s unbound", k)
		}
	}
	return d
}

// scope runs the cleanups registered through it when closed rather than when
// the test or benchmark ends.
type scope struct {
	testing.TB
	cleanups []func()
}

func (s *scope) Cleanup(f func()) { s.cleanups = append(s.cleanups, f) }

func (s *scope) close() {
	for i := len(s.cleanups) - 1; i >= 0; i-- {
		s.cleanups[i]()
	}
}
