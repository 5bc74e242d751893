package scenario_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/recorder"
)

// packOneZone is a configuration change that breaks the spread: no
// topology spread, pods packed where the most is allocated.
const packOneZone = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      disabled: [{name: PodTopologySpread}]
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
`

// The platform team's check tells a configuration that keeps the spread
// from one that breaks it: it can fail.
func TestSpreadAndFitsTellAChangeThatBreaksTheSpread(t *testing.T) {
	ctx := context.Background()
	sc, err := scenario.Embedded("workloads")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		config    string
		wantZones int
	}{
		{"default configuration", "", 3},
		{"mostAllocated", mostAllocated, 3},
		{"no topology spread, packed", packOneZone, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cfg []byte
			if tt.config != "" {
				cfg = []byte(tt.config)
			}
			res, err := sc.Run(ctx, scenario.Options{Config: cfg})
			if err != nil {
				t.Fatal(err)
			}
			zones := res.Spread("deploy/web", "topology.kubernetes.io/zone")
			placed := 0
			for _, n := range zones {
				placed += n
			}
			if len(zones) != tt.wantZones || placed != 6 {
				t.Errorf("web's 6 replicas: %d placed over zones %v, want %d zones", placed, zones, tt.wantZones)
			}
			if !res.Fits("job/report") {
				w, _ := res.Workload("job/report")
				t.Errorf("report does not fit: %+v", w)
			}
		})
	}
}

// What the run has no answer for is said, not guessed.
func TestUnknownNamesAreSaid(t *testing.T) {
	sc, err := scenario.Embedded("workloads")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sc.Run(context.Background(), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fits("job/nope") || res.Spread("deploy/nope", "topology.kubernetes.io/zone") != nil || res.Node("nope") != "" {
		t.Errorf("a workload or pod the run does not have: Fits %v, Spread %v, Node %q", res.Fits("job/nope"), res.Spread("deploy/nope", "x"), res.Node("nope"))
	}
	if _, err := res.Pod("nope"); err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "no pod \"nope\"") {
		t.Errorf("Pod(nope): %v, want one line naming it", err)
	}
	// A replica by handle is its pod.
	if st, err := res.Pod("deploy/web#1"); err != nil || st.Pod.Owner == nil || st.Pod.Owner.Name != "web" || res.Node("deploy/web#1") == "" {
		t.Errorf("deploy/web#1: %+v, %v", st, err)
	}
	if _, err := scenario.Embedded("nope"); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("Embedded(nope): %v, want one line", err)
	}
	for _, tt := range []struct{ name, data, want string }{
		{"not a fixture", "apiVersion: v1\nkind: Pod\nmetadata: {name: [\n", "bad.yaml"},
	} {
		if _, err := scenario.Load("bad.yaml", []byte(tt.data)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Load(%s): %v, want an error naming %s", tt.name, err, tt.want)
		}
	}
	if _, err := sc.Run(context.Background(), scenario.Options{Config: []byte("kind: Pod\n")}); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("a configuration that is not one: %v, want one line", err)
	}
}

// Feature gates reach the run (its header) and a fixture loaded before
// them is loaded again under them; nil leaves the process's gates.
func TestFeatureGatesReachTheRun(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "default.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cluster.yaml"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.LoadFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"OpportunisticBatching": false}
	res, err := sc.Run(context.Background(), scenario.Options{FeatureGates: want})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, res.Header.FeatureGates); diff != "" {
		t.Errorf("the run's gates (-want +got):\n%s", diff)
	}
	res, err = sc.Run(context.Background(), scenario.Options{FeatureGates: map[string]bool{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Header.FeatureGates) != 0 || len(featuregates.NonDefault()) != 0 {
		t.Errorf("an empty map is the defaults: the run had %v, the process has %v", res.Header.FeatureGates, featuregates.NonDefault())
	}
	if err := featuregates.Set(want); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Run(context.Background(), scenario.Options{FeatureGates: map[string]bool{"NoSuchGate": true}}); err == nil || !strings.Contains(err.Error(), "NoSuchGate") {
		t.Errorf("an unknown gate: %v, want upstream's refusal naming it", err)
	}
	if diff := cmp.Diff(want, featuregates.NonDefault()); diff != "" {
		t.Errorf("a refused gate changed the process's gates (-want +got):\n%s", diff)
	}
	if n := len(res.Cycles); n == 0 || res.Cycles[0].Outcome.Result == "" {
		t.Errorf("the run recorded %d cycles", n)
	}
	placed := 0
	for _, p := range res.Pods {
		if recorder.Placed(p.State) {
			placed++
		}
	}
	if placed == 0 {
		t.Errorf("no pod placed: %+v", res.Pods)
	}
}
