package live

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/kubernetes"

	"github.com/schedscope/schedscope/engine/featuregates"
)

// featureMetric is the API server's metric of its feature gates
// (component-base's featuremetrics, which kube-apiserver records at start):
// kubernetes_feature_enabled{name="…",stage="…"} 1 or 0.
const featureMetric = "kubernetes_feature_enabled"

// metricsTimeout bounds the GET of /metrics.
const metricsTimeout = 10 * time.Second

// clusterFeatureGates reads the API server's feature gates from its
// /metrics (a GET, read-only).
func clusterFeatureGates(ctx context.Context, client kubernetes.Interface) (map[string]bool, error) {
	// Once, at start: a slow /metrics (megabytes on a large control
	// plane) must not hold the session.
	ctx, cancel := context.WithTimeout(ctx, metricsTimeout)
	defer cancel()
	body, err := client.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	return parseFeatureMetric(string(body))
}

// parseFeatureMetric reads the feature gates out of Prometheus exposition
// text: each gate's name and whether it is on.
func parseFeatureMetric(text string) (map[string]bool, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("reading /metrics: %w", err)
	}
	fam, ok := families[featureMetric]
	if !ok {
		return nil, fmt.Errorf("/metrics has no %s", featureMetric)
	}
	out := map[string]bool{}
	for _, m := range fam.GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "name" {
				out[l.GetValue()] = m.GetGauge().GetValue() != 0
			}
		}
	}
	return out, nil
}

// featureGatesNote compares the API server's gates with the process's and
// says, in one line, which differ and the --feature-gates that matches
// them; empty when none does. Only gates this build knows and may set
// count; a gate the API server has is not always the scheduler's, which
// has its own --feature-gates.
func featureGatesNote(cluster map[string]bool) string {
	differ := featuregates.Differing(cluster)
	if len(differ) == 0 {
		return ""
	}
	want := featuregates.NonDefault()
	for k, v := range differ {
		want[k] = v
	}
	return fmt.Sprintf("the API server runs with feature gates other than schedscope's: %s; to match it (kube-scheduler's own --feature-gates may differ), run with --feature-gates=%s", featuregates.Format(differ), featuregates.Format(want))
}

// clusterGatesNote is the note on the cluster's feature gates: which
// differ, or why they could not be read (a role without /metrics).
func clusterGatesNote(ctx context.Context, client kubernetes.Interface) string {
	gates, err := clusterFeatureGates(ctx, client)
	switch {
	case apierrors.IsForbidden(err):
		return "the API server's /metrics is forbidden, so its feature gates are not compared with schedscope's (kubectl schedscope rbac --metrics prints a role that grants it)"
	case err != nil:
		return fmt.Sprintf("the API server's feature gates are not compared with schedscope's: %s", strings.Join(strings.Fields(err.Error()), " "))
	}
	return featureGatesNote(gates)
}
