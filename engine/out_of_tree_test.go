package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/engine/internal/zonebudget"
	"github.com/schedscope/schedscope/recorder"
)

var useZoneBudget = sync.OnceValue(func() error {
	return Use(WithPlugin(zonebudget.Name, zonebudget.New), WithPluginArgs(zonebudget.AddToScheme))
})

// zoneBudgetScenario loads the example plugin's fixture and configuration,
// with the plugin added to the process.
func zoneBudgetScenario(t *testing.T) (*fixture.Fixture, Options) {
	t.Helper()
	if err := useZoneBudget(); err != nil {
		t.Fatalf("Use: %v", err)
	}
	dir := filepath.Join("internal", "zonebudget", "testdata")
	cfg, err := LoadConfigFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatalf("LoadConfigFile: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "fixture.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load("fixture.yaml", data)
	if err != nil {
		t.Fatalf("fixture.Load: %v", err)
	}
	return fx, Options{Config: cfg}
}

// A plugin's args are decoded, defaulted and converted as kube-scheduler's
// scheme does them when the plugin registers its types there.
func TestOutOfTreePluginArgsDecodeAndDefault(t *testing.T) {
	_, opts := zoneBudgetScenario(t)
	var got *zonebudget.Args
	for _, pc := range opts.Config.Profiles[0].PluginConfig {
		if pc.Name == zonebudget.Name {
			a, ok := pc.Args.(*zonebudget.Args)
			if !ok {
				t.Fatalf("ZoneBudget's args are a %T, want *zonebudget.Args", pc.Args)
			}
			got = a
		}
	}
	want := &zonebudget.Args{ZoneLabel: zonebudget.DefaultZoneLabel, OverBudget: []string{"zone-b"},
		ScoreLabel: zonebudget.DefaultScoreLabel, WaitAnnotation: zonebudget.DefaultWaitAnnotation, Wait: 300 * time.Millisecond}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ZoneBudget's args (-want +got):\n%s", diff)
	}
}

// An out-of-tree plugin is recorded at each extension point it implements,
// as the in-tree ones are: its Filter column, its score row, its Permit.
func TestOutOfTreePluginIsRecorded(t *testing.T) {
	fx, opts := zoneBudgetScenario(t)
	res, cycles, _ := runEngineWith(t, fx, opts, false)
	wantBound := map[string]string{"default/web-1": "a2", "default/web-2": "c1", "default/web-3": "a1", "default/web-4": ""}
	if diff := cmp.Diff(wantBound, res.Bindings); diff != "" {
		t.Errorf("bindings (-want +got):\n%s", diff)
	}
	first := cycles[0]
	if first.Pod.Name != "web-1" || first.Filter == nil || first.Score == nil {
		t.Fatalf("first cycle: %s, filter %v, score %v", first.Pod.Name, first.Filter != nil, first.Score != nil)
	}
	col := slices.Index(first.Filter.Plugins, zonebudget.Name)
	if col < 0 {
		t.Fatalf("Filter plugins %v have no ZoneBudget column", first.Filter.Plugins)
	}
	var rejected []string
	for _, ns := range first.Filter.Rejected {
		if ns.Plugin == col {
			rejected = append(rejected, first.NodeName(ns.Node)+": "+ns.Code+": "+strings.Join(ns.Reasons, "; "))
		}
	}
	if diff := cmp.Diff([]string{"b1: Unschedulable: zone zone-b is over budget"}, rejected); diff != "" {
		t.Errorf("nodes ZoneBudget rejected (-want +got):\n%s", diff)
	}
	scores := map[string]int64{}
	weight := int64(0)
	for _, p := range first.Score.Plugins {
		if p.Name == zonebudget.Name {
			weight = p.Weight
			for i, n := range first.Score.Nodes {
				scores[first.NodeName(n)] = p.Raw[i]
			}
		}
	}
	if diff := cmp.Diff(map[string]int64{"a1": 10, "a2": 80, "c1": 50}, scores); diff != "" || weight != 5 {
		t.Errorf("ZoneBudget's score row, weight %d (want 5) (-want +got):\n%s", weight, diff)
	}
	permit := func(c *recorder.Cycle) *recorder.PluginStatus {
		for i := range c.Permit {
			if c.Permit[i].Plugin == zonebudget.Name {
				return &c.Permit[i]
			}
		}
		return nil
	}
	if p := permit(first); p == nil || p.Code != "Wait" || p.Timeout <= 300*time.Millisecond {
		t.Errorf("web-1's Permit: %+v, want ZoneBudget Wait with a timeout over 300ms", p)
	}
	if p := permit(cycles[1]); p == nil || p.Code != "Success" {
		t.Errorf("%s's Permit: %+v, want ZoneBudget Success", cycles[1].Pod.Name, p)
	}
	last := cycles[len(cycles)-1]
	if last.Pod.Name != "web-4" || last.Outcome.Result == recorder.ResultBound || !strings.Contains(last.Outcome.Message, "zone zone-b is over budget") {
		t.Errorf("last cycle: %s %s %q, want web-4 pending with ZoneBudget's reason", last.Pod.Name, last.Outcome.Result, last.Outcome.Message)
	}
}

// A configuration that enables a plugin the binary does not have is one
// line naming the plugin, the profile and where to read how to build one.
func TestConfigWithAMissingPluginIsRefused(t *testing.T) {
	const cfg = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: batch
  plugins:
    multiPoint:
      enabled: [{name: NoSuchPlugin}]
`
	_, err := LoadConfig("c.yaml", []byte(cfg))
	if err == nil {
		t.Fatal("LoadConfig accepted a configuration with NoSuchPlugin")
	}
	msg := err.Error()
	for _, want := range []string{"c.yaml: profile batch enables plugin NoSuchPlugin, which this schedscope does not have", `see README, "Your plugins"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("error is more than one line: %q", msg)
	}
}

func TestUseRefusesClashingPlugins(t *testing.T) {
	if err := useZoneBudget(); err != nil {
		t.Fatalf("Use: %v", err)
	}
	tests := []struct {
		name string
		ext  Extension
		want string
	}{
		{"in-tree name", WithPlugin("NodeAffinity", zonebudget.New), "plugin NodeAffinity: kube-scheduler v1.37.1 has a plugin of that name"},
		{"added twice", WithPlugin(zonebudget.Name, zonebudget.New), "plugin ZoneBudget: added twice"},
		{"no factory", WithPlugin("Other", nil), "a plugin needs a name and a factory (engine.WithPlugin)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Use(tt.ext)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Use: %v, want %q", err, tt.want)
			}
		})
	}
}
