package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
	"sigs.k8s.io/yaml"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/extendertest"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/engine/live"
	"github.com/schedscope/schedscope/recorder"
)

// TestLiveNeverWritesThroughExtenders proves live mode read-only for the one
// path out of the process that is not the API server: scheduler extenders. A
// real HTTP extender with every verb configured counts what it receives.
// Without --call-extenders it receives nothing; with it, only filter and
// prioritize, never bind or preempt, although a pod's cycle preempts.
func TestLiveNeverWritesThroughExtenders(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cp := startControlPlane(t)
	grantReader(t, ctx, cp)
	x := extendertest.Start(t, extendertest.Rules{})

	for _, n := range []*v1.Node{makeNode("ext-a", "zone-a", "2", "4Gi"), makeNode("ext-b", "zone-b", "2", "4Gi")} {
		if _, err := cp.client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// Both nodes are nearly full of low-priority pods, so a high-priority pod
	// can only be placed by preemption.
	for _, node := range []string{"ext-a", "ext-b"} {
		p := makePod(podSpec{name: "filler-" + node, cpu: "1500m", mem: "1Gi"})
		p.Spec.NodeName = node
		if _, err := cp.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cp.client.SchedulingV1().PriorityClasses().Create(ctx, &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "high"}, Value: 1000}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "scheduler.yaml")
	if err := os.WriteFile(cfgPath, []byte(fmt.Sprintf(`apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: %s
  filterVerb: filter
  prioritizeVerb: prioritize
  bindVerb: bind
  preemptVerb: preempt
  weight: 1
  nodeCacheCapable: true
`, x.URL)), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := engine.LoadConfigFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}

	// runLive runs a live session until the named pods each got a cycle.
	runLive := func(t *testing.T, call bool, pods ...*v1.Pod) *live.Session {
		t.Helper()
		lctx, lcancel := context.WithCancel(ctx)
		s := newSession()
		opts := live.Options{Options: engine.Options{Config: cfg}, Cluster: cp.reader(t, schedscopeToken, "", "e2e"),
			SyncTimeout: 30 * time.Second, CallExtenders: call}
		s.options(&opts)
		session, err := live.New(lctx, opts)
		if err != nil {
			lcancel()
			t.Fatalf("starting live mode: %v", err)
		}
		done := make(chan error, 1)
		go func() { done <- session.Run(lctx) }()
		for _, p := range pods {
			if _, err := cp.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			key := "default/" + p.Name
			s.waitFor(t, "a cycle for "+key, 60*time.Second, func() bool { return len(s.cyclesFor(key)) > 0 })
		}
		lcancel()
		if err := <-done; err != nil {
			t.Errorf("session.Run: %v", err)
		}
		return session
	}

	t.Run("without --call-extenders no request reaches the extender", func(t *testing.T) {
		session := runLive(t, false, makePod(podSpec{name: "quiet", cpu: "100m", mem: "64Mi"}))
		if got := x.Counts(); len(got) != 0 {
			t.Errorf("the extender received %v, want nothing", got)
		}
		if !slices.ContainsFunc(session.Notes(), func(n string) bool { return strings.Contains(n, "--call-extenders") }) {
			t.Errorf("live mode did not say the extender is not called: notes %q", session.Notes())
		}
	})

	t.Run("with --call-extenders only filter and prioritize are called", func(t *testing.T) {
		big := makePod(podSpec{name: "preemptor", cpu: "1", mem: "64Mi"})
		big.Spec.PriorityClassName = "high"
		session := runLive(t, true, makePod(podSpec{name: "asked", cpu: "100m", mem: "64Mi"}), big)
		got := x.Counts()
		if got["filter"] == 0 || got["prioritize"] == 0 {
			t.Errorf("the extender received %v, want filter and prioritize calls (the check would prove nothing without them)", got)
		}
		if got["bind"] != 0 || got["preempt"] != 0 {
			t.Errorf("the extender received %v: live mode must never call bind or preempt", got)
		}
		for _, verb := range []string{"bind", "preempt"} {
			if !slices.ContainsFunc(session.Notes(), func(n string) bool { return strings.Contains(n, verb+" verb") }) {
				t.Errorf("live mode did not say the %s verb is never called: notes %q", verb, session.Notes())
			}
		}
	})

	t.Run("schedscope sent no write request to the API server", func(t *testing.T) {
		reqs := cp.requestsBy(t, schedscopeUser)
		if len(reqs) == 0 {
			t.Fatal("the audit log has no request from schedscope at all; the check would prove nothing")
		}
		for _, r := range reqs {
			if !slices.Contains([]string{"get", "list", "watch"}, r.Verb) {
				t.Errorf("schedscope sent %s %s", r.Verb, r.RequestURI)
			}
		}
	})
}

// TestExtendersMatchRealScheduler runs kube-scheduler and schedscope with the
// same two real HTTP extenders (one filtering with node names, one
// prioritizing with whole nodes) and compares every decision, and checks
// that schedscope's cycles record what the extenders answered.
func TestExtendersMatchRealScheduler(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pair := extendertest.StartPair(t)
	filter, prioritize := pair.Filter, pair.Prioritize
	// The real kube-scheduler and schedscope read the same file; with --config,
	// kube-scheduler takes its connection and leader election from it.
	cp := startControlPlane(t)
	cfgPath := filepath.Join(t.TempDir(), "extenders.yaml")
	extra := fmt.Sprintf("clientConnection: {kubeconfig: %s}\nleaderElection: {leaderElect: false}\n", cp.kubeconfig(t, "scheduler-extenders", cp.admin))
	if err := os.WriteFile(cfgPath, []byte(pair.Config(extra)), 0o600); err != nil {
		t.Fatal(err)
	}
	nodes := []*v1.Node{makeNode("node-a", "zone-a", "4", "8Gi"), makeNode("node-b", "zone-a", "4", "8Gi"),
		makeNode("node-c", "zone-b", "4", "8Gi"), makeNode("node-d", "zone-b", "4", "8Gi")}
	web := makePod(podSpec{name: "web", cpu: "500m", mem: "512Mi"})
	pinned := makePod(podSpec{name: "pinned", cpu: "100m", mem: "64Mi"})
	pinned.Spec.NodeSelector = map[string]string{"kubernetes.io/hostname": "node-c"}

	// The real kube-scheduler on a real API server.
	for _, n := range nodes {
		if _, err := cp.client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	cp.startScheduler(t, ctx, "--config="+cfgPath)
	real := map[string]outcome{}
	for _, p := range []*v1.Pod{web, pinned} {
		if _, err := cp.client.CoreV1().Pods("default").Create(ctx, p.DeepCopy(), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		key := "default/" + p.Name
		if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
			cur, err := cp.client.CoreV1().Pods("default").Get(ctx, p.Name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			if cur.Spec.NodeName != "" {
				real[key] = outcome{node: cur.Spec.NodeName}
				return true, nil
			}
			for _, c := range cur.Status.Conditions {
				if c.Type == v1.PodScheduled && c.Reason == v1.PodReasonUnschedulable {
					real[key] = outcome{message: c.Message}
					return true, nil
				}
			}
			return false, nil
		}); err != nil {
			t.Fatalf("kube-scheduler did not decide on %s: %v", key, err)
		}
	}
	realCalls := filter.Counts()["filter"] + prioritize.Counts()["prioritize"]
	if realCalls == 0 {
		t.Fatal("kube-scheduler never called the extenders; the comparison would prove nothing")
	}

	// schedscope on the same cluster, as a fixture.
	var manifest []byte
	for _, obj := range []any{nodes[0], nodes[1], nodes[2], nodes[3], web, pinned} {
		data, err := yaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		kind := "Node"
		if _, ok := obj.(*v1.Pod); ok {
			kind = "Pod"
		}
		manifest = append(manifest, []byte("apiVersion: v1\nkind: "+kind+"\n")...)
		manifest = append(manifest, data...)
		manifest = append(manifest, []byte("---\n")...)
	}
	cfg, err := engine.LoadConfigFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load("extenders.yaml", manifest)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	first := map[string]*recorder.Cycle{}
	e, err := engine.New(ctx, fx, engine.Options{Config: cfg, OnCycle: func(c *recorder.Cycle) {
		mu.Lock()
		defer mu.Unlock()
		if first[c.Pod.Key()] == nil {
			first[c.Pod.Key()] = c
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx); err != nil {
		t.Fatal(err)
	}
	ours := map[string]outcome{}
	for key, c := range first {
		ours[key] = outcome{node: c.Outcome.Node, message: c.Outcome.Message}
		if c.Selection != nil {
			for _, i := range c.Selection.Top {
				ours[key] = outcome{node: c.Outcome.Node, ties: append(ours[key].ties, c.NodeName(i))}
			}
		}
	}
	compare(t, real, ours)
	if c := first["default/web"]; c == nil || c.Filter == nil || !slices.Contains(c.Filter.Plugins, "Extender "+filter.URL) ||
		c.Score == nil || !slices.ContainsFunc(c.Score.Plugins, func(p recorder.ScorePlugin) bool { return p.Name == "Extender "+prioritize.URL }) {
		t.Errorf("web's cycle does not record both extenders: %+v", c)
	}
}
