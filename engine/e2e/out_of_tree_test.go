package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/klog/v2"
	schedapp "k8s.io/kubernetes/cmd/kube-scheduler/app"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	configv1 "k8s.io/kubernetes/pkg/scheduler/apis/config/v1"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/engine/internal/zonebudget"
)

// buildWithZoneBudget builds both schedulers of this process with the
// example plugin, once (both registrations are process-wide): kube-scheduler
// as its main.go would (app.WithPlugin, passed to app.Setup, and the args'
// types in the two schemes its configuration goes through: the decoder's,
// options/configfile.go, and configv1's plugin-args scheme, which defaults and
// converts them), and schedscope's engine through engine.Use.
var buildWithZoneBudget = sync.OnceValue(func() error {
	for _, s := range []func() error{
		func() error { return zonebudget.AddToScheme(scheme.Scheme) },
		func() error { return zonebudget.AddToScheme(configv1.GetPluginArgConversionScheme()) },
		func() error {
			return engine.Use(engine.WithPlugin(zonebudget.Name, zonebudget.New), engine.WithPluginArgs(zonebudget.AddToScheme))
		},
	} {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
})

// TestOutOfTreePluginMatchesRealScheduler runs the example out-of-tree
// plugin's scenario (engine/internal/zonebudget: Filter, Score and Permit,
// args of its own) with a kube-scheduler built with app.WithPlugin on a real
// API server and with schedscope's engine built with engine.WithPlugin, and
// compares every pod's node and the pending pod's message. Both wait on
// Permit on the wall clock (web-1 is held 300 ms): the real pods are created
// one by one after the one before settled, as the fidelity tests do, so the
// wait changes when a pod binds but not where.
func TestOutOfTreePluginMatchesRealScheduler(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	if err := buildWithZoneBudget(); err != nil {
		t.Fatalf("building the schedulers with ZoneBudget: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := filepath.Join("..", "internal", "zonebudget", "testdata")
	data, err := os.ReadFile(filepath.Join(dir, "fixture.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfgData, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	objs, err := fixture.DecodeManifest("zonebudget.yaml", data)
	if err != nil {
		t.Fatal(err)
	}

	// The real kube-scheduler reads the scenario's configuration, with its
	// connection and leader election added (with --config it takes them
	// from the file).
	cp := startControlPlane(t)
	cfgPath := filepath.Join(t.TempDir(), "zonebudget-config.yaml")
	extra := "clientConnection: {kubeconfig: " + cp.kubeconfig(t, "scheduler-zonebudget", cp.admin) + "}\nleaderElection: {leaderElect: false}\n"
	if err := os.WriteFile(cfgPath, append(cfgData, extra...), 0o600); err != nil {
		t.Fatal(err)
	}
	pending := applyObjects(t, ctx, cp, objs)
	cp.startSchedulerWith(t, ctx, []schedapp.Option{schedapp.WithPlugin(zonebudget.Name, zonebudget.New)}, "--config="+cfgPath)
	real, before := scheduleOneByOne(t, ctx, cp, pending)

	// The plugin decided: without it web-1 would go to b1 (its best score),
	// and web-4 is pending with ZoneBudget's reason among the scheduler's.
	got := map[string]string{}
	for k, o := range real {
		got[k] = o.node
	}
	want := map[string]string{"default/web-1": "a2", "default/web-2": "c1", "default/web-3": "a1", "default/web-4": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kube-scheduler built with ZoneBudget placed (-want +got):\n%s", diff)
	}
	if m := real["default/web-4"].message; !strings.Contains(m, "zone zone-b is over budget") {
		t.Errorf("kube-scheduler's message for web-4: %q, want ZoneBudget's reason in it", m)
	}

	// schedscope's engine, built with the same plugin, reads the same file.
	cfg, err := engine.LoadConfig("config.yaml", cfgData)
	if err != nil {
		t.Fatal(err)
	}
	ours := simulateEachWith(t, "zonebudget.yaml", objs, pending, before, engine.Options{Config: cfg})
	compare(t, real, ours)
	t.Logf("%d pods compared", len(real))
}
