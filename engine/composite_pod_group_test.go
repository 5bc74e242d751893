package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// compositeGates turns on CompositePodGroup and the gates it depends on
// for the test.
func compositeGates(t *testing.T) {
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides{
		features.GenericWorkload: true, features.TopologyAwareWorkloadScheduling: true, features.CompositePodGroup: true,
	})
}

// TestCompositePodGroupRefused: without the CompositePodGroup gate, the
// embedded composite fixture is refused in one line naming its file, the
// document's line and the gates to turn on; with GenericWorkload alone,
// its Workload's compositePodGroupTemplates are. A CompositePodGroup is
// checked by upstream's validation and Priority admission once served.
func TestCompositePodGroupRefused(t *testing.T) {
	data := embedded(t, "composite.yaml")
	const gates = "--feature-gates=GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true"
	tests := []struct {
		name  string
		gates featuregatetesting.FeatureOverrides
		data  string
		want  string
	}{
		{name: "no gate", data: string(data),
			want: `composite.yaml:31: no matches for kind "Workload" in version "scheduling.k8s.io/v1beta1": kube-apiserver serves it only with the GenericWorkload feature gate`},
		{name: "GenericWorkload only", gates: featuregatetesting.FeatureOverrides{features.GenericWorkload: true}, data: string(data),
			want: `composite.yaml:31: Workload "train": spec.compositePodGroupTemplates: kube-apiserver keeps it only with the CompositePodGroup feature gate, Alpha and off by default in v1.37.1 (` + gates + `)`},
		{name: "a CompositePodGroup, GenericWorkload only", gates: featuregatetesting.FeatureOverrides{features.GenericWorkload: true},
			data: podGroupNode + "apiVersion: scheduling.k8s.io/v1alpha3\nkind: CompositePodGroup\nmetadata: {name: c}\nspec:\n  workloadRef: {workloadName: w, templateName: c}\n  schedulingPolicy: {gang: {minGroupCount: 1}}\n",
			want: `composite.yaml:6: no matches for kind "CompositePodGroup" in version "scheduling.k8s.io/v1alpha3": kube-apiserver serves it only with the CompositePodGroup feature gate, Alpha and off by default in v1.37.1 (` + gates + `)`},
		{name: "invalid minGroupCount", gates: featuregatetesting.FeatureOverrides{features.GenericWorkload: true, features.TopologyAwareWorkloadScheduling: true, features.CompositePodGroup: true},
			data: podGroupNode + "apiVersion: scheduling.k8s.io/v1alpha3\nkind: CompositePodGroup\nmetadata: {name: c}\nspec:\n  workloadRef: {workloadName: w, templateName: c}\n  schedulingPolicy: {gang: {minGroupCount: 0}}\n",
			want: `composite.yaml:6: CompositePodGroup "c" is invalid: spec.schedulingPolicy.gang.minGroupCount`},
		{name: "priority admission", gates: featuregatetesting.FeatureOverrides{features.GenericWorkload: true, features.TopologyAwareWorkloadScheduling: true, features.CompositePodGroup: true},
			data: podGroupNode + "apiVersion: scheduling.k8s.io/v1alpha3\nkind: CompositePodGroup\nmetadata: {name: c}\nspec:\n  priority: 5\n  workloadRef: {workloadName: w, templateName: c}\n  schedulingPolicy: {gang: {minGroupCount: 1}}\n",
			want: `composite.yaml:6: compositepodgroups.scheduling.k8s.io "c" is forbidden: priority set in the composite pod group (5) must match the priority computed (0)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.gates != nil {
				featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, tt.gates)
			}
			_, err := fixture.Load("composite.yaml", []byte(tt.data))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("fixture.Load: %v\nwant one line starting %q", err, tt.want)
			}
		})
	}
}

// TestCompositePodGroupCycles: with the gates on, the composite fixture
// loads and each CompositePodGroup's hierarchy is scheduled in one
// pod-group cycle, recorded with its groups (policy, minGroupCount or
// minCount, topology), its members leaf by leaf, the verdicts about each
// group, the leaves' conditions and none on the CompositePodGroup (v1.37.1
// writes none): ring binds all four members in zone-a (zone-b failed its
// minGroupCount), pair fails and pair-0, whose members were all placed, is
// overruled by its parent.
func TestCompositePodGroupCycles(t *testing.T) {
	compositeGates(t)
	data := embedded(t, "composite.yaml")
	var groups []*recorder.PodGroupCycle
	res, _ := runFixture(t, "composite.yaml", data, Options{
		OnPodGroup: func(g *recorder.PodGroupCycle) { groups = append(groups, g) },
	})
	wantBindings := map[string]string{
		"default/ring-0-0": "a1", "default/ring-0-1": "a1", "default/ring-1-0": "a1", "default/ring-1-1": "a1",
		"default/pair-0-0": "", "default/pair-0-1": "", "default/pair-1-0": "", "default/pair-1-1": "",
	}
	if diff := cmp.Diff(wantBindings, res.Bindings); diff != "" {
		t.Errorf("bindings (-want +got):\n%s", diff)
	}
	type member struct{ Pod, PodGroup, Node string }
	type node struct {
		Kind, Name, Parent, Policy, Topology string
		MinCount                             int32
		Members, Placed                      int
		Verdicts                             []string
		Condition                            string
		Overruled                            bool
	}
	type cycle struct {
		Group, Result string
		Composite     bool
		Members       []member
		Hierarchy     []node
		Condition     *recorder.GroupCondition
	}
	var got []cycle
	seen := map[string]bool{}
	for _, g := range groups {
		if seen[g.Group.Key()] {
			continue // a failed group's retries
		}
		seen[g.Group.Key()] = true
		c := cycle{Group: g.Group.Key(), Result: g.Outcome.Result, Composite: g.Composite(), Condition: g.Condition}
		for _, m := range g.Members {
			c.Members = append(c.Members, member{m.Pod.Name, m.PodGroup, m.Node})
		}
		for _, h := range g.Hierarchy {
			n := node{Kind: h.Kind, Name: h.Name, Parent: h.Parent, Policy: h.Policy, Topology: h.Topology, MinCount: h.MinCount,
				Members: h.Members, Placed: h.Placed, Overruled: g.OverruledByParent(h)}
			// The verdicts that end a placement's try (not Wait), each
			// code once: the placements are tried in no fixed order.
			for _, v := range h.Feasible {
				if v.Code != "Wait" && !slices.Contains(n.Verdicts, v.Code) {
					n.Verdicts = append(n.Verdicts, v.Code)
				}
			}
			slices.Sort(n.Verdicts)
			if h.Condition != nil {
				n.Condition = h.Condition.Status + "/" + h.Condition.Reason
			}
			c.Hierarchy = append(c.Hierarchy, n)
		}
		got = append(got, c)
	}
	const zone = "topology.kubernetes.io/zone"
	want := []cycle{
		{Group: "default/ring", Result: recorder.ResultBound, Composite: true,
			Members: []member{{"ring-0-0", "ring-0", "a1"}, {"ring-0-1", "ring-0", "a1"}, {"ring-1-0", "ring-1", "a1"}, {"ring-1-1", "ring-1", "a1"}},
			Hierarchy: []node{
				// zone-a satisfies ring, zone-b does not (ring-1 fits
				// nowhere there).
				{Kind: "CompositePodGroup", Name: "ring", Policy: "Gang", MinCount: 2, Topology: zone, Verdicts: []string{"Success", "Unschedulable"}},
				{Kind: "PodGroup", Name: "ring-0", Parent: "ring", Policy: "Gang", MinCount: 2, Members: 2, Placed: 2, Verdicts: []string{"Success"}, Condition: "True/Scheduled"},
				{Kind: "PodGroup", Name: "ring-1", Parent: "ring", Policy: "Gang", MinCount: 2, Members: 2, Placed: 2, Verdicts: []string{"Success", "Unschedulable"}, Condition: "True/Scheduled"},
			}},
		{Group: "default/pair", Result: recorder.ResultUnschedulable, Composite: true,
			Members: []member{{"pair-0-0", "pair-0", "b1"}, {"pair-0-1", "pair-0", "b2"}, {"pair-1-0", "pair-1", ""}, {"pair-1-1", "pair-1", ""}},
			Hierarchy: []node{
				{Kind: "CompositePodGroup", Name: "pair", Policy: "Gang", MinCount: 2, Verdicts: []string{"Unschedulable"}},
				{Kind: "PodGroup", Name: "pair-0", Parent: "pair", Policy: "Gang", MinCount: 2, Members: 2, Placed: 2, Verdicts: []string{"Success"}, Condition: "False/Unschedulable", Overruled: true},
				{Kind: "PodGroup", Name: "pair-1", Parent: "pair", Policy: "Gang", MinCount: 2, Members: 2, Verdicts: []string{"Unschedulable"}, Condition: "False/Unschedulable"},
			}},
	}
	// pair-0's two members tie on b1 and b2; which takes which is the
	// scheduler's random tie-break.
	opt := cmp.Transformer("tie", func(m member) member {
		if m.Node == "b2" {
			m.Node = "b1"
		}
		return m
	})
	if diff := cmp.Diff(want, got, opt); diff != "" {
		t.Errorf("composite pod-group cycles (-want +got):\n%s", diff)
	}
	if len(groups) > 0 && groups[0].Composite() {
		ring := groups[0].Hierarchy[0]
		refused := slices.ContainsFunc(ring.Feasible, func(v recorder.PlacementVerdict) bool {
			return v.Code == "Unschedulable" && v.Message == "minCount (2) cannot be satisfied: 1 scheduled, 0 remaining"
		})
		if !refused {
			t.Errorf("ring's verdicts %+v, want zone-b refused in GangScheduling's words (minCount, counting children)", ring.Feasible)
		}
	}
}

// TestCompositeQuorumWait: a member whose CompositePodGroup's tree has not
// met its quorum (pair's minGroupCount 2, pair-1 without members) is held
// by GangScheduling's PreEnqueue and gets no cycle; its pod state says which
// root it waits for and how many of its groups are ready.
func TestCompositeQuorumWait(t *testing.T) {
	compositeGates(t)
	var kept []string
	for _, doc := range strings.Split(string(embedded(t, "composite.yaml")), "\n---\n") {
		if !strings.Contains(doc, "name: pair-1-") {
			kept = append(kept, doc)
		}
	}
	data := []byte(strings.Join(kept, "\n---\n"))
	var groups []*recorder.PodGroupCycle
	res, cycles := runFixture(t, "composite.yaml", data, Options{
		OnPodGroup: func(g *recorder.PodGroupCycle) { groups = append(groups, g) },
	})
	had := map[string]bool{}
	for _, c := range cycles {
		had[c.Pod.Key()] = true
	}
	if had["default/pair-0-0"] || had["default/pair-0-1"] || res.Bindings["default/pair-0-0"] != "" {
		t.Errorf("pair-0's members had a cycle or a node (%v): the tree of pair has not met its quorum", res.Bindings)
	}
	if res.Bindings["default/ring-0-0"] != "a1" {
		t.Errorf("ring-0-0 on %q, want a1 (ring's tree is complete)", res.Bindings["default/ring-0-0"])
	}
	fx, err := fixture.Load("composite.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	waiting := fx.NeverAttempted(recorder.Header{Profiles: []recorder.Profile{{SchedulerName: "default-scheduler"}}}, func(k string) bool { return had[k] }, nil)
	want := &recorder.GroupWait{Group: recorder.PodGroupRef{Namespace: "default", Name: "pair"}, MinCount: 2, Members: 1, Composite: true}
	if len(waiting) != 2 {
		t.Fatalf("pods never attempted %+v, want pair-0's two members", waiting)
	}
	for _, st := range waiting {
		if st.State != recorder.PodGated || !cmp.Equal(want, st.WaitingFor) {
			t.Errorf("%s: %s, waiting for %+v; want Gated waiting for %+v", st.Pod.Name, st.State, st.WaitingFor, want)
		}
	}
}

// TestNestedCompositePodGroup: a CompositePodGroup under another is
// recorded at its depth, under its parent, with the verdicts about it; the
// root's cycle holds the leaf's members.
func TestNestedCompositePodGroup(t *testing.T) {
	compositeGates(t)
	data, err := os.ReadFile(filepath.Join("testdata", "composite-nested.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var groups []*recorder.PodGroupCycle
	res, _ := runFixture(t, "composite-nested.yaml", data, Options{
		OnPodGroup: func(g *recorder.PodGroupCycle) { groups = append(groups, g) },
	})
	if res.Bindings["default/leaf-0"] != "n1" || len(groups) != 1 {
		t.Fatalf("bindings %v, %d pod-group cycles; want leaf-0 on n1 in one cycle", res.Bindings, len(groups))
	}
	type node struct {
		Kind, Name, Parent string
		Depth              int
		Verdicts           int
	}
	var got []node
	for _, h := range groups[0].Hierarchy {
		got = append(got, node{h.Kind, h.Name, h.Parent, h.Depth, len(h.Feasible)})
	}
	want := []node{
		{"CompositePodGroup", "top", "", 0, 2},
		{"CompositePodGroup", "mid", "top", 1, 2},
		{"PodGroup", "leaf", "mid", 2, 2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hierarchy (-want +got):\n%s", diff)
	}
	if g := groups[0]; g.Group.Name != "top" || len(g.Members) != 1 || g.Members[0].PodGroup != "leaf" || !g.HoldsPodGroup("default/leaf") {
		t.Errorf("cycle of %s with members %+v", g.Group.Key(), g.Members)
	}
}

// TestCompositeMemberRecordIsChosenRun: ring is tried in zone-a, then in
// zone-b, and binds in zone-a; each member ran once in each. Its cycle
// record is its run in zone-a, the one whose Reserve was submitted: the
// group's row links that cycle, which found zone-a's node alone feasible
// and bound the member there, the placements it saw assumed are zone-a's,
// and its run in zone-b is not written.
func TestCompositeMemberRecordIsChosenRun(t *testing.T) {
	compositeGates(t)
	data := embedded(t, "composite.yaml")
	var groups []*recorder.PodGroupCycle
	_, cycles := runFixture(t, "composite.yaml", data, Options{
		OnPodGroup: func(g *recorder.PodGroupCycle) { groups = append(groups, g) },
	})
	var ring *recorder.PodGroupCycle
	for _, g := range groups {
		if g.Group.Name == "ring" {
			ring = g
		}
	}
	if ring == nil || len(ring.Members) != 4 {
		t.Fatalf("no cycle of ring with its four members: %v", ring)
	}
	if ring.Outcome.Result != recorder.ResultBound {
		t.Fatalf("ring: %s, want Bound", ring.Outcome.Result)
	}
	for _, m := range ring.Members {
		var written []*recorder.Cycle
		for _, c := range cycles {
			if c.Pod.Key() == m.Pod.Key() {
				written = append(written, c)
			}
		}
		if len(written) != 1 {
			t.Errorf("%s: %d cycles written, want its chosen run alone", m.Pod.Name, len(written))
			continue
		}
		c := written[0]
		var feasible []string
		for _, n := range c.Filter.Feasible {
			feasible = append(feasible, c.NodeName(n))
		}
		if m.Cycle != c.Seq || m.Node != "a1" || c.Outcome.Node != "a1" || !slices.Equal(feasible, []string{"a1"}) {
			t.Errorf("%s: row links cycle %d on %s; cycle %d written, bound on %s, found %v feasible; want the row's cycle, on a1, finding a1 alone",
				m.Pod.Name, m.Cycle, m.Node, c.Seq, c.Outcome.Node, feasible)
		}
		for _, a := range m.Assumed {
			if a.Node != "a1" {
				t.Errorf("%s saw %s assumed on %s, outside zone-a where it ran", m.Pod.Name, a.Pod, a.Node)
			}
		}
	}
	if got := len(ring.Members[3].Assumed); got != 3 {
		t.Errorf("ring-1-1 saw %d members assumed in zone-a, want 3", got)
	}
}
