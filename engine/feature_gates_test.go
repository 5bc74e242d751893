package engine

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

// schedulerBetaGates are the Beta gates kube-scheduler v1.37.1's code reads
// (pkg/scheduler), with their defaults: a cluster may flip any of them.
var schedulerBetaGates = map[featuregate.Feature]bool{
	features.DRAFractionalCapacityRange: false,
	features.DRAWorkloadResourceClaims:  false,
	features.GenericWorkload:            false,
	features.SchedulerAsyncAPICalls:     false,

	features.DRAConsumableCapacity:                   true,
	features.DRADeviceBindingConditions:              true,
	features.DRAPartitionableDevices:                 true,
	features.DRASchedulerFilterTimeout:               true,
	features.InPlacePodLevelResourcesVerticalScaling: true,
	features.MatchLabelKeysInPodTopologySpread:       true,
	features.NominatedNodeNameForExpectation:         true,
	features.OpportunisticBatching:                   true,
	features.PodLevelResources:                       true,
	features.SchedulerAsyncPreemption:                true,
	features.SchedulerPopFromBackoffQ:                true,
	features.StorageCapacityScoring:                  true,
	features.VolumeLimitScaling:                      true,
}

// flipped is gate away from its default, with what that needs: the gates
// it depends on on, the gates on that depend on it off.
func flipped(t *testing.T, gate featuregate.Feature) featuregatetesting.FeatureOverrides {
	t.Helper()
	deps := utilfeature.DefaultMutableFeatureGate.Dependencies()
	out := featuregatetesting.FeatureOverrides{}
	var set func(featuregate.Feature, bool)
	set = func(g featuregate.Feature, on bool) {
		if v, done := out[g]; done && v == on {
			return
		}
		out[g] = on
		if on {
			for _, d := range deps[g] {
				set(d, true)
			}
			return
		}
		for dependent, ds := range deps {
			if slices.Contains(ds, g) && utilfeature.DefaultFeatureGate.Enabled(dependent) {
				set(dependent, false)
			}
		}
	}
	set(gate, !schedulerBetaGates[gate])
	return out
}

// TestSchedulerBetaGatesAreBeta: the list above is what this build has,
// so that a Kubernetes bump that graduates one says so here.
func TestSchedulerBetaGatesAreBeta(t *testing.T) {
	all := utilfeature.DefaultMutableFeatureGate.GetAll()
	for g, def := range schedulerBetaGates {
		spec, ok := all[g]
		if !ok || spec.PreRelease != featuregate.Beta || spec.Default != def || spec.LockToDefault {
			t.Errorf("%s: %+v (known %v), want an unlocked Beta gate defaulting to %v", g, spec, ok, def)
		}
	}
}

// gateFixtures are the embedded fixtures and their bytes.
func gateFixtures(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for _, n := range fixtures.Names() {
		out[n] = embedded(t, n)
	}
	return out
}

// TestEveryFixtureUnderEachBetaGate runs every embedded fixture with each
// Beta gate kube-scheduler reads flipped from its default (and what it
// depends on): each run ends without error, its header names the gates,
// and it schedules.
func TestEveryFixtureUnderEachBetaGate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every fixture once per gate")
	}
	srcs := gateFixtures(t)
	names := slices.Sorted(func(yield func(featuregate.Feature) bool) {
		for g := range schedulerBetaGates {
			if !yield(g) {
				return
			}
		}
	})
	for _, gate := range names {
		t.Run(string(gate), func(t *testing.T) {
			flips := flipped(t, gate)
			featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, flips)
			want := featuregates.NonDefault()
			if len(want) == 0 {
				t.Fatalf("flipping %v left every gate default", flips)
			}
			for name, data := range srcs {
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					fx, err := fixture.Load(name, data)
					if err != nil {
						t.Fatalf("fixture.Load: %v", err)
					}
					_, cycles, e := runEngineWith(t, fx, Options{FeatureGates: want}, false)
					if len(cycles) == 0 {
						t.Fatal("no cycle")
					}
					if diff := cmp.Diff(want, e.Header().FeatureGates); diff != "" {
						t.Errorf("header's gates (-want +got):\n%s", diff)
					}
				})
			}
		})
	}
}

// TestGenericWorkloadChangesNothingOutsideGroups: with GenericWorkload on,
// every embedded fixture (none holds a pod group) runs the same cycles and
// places every pod where it did with the gate off.
func TestGenericWorkloadChangesNothingOutsideGroups(t *testing.T) {
	srcs := gateFixtures(t)
	// Its search stops early (percentageOfNodesToScore): which nodes the
	// parallel filter finds first differs from run to run, gate or not.
	delete(srcs, "large-cluster.yaml")
	outcomes := func(t *testing.T) map[string]nsOutcome {
		var mu sync.Mutex
		out := map[string]nsOutcome{}
		t.Run("fixtures", func(t *testing.T) {
			for name, data := range srcs {
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					objs, err := fixture.DecodeManifest(name, data)
					if err != nil {
						t.Fatal(err)
					}
					o := namespaceOutcome(t, name, objs, func(s string) string { return s })
					mu.Lock()
					out[name] = o
					mu.Unlock()
				})
			}
		})
		return out
	}
	off := outcomes(t)
	var on map[string]nsOutcome
	t.Run("on", func(t *testing.T) {
		featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
		on = outcomes(t)
	})
	if len(off) != len(srcs) || len(on) != len(srcs) {
		t.Fatalf("%d fixtures, %d runs off and %d on", len(srcs), len(off), len(on))
	}
	for name := range srcs {
		if len(off[name].Cycles) == 0 {
			t.Errorf("%s: no cycle to compare", name)
		}
		if diff := cmp.Diff(off[name], on[name]); diff != "" {
			t.Errorf("%s with GenericWorkload on (-off +on):\n%s", name, diff)
		}
	}
}

// TestForkRunsUnderItsRunsGates: a what-if fork re-runs a cycle under the
// gates its run had (they are in its header), and is refused in a process
// whose gates changed since: it would not be the scheduler that ran.
func TestForkRunsUnderItsRunsGates(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	gates := featuregates.NonDefault()
	f, err := ForkAt(ctx, loadEmbedded(t, "default.yaml"), Options{FeatureGates: gates}, ForkTarget{Pod: "huge"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]bool{"GenericWorkload": true}, f.Header.FeatureGates); diff != "" {
		t.Fatalf("the fork's header gates (-want +got):\n%s", diff)
	}
	got, err := f.Run(ctx)
	if err != nil {
		t.Fatalf("the fork under its run's gates: %v", err)
	}
	if d := recorder.DiffCycles(f.Recorded, got.Cycle); !d.Same {
		t.Errorf("the unchanged re-run differs: %s", describeDiff(d))
	}
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, false)
	if _, err := f.Run(ctx); err == nil || !strings.Contains(err.Error(), "GenericWorkload=true") || strings.Contains(err.Error(), "\n") {
		t.Errorf("the fork in a process whose gates changed: %v, want refused in one line naming the run's gates", err)
	}
	if _, err := New(ctx, loadEmbedded(t, "default.yaml"), Options{FeatureGates: gates}); err == nil {
		t.Error("an engine set up under GenericWorkload=true started in a process with it off")
	}
}
