package e2e

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// The flags of a control plane with composite pod groups: kube-apiserver
// serves CompositePodGroup in scheduling.k8s.io/v1alpha3 (an Alpha API,
// asked for beside v1beta1) and both it and kube-scheduler take the gate
// and the gates it depends on.
var (
	compositeGates          = "--feature-gates=GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true"
	compositeAPIServerFlags = []string{"--runtime-config=scheduling.k8s.io/v1beta1=true,scheduling.k8s.io/v1alpha3=true", compositeGates}
	compositeSchedulerFlags = []string{compositeGates}
)

// TestCompositePodGroupsMatchRealScheduler applies the embedded
// fixtures/gated/composite.yaml to a real kube-apiserver serving
// CompositePodGroup, with the real kube-scheduler v1.37.1 running with
// GenericWorkload, TopologyAwareWorkloadScheduling and CompositePodGroup
// on, and checks that schedscope's engine, under the same gates, ends the
// same: each pod's node or PodScheduled condition, each leaf PodGroup's
// PodGroupInitiallyScheduled condition, and no condition on either
// CompositePodGroup (v1.37.1 writes none; the recording has none).
func TestCompositePodGroupsMatchRealScheduler(t *testing.T) {
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides{
		features.GenericWorkload: true, features.TopologyAwareWorkloadScheduling: true, features.CompositePodGroup: true,
	})
	const path = "../../fixtures/gated/composite.yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Without pair-1's members, pair's tree has not met its quorum:
	// GangScheduling's PreEnqueue holds pair-0's members (no cycle, no
	// condition).
	var kept []string
	for _, doc := range strings.Split(string(data), "\n---\n") {
		if !strings.Contains(doc, "name: pair-1-") {
			kept = append(kept, doc)
		}
	}
	tests := []struct {
		name          string
		data          []byte
		wantOverruled bool
	}{
		{name: "composite", data: data, wantOverruled: true},
		{name: "quorum not met", data: []byte(strings.Join(kept, "\n---\n"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			compareComposite(t, path, tt.data, tt.wantOverruled)
		})
	}
}

// compareComposite runs one manifest on the real control plane and in
// schedscope's engine and compares them.
func compareComposite(t *testing.T, path string, data []byte, wantOverruled bool) {
	objs, err := fixture.DecodeManifest(path, data)
	if err != nil {
		t.Fatal(err)
	}
	real, realGroups, _, cpgConditions := playCompositeObjects(t, objs)
	ours, ourGroups, groups, _ := simulatePodGroups(t, path, data)
	// pair-0's members tie on b1 and b2 and are never bound; every other
	// pod's node is unique, so the comparison is exact.
	if diff := cmp.Diff(real, ours); diff != "" {
		t.Errorf("pods (-kube-scheduler +schedscope):\n%s", diff)
	}
	if diff := cmp.Diff(realGroups, ourGroups); diff != "" {
		t.Errorf("PodGroup conditions (-kube-scheduler +schedscope):\n%s", diff)
	}
	for name, n := range cpgConditions {
		if n != 0 {
			t.Errorf("kube-scheduler wrote %d condition(s) on CompositePodGroup %s; schedscope records none", n, name)
		}
	}
	composite := 0
	for _, g := range groups {
		if !g.Composite() {
			t.Errorf("pod-group cycle %d of %s has no hierarchy: every group here is under a CompositePodGroup", g.Seq, g.Group.Key())
			continue
		}
		composite++
		if g.Condition != nil {
			t.Errorf("pod-group cycle %d of %s records a condition on the CompositePodGroup", g.Seq, g.Group.Key())
		}
	}
	if composite == 0 {
		t.Error("no composite pod-group cycle recorded")
	}
	for _, k := range sortedKeys(real) {
		t.Logf("%s: %+v", k, real[k])
	}
	for _, k := range sortedKeys(realGroups) {
		t.Logf("%s: %s", k, realGroups[k])
	}
	t.Logf("%d pods and %d pod groups compared; %d composite pod-group cycles recorded", len(real), len(realGroups), composite)
	overruled := slices.ContainsFunc(groups, func(g *recorder.PodGroupCycle) bool {
		h := g.HierarchyGroupOf(recorder.KindPodGroupKind, "pair-0")
		return h != nil && g.OverruledByParent(*h)
	})
	if overruled != wantOverruled {
		t.Errorf("pair-0 recorded as overruled by its parent pair: %v, want %v", overruled, wantOverruled)
	}
}

// playCompositeObjects is playPodGroupObjectsWith on a control plane
// serving CompositePodGroup, with the number of conditions each
// CompositePodGroup holds at the end.
func playCompositeObjects(t *testing.T, objs []runtime.Object) (map[string]podState, map[string]groupState, string, map[string]int) {
	t.Helper()
	var cpgs map[string]int
	pods, groups, log := playPodGroupObjectsWith(t, objs, compositeAPIServerFlags, compositeSchedulerFlags, "schedule_one=10", func(ctx context.Context, cp *controlPlane) {
		list, err := cp.client.SchedulingV1alpha3().CompositePodGroups("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cpgs = map[string]int{}
		for _, c := range list.Items {
			cpgs[c.Name] = len(c.Status.Conditions)
		}
	})
	if len(cpgs) == 0 {
		t.Fatal("kube-apiserver holds no CompositePodGroup")
	}
	return pods, groups, log, cpgs
}
