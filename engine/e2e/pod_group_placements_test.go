package e2e

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// placementScoreLine is kube-scheduler's V(10) line giving a candidate
// placement's total score for a pod group (schedule_one_podgroup.go,
// findBestPlacement, v1.37.1).
var placementScoreLine = regexp.MustCompile(`"Calculated placement's final score for podGroup".*?podGroup="([^"]+)".*?placement="([^"]*)" score=(-?\d+)`)

// firstPlacementScores reads each pod group's first placement scoring from
// kube-scheduler's log: group → placement → total score.
func firstPlacementScores(log string) map[string]map[string]int64 {
	out := map[string]map[string]int64{}
	for _, m := range placementScoreLine.FindAllStringSubmatch(log, -1) {
		group, placement := m[1], m[2]
		score, _ := strconv.ParseInt(m[3], 10, 64)
		if out[group] == nil {
			out[group] = map[string]int64{}
		}
		if _, seen := out[group][placement]; !seen {
			out[group][placement] = score
		}
	}
	return out
}

// asTriedFirst returns ours with the members of each group that fit in no
// placement as they end when the candidate kube-scheduler tried first is
// the one whose results real shows, and which candidate that was for each
// such group. kube-scheduler tries the candidates in map order
// (TopologyPlacementGenerator), schedscope in a fixed one, and such a
// group's members carry the first tried's results: a member that failed
// there has its own message from that candidate (PlacementMember). The
// candidate must be one of those recorded, the same for every member of
// the group; ours must be its own first tried's. Bound groups and other
// pods are left as they are, to be compared exactly.
func asTriedFirst(real, ours map[string]podState, groups []*recorder.PodGroupCycle) (map[string]podState, map[string]string, error) {
	last := map[string]*recorder.PodGroupCycle{}
	for _, g := range groups {
		last[g.Group.Key()] = g // groups are in cycle order: a failed group's last retry wins
	}
	want := maps.Clone(ours)
	tried := map[string]string{}
	var errs []error
	for _, key := range sortedKeys(last) {
		g := last[key]
		p := g.Placements
		if p == nil || p.Chosen > 0 || g.Outcome.Result == recorder.ResultBound {
			continue
		}
		var alts []map[string]podState
		var names []string
		for _, c := range p.Candidates {
			if !c.Tried {
				continue
			}
			alt := map[string]podState{}
			for _, pm := range c.Members {
				k := g.Group.Namespace + "/" + pm.Pod
				st := ours[k]
				if pm.Code != "" && pm.Code != recorder.CodeSuccess {
					st.Condition = conditionString("False", v1.PodReasonUnschedulable, pm.Message)
				}
				alt[k] = st
			}
			alts, names = append(alts, alt), append(names, c.Name)
		}
		if len(alts) == 0 {
			errs = append(errs, fmt.Errorf("group %s fit no placement and recorded none tried", key))
			continue
		}
		if diff := cmp.Diff(alts[0], subset(ours, alts[0])); diff != "" {
			errs = append(errs, fmt.Errorf("group %s: members' states are not those of the first candidate tried, %s (-candidate +members):\n%s", key, names[0], diff))
		}
		k := slices.IndexFunc(alts, func(alt map[string]podState) bool { return cmp.Equal(alt, subset(real, alt)) })
		if k < 0 {
			errs = append(errs, fmt.Errorf("group %s fit no placement: kube-scheduler's members %v are those of no candidate recorded (%v)", key, subset(real, alts[0]), alts))
			continue
		}
		tried[key] = names[k]
		maps.Copy(want, alts[k])
	}
	return want, tried, errors.Join(errs...)
}

// subset is m's entries with the keys of keys.
func subset(m, keys map[string]podState) map[string]podState {
	out := map[string]podState{}
	for k := range keys {
		out[k] = m[k]
	}
	return out
}

// TestPodGroupPlacementsMatchRealScheduler runs fixtures/gated/gang-zones.yaml
// (two gangs constrained to one zone each) on a real kube-apiserver and
// kube-scheduler v1.37.1 with GenericWorkload and
// TopologyAwareWorkloadScheduling on, and in schedscope's engine under the
// same gates: the pods' nodes or conditions and the PodGroups' conditions
// are the same, a group that fits no placement as it ends after the
// candidate kube-scheduler tried first (asTriedFirst); the candidate placements schedscope scored got the totals
// kube-scheduler logs for them at V(10), and the one schedscope chose has
// the highest; a group that bound did so in the zone of its chosen
// placement.
func TestPodGroupPlacementsMatchRealScheduler(t *testing.T) {
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides{
		features.GenericWorkload:                 true,
		features.TopologyAwareWorkloadScheduling: true,
	})
	const path = "../../fixtures/gated/gang-zones.yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := fixture.DecodeManifest(path, data)
	if err != nil {
		t.Fatal(err)
	}
	const gates = "--feature-gates=GenericWorkload=true,TopologyAwareWorkloadScheduling=true"
	real, realGroups, log := playPodGroupObjectsWith(t, objs,
		[]string{"--runtime-config=scheduling.k8s.io/v1beta1=true", gates}, []string{gates},
		"schedule_one=10,schedule_one_podgroup=10")
	ours, ourGroups, groups, _ := simulatePodGroups(t, path, data)
	want, tried, err := asTriedFirst(real, ours, groups)
	if err != nil {
		t.Error(err)
	}
	for _, g := range sortedKeys(tried) {
		t.Logf("group %s fit no placement: kube-scheduler tried %s first", g, tried[g])
	}
	if len(tried) == 0 {
		t.Error("no group recorded as fitting no placement: infer fits in no zone")
	}
	if diff := cmp.Diff(real, want); diff != "" {
		t.Errorf("pods (-kube-scheduler +schedscope):\n%s", diff)
	}
	if diff := cmp.Diff(realGroups, ourGroups); diff != "" {
		t.Errorf("PodGroup conditions (-kube-scheduler +schedscope):\n%s", diff)
	}
	for _, k := range sortedKeys(real) {
		t.Logf("%s: %+v", k, real[k])
	}
	for _, k := range sortedKeys(realGroups) {
		t.Logf("%s: %s", k, realGroups[k])
	}

	theirScores := firstPlacementScores(log)
	if len(theirScores) == 0 {
		t.Fatalf("kube-scheduler logged no placement scores at V(10); its log has %d bytes", len(log))
	}
	seen := map[string]bool{}
	compared := 0
	for _, g := range groups {
		p := g.Placements
		if p == nil {
			t.Errorf("pod-group cycle %d of %s recorded no placements with TopologyAwareWorkloadScheduling on", g.Seq, g.Group.Key())
			continue
		}
		if seen[g.Group.Key()] {
			continue
		}
		seen[g.Group.Key()] = true
		t.Logf("group %s: generator %s, %d candidate(s), %d fit, chosen %d", g.Group.Key(), p.Generator, len(p.Candidates), p.Fitting(), p.Chosen)
		if !p.Scored {
			continue
		}
		ourScores := map[string]int64{}
		for _, c := range p.Candidates {
			if c.Fit() {
				ourScores[c.Name] = c.Total
			}
		}
		theirs := theirScores[g.Group.Key()]
		if diff := cmp.Diff(theirs, ourScores); diff != "" {
			t.Errorf("group %s: placement totals (-kube-scheduler's V(10) log +schedscope):\n%s", g.Group.Key(), diff)
			continue
		}
		chosen := p.ChosenCandidate()
		if chosen == nil {
			t.Errorf("group %s: candidates scored but none recorded as chosen", g.Group.Key())
			continue
		}
		var best int64 = -1 << 62
		for _, s := range theirs {
			best = max(best, s)
		}
		if theirs[chosen.Name] != best {
			t.Errorf("group %s: schedscope chose %s (total %d), kube-scheduler's best total was %d", g.Group.Key(), chosen.Name, theirs[chosen.Name], best)
		}
		// The members kube-scheduler bound are in the chosen placement.
		for _, m := range g.Members {
			node := real[m.Pod.Key()].Node
			if node != "" && !containsString(chosen.Nodes, node) {
				t.Errorf("group %s: kube-scheduler bound %s to %s, outside the placement %s schedscope chose (%s)", g.Group.Key(), m.Pod.Name, node, chosen.Name, strings.Join(chosen.Nodes, ","))
			}
		}
		t.Logf("group %s: chose %s; totals %v as kube-scheduler logged them", g.Group.Key(), chosen.Name, theirs)
		compared++
	}
	if compared == 0 {
		t.Errorf("no group's placement scoring was compared with kube-scheduler's log")
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestAsTriedFirst: a group that fit no placement takes the members'
// states of whichever recorded candidate kube-scheduler's match, one for
// the whole group; anything else is reported and left to the exact
// comparison.
func TestAsTriedFirst(t *testing.T) {
	const (
		groupMsg = "pod group is unschedulable, 0/2 placements are available"
		inA      = "0/2 nodes are available: 2 Insufficient cpu."
		inB      = "0/1 nodes are available: 1 Insufficient cpu."
	)
	cond := func(msg string) podState {
		return podState{Condition: conditionString("False", v1.PodReasonUnschedulable, msg)}
	}
	members := func(msg2 string) []recorder.PlacementMember {
		return []recorder.PlacementMember{
			{Pod: "infer-0", Node: "x", Code: recorder.CodeSuccess},
			{Pod: "infer-1", Node: "y", Code: recorder.CodeSuccess},
			{Pod: "infer-2", Code: "Unschedulable", Message: msg2},
		}
	}
	groups := []*recorder.PodGroupCycle{
		{Seq: 1, Group: recorder.PodGroupRef{Namespace: "default", Name: "train"}, Outcome: recorder.GroupOutcome{Result: recorder.ResultBound},
			Placements: &recorder.PlacementPhase{Chosen: 1, Candidates: []recorder.PlacementCandidate{{Name: "zone-a", Tried: true, Code: recorder.CodeSuccess}}}},
		{Seq: 2, Group: recorder.PodGroupRef{Namespace: "default", Name: "infer"}, Outcome: recorder.GroupOutcome{Result: recorder.ResultUnschedulable},
			Placements: &recorder.PlacementPhase{Candidates: []recorder.PlacementCandidate{
				{Name: "zone-a", Tried: true, Code: "Unschedulable", Members: members(inA)},
				{Name: "zone-b", Tried: true, Code: "Unschedulable", Members: members(inB)},
			}}},
	}
	ours := map[string]podState{
		"default/train-0": {Node: "a1"},
		"default/infer-0": cond(groupMsg), "default/infer-1": cond(groupMsg), "default/infer-2": cond(inA),
	}
	with := func(changes map[string]podState) map[string]podState {
		m := maps.Clone(ours)
		maps.Copy(m, changes)
		return m
	}
	tests := []struct {
		name      string
		real      map[string]podState
		wantTried string
		wantErr   bool
	}{
		{name: "tried as schedscope", real: ours, wantTried: "zone-a"},
		{name: "tried zone-b first", real: with(map[string]podState{"default/infer-2": cond(inB)}), wantTried: "zone-b"},
		{name: "no candidate's", real: with(map[string]podState{"default/infer-2": cond("0/3 nodes are available")}), wantErr: true},
		{name: "a bound group's node is compared as is", real: with(map[string]podState{"default/train-0": {Node: "a2"}}), wantTried: "zone-a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, tried, err := asTriedFirst(tt.real, ours, groups)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want one: %v", err, tt.wantErr)
			}
			if tt.wantErr {
				if diff := cmp.Diff(ours, want); diff != "" {
					t.Errorf("with no candidate matching, ours changed (-ours +returned):\n%s", diff)
				}
				return
			}
			if tried["default/infer"] != tt.wantTried || len(tried) != 1 {
				t.Errorf("tried %v, want infer → %s", tried, tt.wantTried)
			}
			wantPods := maps.Clone(tt.real)
			wantPods["default/train-0"] = ours["default/train-0"]
			if diff := cmp.Diff(wantPods, want); diff != "" {
				t.Errorf("pods (-want +got):\n%s", diff)
			}
		})
	}
	// ours not being its own first tried candidate's is reported.
	bad := with(map[string]podState{"default/infer-2": cond(inB)})
	if _, _, err := asTriedFirst(bad, bad, groups); err == nil || !strings.Contains(err.Error(), "not those of the first candidate tried") {
		t.Errorf("ours from zone-b while zone-a was tried first: error %v", err)
	}
}
