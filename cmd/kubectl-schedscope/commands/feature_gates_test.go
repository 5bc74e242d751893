package commands

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/engine/featuregates"
)

// TestFeatureGatesRefusedInOneLine: --feature-gates is checked as
// kube-scheduler checks it, before anything runs: an unknown gate, one
// locked to its default, one without a gate it needs, each in one line
// naming the flag and the gate.
func TestFeatureGatesRefusedInOneLine(t *testing.T) {
	tests := []struct{ value, want string }{
		{"GenericWorkloads=true", `"--feature-gates" flag: unrecognized feature gate: GenericWorkloads`},
		{"DynamicResourceAllocation=false", `"--feature-gates" flag: cannot set feature gate DynamicResourceAllocation to false, feature is locked to true`},
		{"DRAWorkloadResourceClaims=true", `depends on features that are disabled: [GenericWorkload]`},
	}
	for _, cmd := range []string{"explain", "sim", "record", "whatif", "suggest", "diff", "capacity", "live"} {
		for _, tt := range tests {
			_, errOut, code := run(t, cmd, "--feature-gates="+tt.value)
			if code == 0 || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("%s --feature-gates=%s: exit %d, stderr %q; want one line with %q", cmd, tt.value, code, errOut, tt.want)
			}
		}
	}
	if n := featuregates.NonDefault(); len(n) != 0 {
		t.Errorf("a refused --feature-gates changed the process's gates: %v", n)
	}
}

// TestFeatureGatesReachTheRunAndItsRecording: the gates a run had are in
// explain's JSON and the recording's header, replay says them, what-if's
// fork runs under them, and the next command without the flag runs under
// the defaults.
func TestFeatureGatesReachTheRunAndItsRecording(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	want := map[string]bool{"GenericWorkload": true, "OpportunisticBatching": false}
	flag := "--feature-gates=GenericWorkload=true,OpportunisticBatching=false"

	out, errOut, code := run(t, "explain", flag, "-o", "json")
	if code != 0 {
		t.Fatalf("explain: exit %d: %s", code, errOut)
	}
	doc := checkExport(t, out, 4)
	if diff := cmp.Diff(want, doc.Header.FeatureGates); diff != "" {
		t.Errorf("explain -o json header.featureGates (-want +got):\n%s", diff)
	}

	rec := filepath.Join(t.TempDir(), "gates.rec")
	if _, errOut, code := run(t, "record", flag, "-o", rec); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	out, errOut, code = run(t, "replay", rec, "--no-tui")
	if code != 0 || !strings.Contains(out, "kube-scheduler v1.37.1 "+flag) {
		t.Errorf("replay --no-tui: exit %d (%s), its first line %q does not name %s", code, errOut, strings.SplitN(out, "\n", 2)[0], flag)
	}
	if n := featuregates.NonDefault(); len(n) != 0 {
		t.Errorf("replay, which takes no --feature-gates, left the process's gates %v", n)
	}

	out, errOut, code = run(t, "whatif", flag, "--pod", "huge", "--patch-node", `node-a={"metadata":{"labels":{"x":"y"}}}`, "-o", "json")
	if code != 0 {
		t.Fatalf("whatif under the gates: exit %d: %s", code, errOut)
	}
	if diff := cmp.Diff(want, featuregates.NonDefault()); diff != "" {
		t.Errorf("the process's gates during whatif (-want +got):\n%s", diff)
	}
	if _, errOut, code := run(t, "explain", "-o", "json"); code != 0 {
		t.Fatalf("explain without the flag: exit %d: %s", code, errOut)
	}
	if n := featuregates.NonDefault(); len(n) != 0 {
		t.Errorf("a command without --feature-gates ran under %v", n)
	}
}
