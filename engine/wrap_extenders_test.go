package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/engine/extendertest"
	"github.com/schedscope/schedscope/recorder"
)

// extenderScenario is four equal nodes and extendertest's Pair of extenders
// (the end-to-end test runs the same Pair next to kube-scheduler), with a pod
// that fits anywhere and one pinned to the node the filter rejects.
func extenderScenario(t testing.TB) (manifest []byte, configPath string, filter, prioritize *extendertest.Server) {
	t.Helper()
	pair := extendertest.StartPair(t)
	filter, prioritize = pair.Filter, pair.Prioritize
	configPath = filepath.Join(t.TempDir(), "extenders.yaml")
	if err := os.WriteFile(configPath, []byte(pair.Config("")), 0o600); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, n := range []string{"node-a", "node-b", "node-c", "node-d"} {
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: {kubernetes.io/hostname: %s}}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}, capacity: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n---\n", n, n)
	}
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: c, image: pause, resources: {requests: {cpu: 500m, memory: 512Mi}}}]}\n---\n")
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata: {name: pinned}\nspec: {nodeSelector: {kubernetes.io/hostname: node-c}, containers: [{name: c, image: pause}]}\n")
	return []byte(b.String()), configPath, filter, prioritize
}

// TestExtendersAreRecorded checks that a cycle shows what each extender
// answered, in a column of its own: the nodes it rejected and why, and its
// scores, scaled and weighted as the scheduler adds them to the totals.
func TestExtendersAreRecorded(t *testing.T) {
	manifest, configPath, filter, prioritize := extenderScenario(t)
	cfg, err := LoadConfigFile(configPath)
	if err != nil {
		t.Fatal(err)
	}
	res, cycles := runFixture(t, "extenders", manifest, Options{Config: cfg})
	if diff := cmp.Diff(map[string]string{"default/web": "node-b", "default/pinned": ""}, res.Bindings); diff != "" {
		t.Errorf("bindings (-want +got):\n%s", diff)
	}
	// The first cycle of each pod. (A pod an extender rejected has no plugin
	// to wait for: any event, its own status update among them, requeues it.)
	first := map[string]*recorder.Cycle{}
	for _, c := range cycles {
		if first[c.Pod.Name] == nil {
			first[c.Pod.Name] = c
		}
	}
	web, pinned := first["web"], first["pinned"]
	if web == nil || pinned == nil {
		t.Fatalf("cycles for %v, want web and pinned", first)
	}
	filterCol, scoreCol := "Extender "+filter.URL, "Extender "+prioritize.URL

	f := web.Filter
	col := slices.Index(f.Plugins, filterCol)
	if col < 0 {
		t.Fatalf("filter plugins %v have no column %q", f.Plugins, filterCol)
	}
	if slices.Contains(f.Plugins, scoreCol) {
		t.Errorf("the prioritize-only extender has a filter column: %v", f.Plugins)
	}
	type rejection struct{ Node, Plugin, Code, Reason string }
	var got []rejection
	for _, r := range f.Rejected {
		got = append(got, rejection{web.NodeName(r.Node), f.Plugins[r.Plugin], r.Code, strings.Join(r.Reasons, "; ")})
	}
	want := []rejection{
		{"node-c", filterCol, "Unschedulable", extendertest.ReservedReason},
		{"node-d", filterCol, "UnschedulableAndUnresolvable", extendertest.RetiredReason},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rejections (-want +got):\n%s", diff)
	}
	var feasible []string
	for _, i := range f.Feasible {
		feasible = append(feasible, web.NodeName(i))
	}
	slices.Sort(feasible) // the parallel filter finds them in any order
	if diff := cmp.Diff([]string{"node-a", "node-b"}, feasible); diff != "" || len(f.Discarded) != 0 || f.Calls[col] != 4 {
		t.Errorf("feasible (-want +got):\n%s\ndiscarded %v, extender calls %d (want 4)", diff, f.Discarded, f.Calls[col])
	}

	s := web.Score
	p := slices.IndexFunc(s.Plugins, func(pl recorder.ScorePlugin) bool { return pl.Name == scoreCol })
	if p < 0 {
		t.Fatalf("score plugins have no row %q", scoreCol)
	}
	var a, b = -1, -1
	for i, n := range s.Nodes {
		switch web.NodeName(n) {
		case "node-a":
			a = i
		case "node-b":
			b = i
		}
	}
	if a < 0 || b < 0 {
		t.Fatalf("scored nodes %v lack node-a or node-b", s.Nodes)
	}
	pl := s.Plugins[p]
	if pl.Raw[b] != 10 || pl.Raw[a] != 0 || pl.Weight != 2 || s.Weighted(p, b) != 200 {
		t.Errorf("extender row raw %v weight %d weighted(node-b) %d, want raw 10 for node-b, weight 2, weighted 200", pl.Raw, pl.Weight, s.Weighted(p, b))
	}
	// The nodes are equal, so the plugins score them alike: the extender's
	// weighted score is the whole difference between the totals.
	if gap := s.Totals[b] - s.Totals[a]; gap != 200 {
		t.Errorf("node-b's total is %d above node-a's, want the extender's 200", gap)
	}
	for i := range s.Nodes {
		var sum int64
		for q := range s.Plugins {
			sum += s.Weighted(q, i)
		}
		if sum != s.Totals[i] {
			t.Errorf("node %s: plugin and extender rows add up to %d, total %d", web.NodeName(s.Nodes[i]), sum, s.Totals[i])
		}
	}
	if web.Selection == nil || web.Selection.Node != "node-b" || web.Selection.Rule != recorder.RuleHighestScore {
		t.Errorf("selection %+v, want node-b by highest score", web.Selection)
	}

	if pinned.Outcome.Result != recorder.ResultUnschedulable || !strings.Contains(pinned.Outcome.Message, extendertest.ReservedReason) {
		t.Errorf("pinned: %s %q, want Unschedulable naming the extender's reason", pinned.Outcome.Result, pinned.Outcome.Message)
	}
}
