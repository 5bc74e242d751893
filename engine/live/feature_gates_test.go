package live

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/rest"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/component-base/metrics/legacyregistry"
	featuremetrics "k8s.io/component-base/metrics/prometheus/feature"
	"k8s.io/kubernetes/pkg/features"

	"github.com/schedscope/schedscope/engine/cluster"
)

// TestClusterGatesNote: live reads the API server's feature gates from the
// kubernetes_feature_enabled metric, as kube-apiserver exposes it (the
// metric recorded and served by component-base, as kube-apiserver does),
// through the read-only client, and says in one line which gates differ
// and the --feature-gates that matches; a /metrics it may not read is said
// once, and the session goes on.
func TestClusterGatesNote(t *testing.T) {
	featuremetrics.ResetFeatureInfoMetric()
	// What kube-apiserver records at start: every gate it has.
	utilfeature.DefaultMutableFeatureGate.AddMetrics()
	// This cluster's API server runs with GenericWorkload on and
	// OpportunisticBatching off; schedscope with the defaults.
	featuremetrics.RecordFeatureInfo(context.Background(), string(features.GenericWorkload), "BETA", true)
	featuremetrics.RecordFeatureInfo(context.Background(), string(features.OpportunisticBatching), "BETA", false)
	forbid := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		if forbid {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"forbidden: User \"u\" cannot get path \"/metrics\"","reason":"Forbidden","code":403}`))
			return
		}
		legacyregistry.Handler().ServeHTTP(w, r)
	}))
	defer srv.Close()
	reader, err := cluster.New(&rest.Config{Host: srv.URL}, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	gates, err := clusterFeatureGates(ctx, reader.Client())
	if err != nil {
		t.Fatal(err)
	}
	if len(gates) < 100 || !gates["GenericWorkload"] || gates["OpportunisticBatching"] || !gates["PodLevelResources"] {
		t.Fatalf("read %d gates, GenericWorkload %v, OpportunisticBatching %v, PodLevelResources %v; want the API server's", len(gates), gates["GenericWorkload"], gates["OpportunisticBatching"], gates["PodLevelResources"])
	}
	want := "the API server runs with feature gates other than schedscope's: GenericWorkload=true,OpportunisticBatching=false; to match it (kube-scheduler's own --feature-gates may differ), run with --feature-gates=GenericWorkload=true,OpportunisticBatching=false"
	if got := clusterGatesNote(ctx, reader.Client()); got != want {
		t.Errorf("note\n%q, want\n%q", got, want)
	}
	// Run as the cluster does, nothing differs.
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides{features.GenericWorkload: true, features.OpportunisticBatching: false})
	if got := clusterGatesNote(ctx, reader.Client()); got != "" {
		t.Errorf("with the cluster's gates, note %q, want none", got)
	}
	forbid = true
	if got := clusterGatesNote(ctx, reader.Client()); !strings.HasPrefix(got, "the API server's /metrics is forbidden") || strings.Contains(got, "\n") {
		t.Errorf("with /metrics forbidden, note %q", got)
	}
}
