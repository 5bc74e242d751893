package engine

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"

	"github.com/schedscope/schedscope/recorder"
)

// TestPodGroupPlacements runs fixtures/gated/gang-zones.yaml with
// GenericWorkload and TopologyAwareWorkloadScheduling on: train (two
// members, minCount 2) fits in both zones, which are scored, and binds in
// the one chosen; infer (three members, minCount 3) fits in neither. The
// recording has each candidate with its nodes and members, the scores,
// the choice; the group's members are those of the placement submitted,
// and so are their own cycle records (which evaluated only its nodes).
// Recording changes no binding.
func TestPodGroupPlacements(t *testing.T) {
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides{
		features.GenericWorkload:                 true,
		features.TopologyAwareWorkloadScheduling: true,
	})
	data := embedded(t, "gang-zones.yaml")
	var mu sync.Mutex
	var groups []*recorder.PodGroupCycle
	res, cycles := runFixture(t, "gang-zones.yaml", data, Options{OnPodGroup: func(g *recorder.PodGroupCycle) {
		mu.Lock()
		groups = append(groups, g)
		mu.Unlock()
	}})
	bare, _ := runFixture(t, "gang-zones.yaml", data, Options{DisableRecording: true})
	if diff := cmp.Diff(bare.Bindings, res.Bindings); diff != "" {
		t.Errorf("bindings with recording differ from the bare scheduler's (-bare +recorded):\n%s", diff)
	}
	bySeq := map[int]*recorder.Cycle{}
	for _, c := range cycles {
		bySeq[c.Seq] = c
	}
	byGroup := map[string]*recorder.PodGroupCycle{}
	for _, g := range groups {
		if byGroup[g.Group.Name] == nil {
			byGroup[g.Group.Name] = g
		}
	}
	zones := map[string][]string{"zone-a": {"a1", "a2"}, "zone-b": {"b1"}}

	train := byGroup["train"]
	if train == nil || train.Placements == nil {
		t.Fatalf("train: no pod-group cycle with placements recorded (%v)", train)
	}
	p := train.Placements
	if p.Generator != "TopologyPlacementGenerator" || p.TopologyKey != "topology.kubernetes.io/zone" || p.Code != recorder.CodeSuccess {
		t.Errorf("train: generator %q, key %q, code %q", p.Generator, p.TopologyKey, p.Code)
	}
	if len(p.Candidates) != 2 || p.Fitting() != 2 || !p.Scored {
		t.Fatalf("train: %d candidates, %d fit, scored %v; want 2, 2, true", len(p.Candidates), p.Fitting(), p.Scored)
	}
	var best int64 = -1
	for _, c := range p.Candidates {
		if diff := cmp.Diff(zones[c.Name], c.Nodes); diff != "" || c.Domain != c.Name {
			t.Errorf("train: candidate %s (domain %s) nodes (-want +got):\n%s", c.Name, c.Domain, diff)
		}
		var sum int64
		var plugins []string
		for _, s := range c.Scores {
			sum += s.Score
			plugins = append(plugins, s.Plugin)
		}
		if sum != c.Total || !slices.Contains(plugins, "PodGroupPodsCount") {
			t.Errorf("train: candidate %s scores %+v sum to %d, total %d; want PodGroupPodsCount among them and the sum", c.Name, c.Scores, sum, c.Total)
		}
		for _, m := range c.Members {
			if !slices.Contains(c.Nodes, m.Node) {
				t.Errorf("train: in %s, %s went to %q, outside the placement", c.Name, m.Pod, m.Node)
			}
		}
		best = max(best, c.Total)
	}
	chosen := p.ChosenCandidate()
	if chosen == nil || chosen.Total != best {
		t.Fatalf("train: chosen %+v, want a candidate with the best total %d", chosen, best)
	}
	for i, m := range train.Members {
		if got := res.Bindings[m.Pod.Key()]; got != m.Node || got != chosen.Members[i].Node {
			t.Errorf("train: %s bound to %q; the group records %q, the chosen placement %q", m.Pod.Name, got, m.Node, chosen.Members[i].Node)
		}
		c := bySeq[m.Cycle]
		if c == nil || c.Outcome.Node != m.Node {
			t.Errorf("train: %s's cycle record %d is not the chosen placement's run (%+v)", m.Pod.Name, m.Cycle, c)
			continue
		}
		for _, n := range c.Filter.Feasible {
			if !slices.Contains(chosen.Nodes, c.NodeName(n)) {
				t.Errorf("train: %s's cycle %d found %s feasible, outside the chosen placement %s", m.Pod.Name, c.Seq, c.NodeName(n), chosen.Name)
			}
		}
	}
	if got := train.Feasible[len(train.Feasible)-1].Code; got != recorder.CodeSuccess {
		t.Errorf("train: the last PlacementFeasible verdict is %s; want the chosen placement's Success", got)
	}

	infer := byGroup["infer"]
	if infer == nil || infer.Placements == nil {
		t.Fatalf("infer: no pod-group cycle with placements recorded")
	}
	p = infer.Placements
	if len(p.Candidates) != 2 || p.Fitting() != 0 || p.Scored || p.Chosen != 0 {
		t.Fatalf("infer: %d candidates, %d fit, scored %v, chosen %d; want 2, 0, false, 0", len(p.Candidates), p.Fitting(), p.Scored, p.Chosen)
	}
	for _, c := range p.Candidates {
		if !c.Tried || c.Code != fwk.Unschedulable.String() || c.Placed() != 2 {
			t.Errorf("infer: candidate %s tried %v, code %s, %d placed; want tried, Unschedulable, 2", c.Name, c.Tried, c.Code, c.Placed())
		}
	}
	first := p.Candidates[0]
	for i, m := range infer.Members {
		if m.Node != first.Members[i].Node {
			t.Errorf("infer: %s recorded on %q, the first placement tried (%s) had it on %q", m.Pod.Name, m.Node, first.Name, first.Members[i].Node)
		}
		if res.Bindings[m.Pod.Key()] != "" {
			t.Errorf("infer: %s was bound", m.Pod.Name)
		}
	}
	if infer.Condition == nil || infer.Condition.Status != "False" {
		t.Errorf("infer: condition %+v, want False", infer.Condition)
	}
}

// The framework's PlacementGenerate and PlacementScore slices (the
// private frameworkImpl fields named in upstream.go) hold the default
// plugins, wrapped, when TopologyAwareWorkloadScheduling is on.
func TestPlacementPluginsWrapped(t *testing.T) {
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides{
		features.GenericWorkload:                 true,
		features.TopologyAwareWorkloadScheduling: true,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e, err := New(ctx, loadEmbedded(t, "gang-zones.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, fw := range e.sched.Profiles {
		v, err := frameworkStruct(unwrap(fw))
		if err != nil {
			t.Fatal(err)
		}
		gen, err := pluginSlice[fwk.PlacementGeneratePlugin](v, "placementGeneratePlugins")
		if err != nil {
			t.Fatal(err)
		}
		score, err := pluginSlice[fwk.PlacementScorePlugin](v, "placementScorePlugins")
		if err != nil {
			t.Fatal(err)
		}
		var genNames, scoreNames []string
		for _, p := range *gen {
			if _, ok := p.(*placementGenerateWrapper); !ok {
				t.Errorf("profile %s: PlacementGenerate plugin %s is not wrapped", name, p.Name())
			}
			genNames = append(genNames, p.Name())
		}
		for _, p := range *score {
			if _, ok := p.(*placementScoreWrapper); !ok {
				t.Errorf("profile %s: PlacementScore plugin %s is not wrapped", name, p.Name())
			}
			scoreNames = append(scoreNames, p.Name())
		}
		if !slices.Contains(genNames, "TopologyPlacementGenerator") || !slices.Contains(scoreNames, "PodGroupPodsCount") {
			t.Errorf("profile %s: PlacementGenerate %v, PlacementScore %v; want TopologyPlacementGenerator and PodGroupPodsCount", name, genNames, scoreNames)
		}
	}
}

// A submitted run carries what the discarded runs started before it
// recorded of nodes it records nothing of, and only that; afterwards the
// nodes whose last entry was a discarded run's are recorded again.
func TestUnwrittenNodeUseCarried(t *testing.T) {
	run := func(seq, set int, use ...recorder.NodeUse) *cycleTrace {
		return &cycleTrace{c: &recorder.Cycle{Seq: seq, NodeSetID: set, NodeUse: use}}
	}
	nu := func(node int, gen int64) recorder.NodeUse { return recorder.NodeUse{Node: node, Generation: gen} }
	w := run(5, 1, nu(0, 7))
	discarded := []*cycleTrace{
		run(3, 1, nu(0, 3), nu(1, 4)), // before w: node 1 carried, node 0 w has
		run(2, 1, nu(1, 2)),           // before w, older entry of node 1
		run(6, 1, nu(2, 9)),           // after w: not what w saw
		run(4, 2, nu(3, 5)),           // another node set
	}
	carryUnwritten(w, discarded)
	if diff := cmp.Diff([]recorder.NodeUse{nu(0, 7), nu(1, 4)}, w.c.NodeUse); diff != "" {
		t.Errorf("w's node use (-want +got):\n%s", diff)
	}

	r := &traceState{lastUse: []*recorder.NodeUse{{Generation: 7}, {Generation: 4}, {Generation: 9}, nil}, nodeGens: []int64{1, 1, 1, 1}}
	r.forgetUnwritten(discarded)
	if diff := cmp.Diff([]int64{1, -1, -1, 1}, r.nodeGens); diff != "" {
		t.Errorf("node generations after (-want +got):\n%s", diff)
	}
	if r.lastUse[0] == nil || r.lastUse[1] != nil || r.lastUse[2] != nil {
		t.Errorf("last use kept %v, want node 0's only", r.lastUse)
	}
}
