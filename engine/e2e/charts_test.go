package e2e

import (
	"testing"

	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/fixtures/charts"
)

// TestChartsMatchRealCluster installs public Helm charts as helm template
// renders them (fixtures/charts: kube-state-metrics, prometheus-node-exporter
// and alertmanager in monitoring, cert-manager with its definitions,
// webhooks and hook Job in cert-manager) into a real API server with
// kube-scheduler and kube-controller-manager, and checks that schedscope's
// run of the same manifest ends the same, per owner, budget and claim: a
// Deployment of two replicas under a budget, a DaemonSet, a StatefulSet
// with a claim template (and a List of per-replica Services), three more
// Deployments and a Job.
func TestChartsMatchRealCluster(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	data, err := charts.Manifest(charts.All()...)
	if err != nil {
		t.Fatal(err)
	}
	out := playWorkloads(t, "charts.yaml", data)
	for _, owner := range []string{
		"Deployment/monitoring/kube-state-metrics", "DaemonSet/monitoring/prometheus-node-exporter",
		"StatefulSet/monitoring/alertmanager", "Deployment/cert-manager/cert-manager",
		"Deployment/cert-manager/cert-manager-webhook", "Deployment/cert-manager/cert-manager-cainjector",
		"Job/cert-manager/cert-manager-startupapicheck",
	} {
		if st, ok := out.Owners[owner]; !ok || len(st.Nodes) == 0 || len(st.Pending) != 0 {
			t.Errorf("%s: want its pods placed, got %+v", owner, st)
		}
	}
	if allowed, ok := out.Budgets["monitoring/kube-state-metrics"]; !ok || allowed != 1 {
		t.Errorf("budget monitoring/kube-state-metrics: want 1 disruption allowed, got %d (%v)", allowed, ok)
	}
	if phase := out.Claims["monitoring/storage-alertmanager-0"]; phase != "Bound" {
		t.Errorf("claim monitoring/storage-alertmanager-0: %q, want Bound", phase)
	}
}
