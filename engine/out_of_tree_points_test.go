package engine

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// lodge is an out-of-tree plugin, as small as can be, at the extension
// points zonebudget does not implement: Filter lets a pod onto a node
// labelled lodge=open only; PostFilter says no lodge can be opened;
// EventsToRegister asks to be told of new nodes, and its queueing hint says
// Queue for an open one and QueueSkip for any other; PreBind lets every pod
// through; PreEnqueue holds back a pod labelled lodge=wait.
type lodge struct{}

const lodgeName = "Lodge"

var (
	_ fwk.FilterPlugin      = lodge{}
	_ fwk.PostFilterPlugin  = lodge{}
	_ fwk.EnqueueExtensions = lodge{}
	_ fwk.PreBindPlugin     = lodge{}
	_ fwk.PreEnqueuePlugin  = lodge{}
)

func (lodge) PreEnqueue(_ context.Context, p *v1.Pod) *fwk.Status {
	if p.Labels["lodge"] == "wait" {
		return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "waiting for a lodge")
	}
	return nil
}

func (lodge) Name() string { return lodgeName }

func open(n *v1.Node) bool { return n != nil && n.Labels["lodge"] == "open" }

func (lodge) Filter(_ context.Context, _ fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) *fwk.Status {
	if !open(n.Node()) {
		return fwk.NewStatus(fwk.Unschedulable, "lodge closed")
	}
	return nil
}

func (lodge) PostFilter(context.Context, fwk.CycleState, *v1.Pod, fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	return nil, fwk.NewStatus(fwk.Unschedulable, "no lodge to open")
}

func (lodge) EventsToRegister(context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{{
		Event: fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.Add},
		QueueingHintFn: func(_ klog.Logger, _ *v1.Pod, _, newObj interface{}) (fwk.QueueingHint, error) {
			if n, ok := newObj.(*v1.Node); ok && open(n) {
				return fwk.Queue, nil
			}
			return fwk.QueueSkip, nil
		},
	}}, nil
}

func (lodge) PreBindPreFlight(context.Context, fwk.CycleState, *v1.Pod, string) (*fwk.PreBindPreFlightResult, *fwk.Status) {
	return &fwk.PreBindPreFlightResult{}, nil
}

func (lodge) PreBind(context.Context, fwk.CycleState, *v1.Pod, string) *fwk.Status { return nil }

var useLodge = sync.OnceValue(func() error {
	return Use(WithPlugin(lodgeName, func(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) { return lodge{}, nil }))
})

// An out-of-tree plugin's PostFilter, queueing hints, PreBind and
// PreEnqueue are recorded as the in-tree ones' are: web is rejected by Lodge
// on the closed node, Lodge's PostFilter is in its cycle, a closed node's
// arrival is skipped by Lodge's hint and an open node's queues it, its
// binding cycle runs Lodge's PreBind, and guest's move is gated by Lodge.
func TestOutOfTreePluginPostFilterHintsPreBindAreRecorded(t *testing.T) {
	if err := useLodge(); err != nil {
		t.Fatalf("Use: %v", err)
	}
	cfg, err := LoadConfig("lodge.yaml", []byte(`apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled: [{name: Lodge}]
`))
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load("lodge", []byte(`apiVersion: v1
kind: Node
metadata: {name: closed, labels: {kubernetes.io/hostname: closed}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: guest, namespace: default, labels: {lodge: wait}}
spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: Node
metadata: {name: closed-too, labels: {kubernetes.io/hostname: closed-too}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: open, labels: {kubernetes.io/hostname: open, lodge: open}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
`))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var queue []*recorder.QueueEvent
	res, cycles, _ := runEngineWith(t, fx, Options{Config: cfg, OnQueue: func(ev *recorder.QueueEvent) {
		mu.Lock()
		defer mu.Unlock()
		queue = append(queue, ev)
	}}, false)
	if got := res.Bindings["default/web"]; got != "open" || len(cycles) != 2 {
		t.Fatalf("web bound to %q in %d cycles; want open, in 2", got, len(cycles))
	}
	first, second := cycles[0], cycles[1]

	col := slices.Index(first.Filter.Plugins, lodgeName)
	var rejected []string
	for _, ns := range first.Filter.Rejected {
		if ns.Plugin == col {
			rejected = append(rejected, first.NodeName(ns.Node)+": "+strings.Join(ns.Reasons, "; "))
		}
	}
	if col < 0 || !slices.Equal(rejected, []string{"closed: lodge closed"}) {
		t.Errorf("Filter column %d of %v rejected %q; want Lodge rejecting closed", col, first.Filter.Plugins, rejected)
	}

	pf := first.PostFilter
	if pf == nil {
		t.Fatal("web's first cycle has no PostFilter")
	}
	i := slices.IndexFunc(pf.Plugins, func(p recorder.PluginStatus) bool { return p.Plugin == lodgeName })
	if i < 0 || pf.Plugins[i].Code != "Unschedulable" || !strings.Contains(strings.Join(pf.Plugins[i].Reasons, "; "), "no lodge to open") {
		t.Errorf("PostFilter plugins %+v; want Lodge Unschedulable: no lodge to open", pf.Plugins)
	}

	hints := map[string]string{} // node added → Lodge's hint
	var gated []string
	mu.Lock()
	for _, ev := range queue {
		if ev.Gated {
			gated = append(gated, ev.Pod.Name+" by "+ev.GatedBy+": "+strings.Join(ev.GateReasons, "; "))
		}
		for _, h := range ev.Hints {
			if h.Plugin == lodgeName {
				hints[ev.Event] += h.Hint + " "
			}
		}
	}
	mu.Unlock()
	if got := hints["NodeAdd"]; !strings.Contains(got, "QueueSkip") || !strings.Contains(got, "Queue ") {
		t.Errorf("Lodge's hints on NodeAdd: %q; want QueueSkip (closed-too) and Queue (open)", got)
	}

	if len(gated) == 0 || gated[0] != "guest by Lodge: waiting for a lodge" {
		t.Errorf("gated moves %q; want guest held by Lodge: waiting for a lodge", gated)
	}

	j := slices.IndexFunc(second.PreBind, func(p recorder.PluginStatus) bool { return p.Plugin == lodgeName })
	if j < 0 || second.PreBind[j].Code != "Success" {
		t.Errorf("the binding cycle's PreBind %+v; want Lodge Success", second.PreBind)
	}
}
