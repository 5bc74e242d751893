package e2e

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"

	"github.com/schedscope/schedscope/engine/fixture"
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

// TestPodGroupPlacementsMatchRealScheduler runs fixtures/gated/gang-zones.yaml
// (two gangs constrained to one zone each) on a real kube-apiserver and
// kube-scheduler v1.37.1 with GenericWorkload and
// TopologyAwareWorkloadScheduling on, and in schedscope's engine under the
// same gates: the pods' nodes or conditions and the PodGroups' conditions
// are the same; the candidate placements schedscope scored got the totals
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
	if diff := cmp.Diff(real, ours); diff != "" {
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
