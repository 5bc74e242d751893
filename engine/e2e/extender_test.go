package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
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
	"k8s.io/klog/v2"
	extenderv1 "k8s.io/kube-scheduler/extender/v1"

	"github.com/schedscope/schedscope/engine"
)

// extender is a real HTTP scheduler extender on 127.0.0.1 that counts every
// request it receives by verb. It accepts every node and scores each 1.
type extender struct {
	url string
	mu  sync.Mutex
	got map[string]int
}

func startExtender(t *testing.T) *extender {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	x := &extender{url: "http://" + ln.Addr().String() + "/ext", got: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/ext/", func(w http.ResponseWriter, r *http.Request) {
		verb := strings.TrimPrefix(r.URL.Path, "/ext/")
		x.mu.Lock()
		x.got[verb]++
		x.mu.Unlock()
		var args extenderv1.ExtenderArgs
		_ = json.NewDecoder(r.Body).Decode(&args)
		var reply any
		switch verb {
		case "filter":
			reply = extenderv1.ExtenderFilterResult{NodeNames: args.NodeNames}
		case "prioritize":
			var list extenderv1.HostPriorityList
			if args.NodeNames != nil {
				for _, n := range *args.NodeNames {
					list = append(list, extenderv1.HostPriority{Host: n, Score: 1})
				}
			}
			reply = list
		case "bind":
			reply = extenderv1.ExtenderBindingResult{}
		case "preempt":
			reply = extenderv1.ExtenderPreemptionResult{}
		default:
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(reply)
	})
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return x
}

func (x *extender) counts() map[string]int {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := map[string]int{}
	for k, v := range x.got {
		out[k] = v
	}
	return out
}

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
	x := startExtender(t)

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
`, x.url)), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := engine.LoadConfigFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}

	// runLive runs a live session until the named pods each got a cycle.
	runLive := func(t *testing.T, call bool, pods ...*v1.Pod) *engine.Live {
		t.Helper()
		lctx, lcancel := context.WithCancel(ctx)
		s := newSession()
		opts := engine.LiveOptions{Options: engine.Options{Config: cfg}, REST: cp.userConfig(schedscopeToken, ""),
			Context: "e2e", SyncTimeout: 30 * time.Second, CallExtenders: call}
		s.options(&opts)
		live, err := engine.NewLive(lctx, opts)
		if err != nil {
			lcancel()
			t.Fatalf("starting live mode: %v", err)
		}
		done := make(chan error, 1)
		go func() { done <- live.Run(lctx) }()
		for _, p := range pods {
			if _, err := cp.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			key := "default/" + p.Name
			s.waitFor(t, "a cycle for "+key, 60*time.Second, func() bool { return len(s.cyclesFor(key)) > 0 })
		}
		lcancel()
		if err := <-done; err != nil {
			t.Errorf("live.Run: %v", err)
		}
		return live
	}

	t.Run("without --call-extenders no request reaches the extender", func(t *testing.T) {
		live := runLive(t, false, makePod(podSpec{name: "quiet", cpu: "100m", mem: "64Mi"}))
		if got := x.counts(); len(got) != 0 {
			t.Errorf("the extender received %v, want nothing", got)
		}
		if !slices.ContainsFunc(live.Notes(), func(n string) bool { return strings.Contains(n, "--call-extenders") }) {
			t.Errorf("live mode did not say the extender is not called: notes %q", live.Notes())
		}
	})

	t.Run("with --call-extenders only filter and prioritize are called", func(t *testing.T) {
		big := makePod(podSpec{name: "preemptor", cpu: "1", mem: "64Mi"})
		big.Spec.PriorityClassName = "high"
		live := runLive(t, true, makePod(podSpec{name: "asked", cpu: "100m", mem: "64Mi"}), big)
		got := x.counts()
		if got["filter"] == 0 || got["prioritize"] == 0 {
			t.Errorf("the extender received %v, want filter and prioritize calls (the check would prove nothing without them)", got)
		}
		if got["bind"] != 0 || got["preempt"] != 0 {
			t.Errorf("the extender received %v: live mode must never call bind or preempt", got)
		}
		for _, verb := range []string{"bind", "preempt"} {
			if !slices.ContainsFunc(live.Notes(), func(n string) bool { return strings.Contains(n, verb+" verb") }) {
				t.Errorf("live mode did not say the %s verb is never called: notes %q", verb, live.Notes())
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
