package engine

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

// runFixture schedules data and returns the bindings and the cycles in order.
func runFixture(t *testing.T, name string, data []byte, opts Options) (*Result, []*recorder.Cycle) {
	t.Helper()
	return runFixtureArriving(t, name, data, opts, false)
}

// runFixtureArriving runs the fixture with its pending pods arriving at
// once (burst) or one by one, and returns its result and cycles in order.
func runFixtureArriving(t *testing.T, name string, data []byte, opts Options, burst bool) (*Result, []*recorder.Cycle) {
	t.Helper()
	fx, err := fixture.Load(name, data)
	if err != nil {
		t.Fatalf("fixture.Load: %v", err)
	}
	res, cycles, _ := runEngineWith(t, fx, opts, burst)
	return res, cycles
}

func embedded(t *testing.T, name string) []byte {
	t.Helper()
	data, err := fixtures.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestFixtureOutcomes(t *testing.T) {
	tests := []struct {
		fixture  string
		bindings map[string]string
		// messages holds the exact PodScheduled message of each pod's last failed cycle.
		messages map[string]string
		victims  map[string][]string
	}{
		{
			fixture:  "default.yaml",
			bindings: map[string]string{"default/web": "node-a", "default/api": "node-d", "default/trainer": "node-c", "default/huge": ""},
			messages: map[string]string{"default/huge": "0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 Insufficient cpu, 3 Insufficient memory. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling."},
		},
		{fixture: "resources-fit.yaml", bindings: map[string]string{"default/small": "node-medium", "default/wide": "node-big", "default/besteffort": "node-small"}},
		{fixture: "taints-tolerations.yaml", bindings: map[string]string{"default/plain": "node-clean", "default/cordoned-ok": "node-gpu"}},
		{fixture: "node-affinity.yaml", bindings: map[string]string{"default/ssd-required": "node-ssd-2", "default/zone-prefer": "node-ssd-2"}},
		{fixture: "pod-affinity.yaml", bindings: map[string]string{"default/web-2": "node-2", "default/sidecar": "node-3"}},
		{
			fixture:  "topology-spread.yaml",
			bindings: map[string]string{"default/spread-3": "b-1", "default/quorum-1": "a-1", "default/quorum-2": "b-1", "default/quorum-3": ""},
			messages: map[string]string{"default/quorum-3": "0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."},
		},
		{fixture: "image-locality.yaml", bindings: map[string]string{"default/inference": "node-warm"}},
		{
			fixture:  "unschedulable.yaml",
			bindings: map[string]string{"default/stuck": ""},
			messages: map[string]string{"default/stuck": "0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling."},
		},
		{
			fixture:  "preemption.yaml",
			bindings: map[string]string{"default/urgent": "node-1"},
			messages: map[string]string{"default/urgent": "0/2 nodes are available: 2 Insufficient cpu. preemption: found a potential placement for pod on node node-1, preempting 1 victims"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			res, cycles := runFixture(t, tt.fixture, embedded(t, tt.fixture), Options{Diagnostic: DiagnosticAlways})
			// A tie is broken by the order the nodes passed filtering, which
			// a parallel filter does not fix (in kube-scheduler too): a pod
			// bound within a tie that holds the expected node matches it.
			got := maps.Clone(res.Bindings)
			for _, c := range cycles {
				if want, ok := tt.bindings[c.Pod.Key()]; ok && c.Outcome.Node == got[c.Pod.Key()] && c.Selection != nil && len(c.Selection.Top) > 1 {
					for _, i := range c.Selection.Top {
						if c.NodeName(i) == want {
							got[c.Pod.Key()] = want
						}
					}
				}
			}
			if diff := cmp.Diff(tt.bindings, got); diff != "" {
				t.Errorf("bindings (-want +got):\n%s", diff)
			}
			gotMessages := map[string]string{}
			for _, c := range cycles {
				if c.Outcome.Result == recorder.ResultUnschedulable {
					gotMessages[c.Pod.Key()] = c.Outcome.Message
				}
				if c.Outcome.Result == recorder.ResultBound && c.Outcome.Node != res.Bindings[c.Pod.Key()] {
					t.Errorf("cycle %d says %s bound to %s, cluster says %s", c.Seq, c.Pod.Key(), c.Outcome.Node, res.Bindings[c.Pod.Key()])
				}
			}
			if tt.messages == nil {
				tt.messages = map[string]string{}
			}
			if diff := cmp.Diff(tt.messages, gotMessages); diff != "" {
				t.Errorf("unschedulable messages (-want +got):\n%s", diff)
			}
			for _, c := range cycles {
				checkInvariants(t, c)
			}
		})
	}
}

func TestPreemptionRecordsNomination(t *testing.T) {
	_, cycles := runFixture(t, "preemption.yaml", embedded(t, "preemption.yaml"), Options{})
	if len(cycles) != 2 {
		t.Fatalf("want 2 cycles (preempt, then bind), got %d", len(cycles))
	}
	pf := cycles[0].PostFilter
	if pf == nil || pf.NominatedNode != "node-1" || cycles[0].Outcome.NominatedNode != "node-1" {
		t.Fatalf("first cycle should nominate node-1, got %+v outcome %+v", pf, cycles[0].Outcome)
	}
	if diff := cmp.Diff([]string{"default/filler-1"}, podKeys(pf.Victims)); diff != "" {
		t.Errorf("victims (-want +got):\n%s", diff)
	}
	// The dry run finds both nodes; node-1's victim has the lower priority, so it wins.
	gotCands := map[string][]string{}
	for _, c := range pf.Candidates {
		gotCands[c.Node] = podKeys(c.Victims)
	}
	wantCands := map[string][]string{"node-1": {"default/filler-1"}, "node-2": {"default/filler-2"}}
	if diff := cmp.Diff(wantCands, gotCands); diff != "" {
		t.Errorf("preemption candidates (-want +got):\n%s", diff)
	}
	if cycles[1].Outcome.Node != "node-1" {
		t.Errorf("second cycle bound to %q, want the nominated node-1", cycles[1].Outcome.Node)
	}
	// As in kube-scheduler, the retry evaluates only the nominated node: the
	// nomination reached the queued pod through its status, as it does
	// through the API server in a cluster.
	fp := cycles[1].FastPath
	if fp == nil || fp.Kind != recorder.FastPathNominated || fp.Node != "node-1" || !fp.Feasible {
		t.Fatalf("second cycle fast path %+v, want the nominated node-1, feasible", fp)
	}
	if cycles[1].Selection == nil || cycles[1].Selection.Rule != recorder.RuleFastPath || cycles[1].Score != nil {
		t.Errorf("second cycle selection %+v, score %v: want the fast path's node chosen without scoring", cycles[1].Selection, cycles[1].Score)
	}
}

func podKeys(refs []recorder.PodRef) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Key())
	}
	return out
}

// checkInvariants holds for every recorded cycle.
func checkInvariants(t *testing.T, c *recorder.Cycle) {
	t.Helper()
	where := fmt.Sprintf("cycle %d (%s)", c.Seq, c.Pod.Key())
	n := c.NumNodes()
	if n == 0 {
		t.Errorf("%s: no node set", where)
		return
	}
	if s := c.Score; s != nil && len(s.Nodes) > 0 {
		for i := range s.Nodes {
			var sum int64
			for p := range s.Plugins {
				pl := &s.Plugins[p]
				if len(pl.Raw) != len(s.Nodes) || (pl.Normalized != nil && len(pl.Normalized) != len(s.Nodes)) {
					t.Fatalf("%s: plugin %s scores not aligned with nodes", where, pl.Name)
				}
				if pl.Weight <= 0 {
					t.Errorf("%s: plugin %s has weight %d", where, pl.Name, pl.Weight)
				}
				sum += s.Weighted(p, i)
			}
			if sum != s.Totals[i] {
				t.Errorf("%s: node %s total %d != Σ normalized×weight %d", where, c.NodeName(s.Nodes[i]), s.Totals[i], sum)
			}
		}
	}
	if c.Outcome.Result == recorder.ResultBound {
		sel := c.Selection
		if sel == nil || sel.Node != c.Outcome.Node {
			t.Errorf("%s: bound to %s but selection is %+v", where, c.Outcome.Node, sel)
		} else if c.Score != nil && len(c.Score.Totals) > 0 {
			found := false
			for _, i := range sel.Top {
				found = found || c.NodeName(i) == sel.Node
			}
			if !found {
				t.Errorf("%s: chosen %s is not in the top-score set %v", where, sel.Node, sel.Top)
			}
		}
	}
	f := c.Filter
	if f == nil {
		if c.FastPath == nil || !c.FastPath.Feasible {
			if c.PreFilter == nil || c.PreFilter.Code == recorder.CodeSuccess {
				t.Errorf("%s: no filter phase recorded", where)
			}
		}
		return
	}
	seen := map[int]string{}
	mark := func(i int, what string) {
		if i < 0 || i >= n {
			t.Errorf("%s: node index %d out of range", where, i)
			return
		}
		if prev, ok := seen[i]; ok {
			t.Errorf("%s: node %s is both %s and %s", where, c.NodeName(i), prev, what)
		}
		seen[i] = what
	}
	for _, i := range f.Feasible {
		mark(i, "feasible")
	}
	for _, r := range f.Rejected {
		mark(r.Node, "rejected")
		if r.Code == recorder.CodeSuccess || (len(r.Reasons) == 0 && r.Code != recorder.CodeError) {
			t.Errorf("%s: node %s rejected without a reason: %+v", where, c.NodeName(r.Node), r)
		}
	}
	for _, i := range f.Discarded {
		mark(i, "discarded")
	}
	if len(seen) != f.Evaluated {
		t.Errorf("%s: %d nodes accounted for, %d evaluated", where, len(seen), f.Evaluated)
	}
	// Every node is feasible, rejected with a reason, discarded, or not evaluated;
	// a node can only be left unevaluated when the search stopped early or a
	// PreFilter result narrowed it.
	if f.Evaluated < n && len(f.Feasible) < c.NodesToFind && (c.PreFilter == nil || c.PreFilter.NodeSubset == nil) && c.FastPath == nil {
		t.Errorf("%s: %d of %d nodes evaluated although only %d feasible of %d wanted were found", where, f.Evaluated, n, len(f.Feasible), c.NodesToFind)
	}
}

func TestLargeClusterRecordsPartialSearch(t *testing.T) {
	_, cycles := runFixture(t, "large-cluster.yaml", embedded(t, "large-cluster.yaml"), Options{})
	if len(cycles) != 20 {
		t.Fatalf("want 20 cycles, got %d", len(cycles))
	}
	for _, c := range cycles {
		checkInvariants(t, c)
		if c.NumNodes() != 1000 {
			t.Fatalf("cycle %d: %d nodes", c.Seq, c.NumNodes())
		}
		if c.FastPath != nil && c.FastPath.Feasible {
			continue
		}
		if c.NodesToFind != 420 {
			t.Errorf("cycle %d: nodesToFind %d, want 420 (adaptive 42%% of 1000)", c.Seq, c.NodesToFind)
		}
		if c.Filter.Evaluated >= 1000 {
			t.Errorf("cycle %d: evaluated every node; the search should stop after 420 feasible", c.Seq)
		}
		if len(c.Filter.Feasible) != 420 {
			t.Errorf("cycle %d: %d feasible kept, want 420", c.Seq, len(c.Filter.Feasible))
		}
	}
	for i := 1; i < len(cycles); i++ {
		prev, cur := cycles[i-1], cycles[i]
		if prev.Filter == nil || cur.Filter == nil || (cur.FastPath != nil && cur.FastPath.Feasible) {
			continue
		}
		want := (prev.SearchStart + len(prev.Filter.Feasible) + len(prev.Filter.Rejected)) % 1000
		if cur.SearchStart != want {
			t.Errorf("cycle %d starts at %d, want %d (where cycle %d stopped)", cur.Seq, cur.SearchStart, want, prev.Seq)
		}
	}
}

// randomWorkload builds a seeded cluster whose pods have varied requests.
func randomWorkload(seed int64, nodes, pods int) []byte {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	for i := 0; i < nodes; i++ {
		cpu := 2000 + r.Intn(14000)
		mem := 4096 + r.Intn(60000)
		zone := []string{"a", "b", "c"}[i%3]
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: n%03d, labels: {kubernetes.io/hostname: n%03d, topology.kubernetes.io/zone: zone-%s}}\nstatus:\n  allocatable: {cpu: %dm, memory: %dMi, pods: \"110\"}\n", i, i, zone, cpu, mem)
	}
	for i := 0; i < pods; i++ {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%03d, namespace: default, labels: {app: a%d}}\nspec:\n  containers:\n  - {name: c, image: img%d, resources: {requests: {cpu: %dm, memory: %dMi}}}\n",
			i, r.Intn(4), r.Intn(3), 100+r.Intn(1900), 128+r.Intn(3000))
	}
	return []byte(b.String())
}

// Recording must never change a decision: the same seeded workload binds every
// pod to the same node with and without wrappers, or, where scores tie, to a
// node in the recorded tie set (ties are broken by filter completion order).
func TestRecordingDoesNotChangeDecisions(t *testing.T) {
	data := randomWorkload(42, 30, 60)
	// With one filter goroutine, nodes pass filtering in a fixed order, so the
	// scheduler breaks score ties the same way in both runs.
	cfgFile := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfgFile, []byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelism: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfigFile(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	off, _ := runFixture(t, "seeded", data, Options{Config: cfg, DisableRecording: true})
	on, cycles := runFixture(t, "seeded", data, Options{Config: cfg})
	byPod := map[string]*recorder.Cycle{}
	for _, c := range cycles {
		byPod[c.Pod.Key()] = c
	}
	// Pods arrive one at a time, so once a tie is broken differently the clusters
	// differ and later decisions may too: compare up to the first difference,
	// which must lie inside the recorded tie set.
	compared := 0
	for i := 0; i < 60; i++ {
		pod := fmt.Sprintf("default/p%03d", i)
		want, got := off.Bindings[pod], on.Bindings[pod]
		compared++
		if got == want {
			continue
		}
		c := byPod[pod]
		inTie := false
		if c != nil && c.Selection != nil {
			for _, i := range c.Selection.Top {
				inTie = inTie || c.NodeName(i) == want
			}
		}
		if !inTie {
			t.Errorf("%s: bound to %s with recording, %s without, and %s is not in the recorded tie set", pod, got, want, want)
		}
		t.Logf("%s: tie broken differently (%s vs %s); later pods see different clusters", pod, got, want)
		break
	}
	if compared < 60 {
		t.Errorf("only %d pods compared before the runs diverged; choose a workload with fewer ties", compared)
	}
	t.Logf("%d pods compared", compared)
}

// TestNodeDetailsFollowPlacements checks that a recording can rebuild, for any
// cycle, each node's allocatable resources and the pods the scheduler saw on it.
func TestNodeDetailsFollowPlacements(t *testing.T) {
	_, cycles := runFixture(t, "default.yaml", embedded(t, "default.yaml"), Options{})
	first := cycles[0]
	idx := slices.Index(first.Nodes.Names, "node-b")
	if idx < 0 || len(first.Nodes.Info) != len(first.Nodes.Names) {
		t.Fatalf("node set lacks node-b or its info: %+v", first.Nodes)
	}
	info := first.Nodes.Info[idx]
	if got := info.Allocatable["cpu"]; got != 8000 {
		t.Errorf("node-b allocatable cpu = %dm, want 8000m", got)
	}
	if info.Labels["topology.kubernetes.io/zone"] != "zone-a" {
		t.Errorf("node-b labels = %v", info.Labels)
	}
	for i, c := range cycles {
		u := recorder.UsageAt(cycles, i)
		// Every pod bound by an earlier cycle is on its node as this cycle saw it.
		for _, prev := range cycles[:i] {
			if prev.Outcome.Result != recorder.ResultBound {
				continue
			}
			nu, ok := u.Node(prev.Outcome.Node)
			if !ok || !slices.ContainsFunc(nu.Pods, func(p recorder.PodRef) bool { return p.Key() == prev.Pod.Key() }) {
				t.Errorf("cycle %d: %s should see %s on %s, got %+v", c.Seq, c.Pod.Key(), prev.Pod.Key(), prev.Outcome.Node, nu.Pods)
			}
		}
		if c.Outcome.Result == recorder.ResultBound {
			if nu, ok := u.Node(c.Outcome.Node); ok && slices.ContainsFunc(nu.Pods, func(p recorder.PodRef) bool { return p.Key() == c.Pod.Key() }) {
				t.Errorf("cycle %d: %s is already on %s before it was scheduled", c.Seq, c.Pod.Key(), c.Outcome.Node)
			}
		}
	}
	// The fixture's running pod is counted from the first cycle on.
	nu, ok := recorder.UsageAt(cycles, 0).Node("node-b")
	if !ok || nu.Requested["cpu"] != 4000 || len(nu.Pods) != 1 || nu.Pods[0].Key() != "default/cache" {
		t.Errorf("first cycle should see default/cache requesting 4000m on node-b, got %+v", nu)
	}
}

// TestOpportunisticBatchingHint schedules identical pods in a burst: with the
// OpportunisticBatching feature (beta, on by default), the scheduler reuses the
// previous cycle's ranking and checks the hinted node first. Such cycles must
// record the hint and the single-node check, and still satisfy the invariants.
func TestOpportunisticBatchingHint(t *testing.T) {
	fx, cfg := batchingFixture(t, 30, 40)
	var mu sync.Mutex
	var cycles []*recorder.Cycle
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e, err := New(ctx, fx, Options{Config: cfg, OnCycle: func(c *recorder.Cycle) {
		mu.Lock()
		cycles = append(cycles, c)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.RunBurst(ctx); err != nil {
		t.Fatal(err)
	}
	hinted := 0
	for _, c := range cycles {
		checkInvariants(t, c)
		fp := c.FastPath
		if fp == nil || fp.Kind != recorder.FastPathBatch {
			continue
		}
		hinted++
		if c.BatchHint == "" || fp.Node != c.BatchHint {
			t.Errorf("cycle %d: fast path %+v does not name the batch hint %q", c.Seq, fp, c.BatchHint)
		}
		if fp.Feasible && (c.Outcome.Result != recorder.ResultBound || c.Outcome.Node != fp.Node) {
			t.Errorf("cycle %d: the hinted node %s passed, but the pod ended %s on %q", c.Seq, fp.Node, c.Outcome.Result, c.Outcome.Node)
		}
	}
	if hinted == 0 {
		t.Fatalf("none of %d cycles of identical pods used an opportunistic batching hint", len(cycles))
	}
	t.Logf("%d of %d cycles checked a batch hint first", hinted, len(cycles))
}

// batchingFixture is nodes identical nodes and pods identical pending pods,
// with a profile under which the pods share a signature: PodTopologySpread
// signs no pod while it has default constraints (the default profile's system
// defaults), and unsigned pods are never batched.
func batchingFixture(t *testing.T, nodes, pods int) (*fixture.Fixture, *config.KubeSchedulerConfiguration) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata:\n  name: node\n  labels: {topology.kubernetes.io/zone: z}\n  annotations: {schedscope.io/replicas: \"%d\"}\nstatus:\n  allocatable: {cpu: \"8\", memory: 16Gi, pods: \"110\"}\n---\n", nodes)
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: same\n  annotations: {schedscope.io/replicas: \"%d\"}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m, memory: 64Mi}}}]\n", pods)
	cfgPath := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfgPath, []byte(`apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args: {defaultingType: List}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfigFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load("batch.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return fx, cfg
}

// TestOpportunisticBatchingRhythm checks which pods, arriving one after
// another, get a batch hint. kube-scheduler stores a ranking after each full
// cycle; hinted cycles use it without storing a new one, and it expires
// maxBatchAge (500 ms, wall clock) after it was stored. Pods arriving at once
// are all hinted after the first; pods 260 ms apart every other time, as the
// real kube-scheduler does (engine/e2e TestBatchHintsMatchRealScheduler).
func TestOpportunisticBatchingRhythm(t *testing.T) {
	tests := []struct {
		name     string
		interval time.Duration
		want     []bool
	}{
		{"at once", 0, []bool{false, true, true, true, true, true}},
		{"260ms apart", 260 * time.Millisecond, []bool{false, true, false, true, false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx, cfg := batchingFixture(t, 4, len(tt.want))
			var mu sync.Mutex
			var cycles []*recorder.Cycle
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			e, err := New(ctx, fx, Options{Config: cfg, ArrivalInterval: tt.interval, OnCycle: func(c *recorder.Cycle) {
				mu.Lock()
				cycles = append(cycles, c)
				mu.Unlock()
			}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.Run(ctx); err != nil {
				t.Fatal(err)
			}
			sort.Slice(cycles, func(i, j int) bool { return cycles[i].Seq < cycles[j].Seq })
			var got []bool
			for _, c := range cycles {
				checkInvariants(t, c)
				got = append(got, c.BatchHint != "")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("cycles with a batch hint (-want +got):\n%s", diff)
			}
		})
	}
}
