package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// batchingConfig is a profile under which identical pods share a signature:
// PodTopologySpread signs no pod while it has the system default constraints.
const batchingConfig = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args: {defaultingType: List}
`

// batchCounters reads kube-scheduler's opportunistic batching counters from
// the process's metrics registry: batch_attempts_total by result (no_hint,
// hint_used, hint_not_used) and batch_cache_flushed_total by reason.
func batchCounters(t testing.TB) map[string]float64 {
	t.Helper()
	families, err := legacyregistry.DefaultGatherer.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range families {
		var label string
		switch f.GetName() {
		case "scheduler_batch_attempts_total":
			label = "result"
		case "scheduler_batch_cache_flushed_total":
			label = "reason"
		default:
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == label {
					out[l.GetValue()] += m.GetCounter().GetValue()
				}
			}
		}
	}
	return out
}

// grown lists the counters that grew from before to after.
func grown(before, after map[string]float64) []string {
	var out []string
	for k, v := range after {
		if v > before[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// batchFixture is nodes identical nodes and pods identical pending pods.
func batchFixture(nodes, pods int) string {
	var b strings.Builder
	for i := range nodes {
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-%d\n  labels: {topology.kubernetes.io/zone: z}\nstatus:\n  allocatable: {cpu: \"8\", memory: 16Gi, pods: \"110\"}\n---\n", i)
	}
	for i := range pods {
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: same-%d\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m, memory: 64Mi}}}]\n---\n", i)
	}
	return b.String()
}

// TestBatchHintsMatchRealScheduler creates identical pods one after another,
// each a fixed interval after the one before was bound, with the real
// kube-scheduler, and checks that schedscope's engine, given the same
// interval, checks a batch hint first for the same pods. kube-scheduler's
// metrics say which of its cycles had a hint. With 260 ms between pods, a
// ranking stored by a full cycle serves the next pod and has expired
// (maxBatchAge, 500 ms, on the wall clock) by the one after: a hint every
// other pod.
func TestBatchHintsMatchRealScheduler(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	const interval = 260 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	data := batchFixture(4, 6)
	objs, err := fixture.DecodeManifest("batch.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	cp := startControlPlane(t)
	cfgPath := filepath.Join(t.TempDir(), "batching.yaml")
	extra := fmt.Sprintf("clientConnection: {kubeconfig: %s}\nleaderElection: {leaderElect: false}\n", cp.kubeconfig(t, "scheduler-batching", cp.admin))
	if err := os.WriteFile(cfgPath, []byte(batchingConfig+extra), 0o600); err != nil {
		t.Fatal(err)
	}
	pending := applyObjects(t, ctx, cp, objs)
	cp.startScheduler(t, ctx, "--config="+cfgPath)

	// Each pod is created interval after the one before was seen bound; the
	// counters are read in between, and that time is part of the interval.
	real := map[string]bool{}
	var bound time.Time
	before := batchCounters(t)
	for i, p := range pending {
		if i > 0 {
			time.Sleep(time.Until(bound.Add(interval)))
		}
		if _, err := cp.client.CoreV1().Pods(p.Namespace).Create(ctx, p.DeepCopy(), metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating pod %s: %v", p.Name, err)
		}
		err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
			cur, err := cp.client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			return cur.Spec.NodeName != "", nil
		})
		if err != nil {
			t.Fatalf("the real kube-scheduler did not bind %s: %v", p.Name, err)
		}
		bound = time.Now()
		after := batchCounters(t)
		g := grown(before, after)
		before = after
		t.Logf("kube-scheduler, %s: %v", p.Name, g)
		real[p.Name] = slices.Contains(g, "hint_used") || slices.Contains(g, "hint_not_used")
	}

	cfg, err := engine.LoadConfigFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load("batch.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	ours := map[string]bool{}
	e, err := engine.New(ctx, fx, engine.Options{Config: cfg, ArrivalInterval: interval, OnCycle: func(c *recorder.Cycle) {
		mu.Lock()
		ours[c.Pod.Name] = c.BatchHint != ""
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(real, ours); diff != "" {
		t.Errorf("which pods had a batch hint (-kube-scheduler +schedscope):\n%s", diff)
	}
	unhinted := 0
	for _, p := range pending[1:] {
		if !real[p.Name] {
			unhinted++
		}
	}
	if unhinted == 0 || unhinted == len(pending)-1 {
		t.Errorf("kube-scheduler hinted %d of %d pods after the first: the interval did not make a ranking expire in between", len(pending)-1-unhinted, len(pending)-1)
	}
}
