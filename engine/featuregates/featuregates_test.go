package featuregates

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"
)

// TestParse: --feature-gates is read and refused as kube-scheduler's is,
// in one line naming the gate, and parsing leaves the process as it was.
func TestParse(t *testing.T) {
	tests := []struct {
		name, value string
		want        map[string]bool
		wantErr     string
	}{
		{name: "empty", value: "", want: map[string]bool{}},
		{name: "two", value: "GenericWorkload=true, OpportunisticBatching=false", want: map[string]bool{"GenericWorkload": true, "OpportunisticBatching": false}},
		{name: "unknown", value: "GenericWorkloads=true", wantErr: "unrecognized feature gate: GenericWorkloads"},
		{name: "locked", value: "DynamicResourceAllocation=false", wantErr: "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true"},
		{name: "no value", value: "GenericWorkload", wantErr: "missing bool value for GenericWorkload"},
		{name: "not a bool", value: "GenericWorkload=yes", wantErr: "invalid value of GenericWorkload=yes"},
		{name: "a dependency off", value: "DRAWorkloadResourceClaims=true", wantErr: "DRAWorkloadResourceClaims is enabled, but depends on features that are disabled: [GenericWorkload]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.value)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("Parse(%q) = %v, %v; want one line starting %q", tt.value, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if n := NonDefault(); len(n) != 0 {
				t.Errorf("Parse changed the process's gates: %v", n)
			}
		})
	}
}

// TestSetAndNonDefault: Set reaches the process-wide gate upstream code
// reads; NonDefault names what differs from the defaults, and a refused Set
// changes nothing (upstream keeps a refused map in its raw flags).
func TestSetAndNonDefault(t *testing.T) {
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides{
		features.GenericWorkload: false, features.OpportunisticBatching: true,
	})
	if err := Set(map[string]bool{"Nonsense": true}); err == nil {
		t.Fatal("Set took an unknown gate")
	}
	if err := Set(map[string]bool{"GenericWorkload": true, "OpportunisticBatching": false}); err != nil {
		t.Fatalf("Set after a refused Set: %v", err)
	}
	if !utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload) || utilfeature.DefaultFeatureGate.Enabled(features.OpportunisticBatching) {
		t.Fatal("Set did not reach DefaultFeatureGate")
	}
	want := map[string]bool{"GenericWorkload": true, "OpportunisticBatching": false}
	if diff := cmp.Diff(want, NonDefault()); diff != "" {
		t.Errorf("NonDefault (-want +got):\n%s", diff)
	}
	if got := Format(want); got != "GenericWorkload=true,OpportunisticBatching=false" {
		t.Errorf("Format = %q", got)
	}
	if err := Check(want); err != nil {
		t.Errorf("Check(the process's gates): %v", err)
	}
	if err := Check(nil); err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "GenericWorkload=true") {
		t.Errorf("Check(defaults) in a process with gates set = %v, want one line naming them", err)
	}
}

// TestReset: Reset leaves no gate other than its default, AllBeta's
// included.
func TestReset(t *testing.T) {
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides{
		features.GenericWorkload: false, features.OpportunisticBatching: true, features.SchedulerAsyncAPICalls: false,
	})
	for _, m := range []map[string]bool{{"GenericWorkload": true, "OpportunisticBatching": false}, {"AllBeta": true}} {
		if err := Set(m); err != nil {
			t.Fatal(err)
		}
		if len(NonDefault()) == 0 {
			t.Fatalf("Set(%v) left every gate default", m)
		}
		if err := Reset(); err != nil {
			t.Fatal(err)
		}
		if n := NonDefault(); len(n) != 0 {
			t.Errorf("after Set(%v) and Reset, gates %v are not default", m, n)
		}
	}
}
