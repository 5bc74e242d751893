package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/engine"
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

// BenchmarkVersusKubeScheduler schedules the same 1 000 nodes × 1 000 pods with
// the real kube-scheduler on the e2e control plane (from the first pod's
// creation until every pod is bound) and with schedscope's engine recording
// every cycle, and reports both rates and their ratio (target ≥ 2).
func BenchmarkVersusKubeScheduler(b *testing.B) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	const nodes, pods = 1000, 1000
	data := benchManifest(nodes, pods)
	var realTotal, oursTotal time.Duration
	for i := 0; i < b.N; i++ {
		realTotal += realScheduler(b, data, pods)
		oursTotal += schedscopeRun(b, data)
	}
	realPS := float64(pods*b.N) / realTotal.Seconds()
	oursPS := float64(pods*b.N) / oursTotal.Seconds()
	b.ReportMetric(realPS, "kube-scheduler-pods/s")
	b.ReportMetric(oursPS, "schedscope-pods/s")
	b.ReportMetric(oursPS/realPS, "ratio")
	b.ReportMetric(0, "ns/op")
}

func realScheduler(b *testing.B, data []byte, pods int) time.Duration {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	objs, err := engine.DecodeManifest("bench", data)
	if err != nil {
		b.Fatal(err)
	}
	cp := startControlPlane(b)
	pending := applyObjects(b, ctx, cp, objs)
	cp.startScheduler(b, ctx)
	w, err := cp.client.CoreV1().Pods("default").Watch(ctx, metav1.ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Stop()
	start := time.Now()
	go func() {
		for _, p := range pending {
			if _, err := cp.client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil && ctx.Err() == nil {
				b.Error(err)
				return
			}
		}
	}()
	bound := map[string]bool{}
	timeout := time.After(10 * time.Minute)
	for len(bound) < pods {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				b.Fatal("the pod watch ended")
			}
			if p, ok := ev.Object.(*v1.Pod); ok && p.Spec.NodeName != "" {
				bound[p.Name] = true
			}
		case <-timeout:
			b.Fatalf("kube-scheduler bound %d of %d pods in 10 minutes", len(bound), pods)
		}
	}
	return time.Since(start)
}

func schedscopeRun(b *testing.B, data []byte) time.Duration {
	b.Helper()
	fx, err := engine.LoadFixture("bench", data)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cycles := 0
	e, err := engine.New(ctx, fx, engine.Options{OnCycle: func(c *recorder.Cycle) { cycles++ }})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	res, err := e.RunBurst(ctx)
	if err != nil {
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
