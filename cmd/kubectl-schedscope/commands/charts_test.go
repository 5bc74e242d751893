package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures/charts"
	"github.com/schedscope/schedscope/recorder"
)

// TestExplainLoadsPublicCharts renders public Helm charts (pinned modules,
// see fixtures/charts; prometheus with the charts it depends on) into
// their own namespaces and gives each, with the
// small cluster they are installed into, to explain --exit-code: every
// document loads (a List's items included), every workload places all its
// pods, the budget allows what it should, each claim is bound, and each
// kind nothing in a run reads is named once.
func TestExplainLoadsPublicCharts(t *testing.T) {
	tests := []struct {
		release charts.Release
		// workloads are kind/namespace/name: pods desired.
		workloads map[string]int32
		budgets   map[string]int32 // namespace/name: disruptions allowed
		claims    map[string]string
		unread    []string
	}{
		{
			release:   charts.KubeStateMetrics(),
			workloads: map[string]int32{"Deployment/monitoring/kube-state-metrics": 2},
			budgets:   map[string]int32{"monitoring/kube-state-metrics": 1},
			unread:    []string{"ServiceAccount", "ClusterRole", "ClusterRoleBinding"},
		},
		{
			release:   charts.NodeExporter(),
			workloads: map[string]int32{"DaemonSet/monitoring/prometheus-node-exporter": 2},
			unread:    []string{"ServiceAccount"},
		},
		{
			release:   charts.Alertmanager(),
			workloads: map[string]int32{"StatefulSet/monitoring/alertmanager": 1},
			claims:    map[string]string{"monitoring/storage-alertmanager-0": "Bound"},
			unread:    []string{"ServiceAccount", "ConfigMap"},
		},
		{
			release: charts.CertManager(),
			workloads: map[string]int32{
				"Deployment/cert-manager/cert-manager": 1, "Deployment/cert-manager/cert-manager-cainjector": 1,
				"Deployment/cert-manager/cert-manager-webhook": 1, "Job/cert-manager/cert-manager-startupapicheck": 1,
			},
			unread: []string{"ServiceAccount", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding",
				"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"},
		},
		{
			release: charts.Prometheus(),
			workloads: map[string]int32{
				"Deployment/prometheus/prometheus-server": 1, "StatefulSet/prometheus/prometheus-alertmanager": 1,
				"Deployment/prometheus/prometheus-kube-state-metrics": 1, "DaemonSet/prometheus/prometheus-prometheus-node-exporter": 2,
				"Deployment/prometheus/prometheus-prometheus-pushgateway": 1,
			},
			claims: map[string]string{"prometheus/prometheus-server": "Bound", "prometheus/storage-prometheus-alertmanager-0": "Bound"},
			unread: []string{"ServiceAccount", "ConfigMap", "ClusterRole", "ClusterRoleBinding"},
		},
	}
	dir := t.TempDir()
	notRead := regexp.MustCompile(`^:\d+: (\w+) .*: not read by the scheduler, admission or any controller a run has; ignored$`)
	for _, tt := range tests {
		t.Run(tt.release.Name, func(t *testing.T) {
			data, err := charts.Manifest(tt.release)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, tt.release.Name+".yaml")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			fx, err := fixture.Load(path, data)
			if err != nil {
				t.Fatal(err)
			}
			// Each rendered document (from a "---" line to the next)
			// that has a kind is a document of the fixture, or its items are.
			lines := strings.Split(string(data), "\n")
			var starts []int // the line after each "---", from 1
			for i, l := range lines {
				if l == "---" {
					starts = append(starts, i+2)
				}
			}
			starts = append(starts, len(lines)+1)
			for k := 0; k+1 < len(starts); k++ {
				from, to := starts[k], starts[k+1]
				if !slices.ContainsFunc(lines[from-1:to-1], func(l string) bool { return strings.HasPrefix(l, "kind: ") }) {
					continue
				}
				if !slices.ContainsFunc(fx.Documents, func(d fixture.Document) bool {
					n, _ := strconv.Atoi(strings.TrimPrefix(d.Source, path+":"))
					return n >= from && n < to
				}) {
					t.Errorf("the document at line %d is not in the fixture", from)
				}
			}
			out, errOut, code := run(t, "explain", "-f", path, "-o", "json", "--exit-code")
			if code != 0 {
				t.Fatalf("explain --exit-code: exit %d: %s", code, errOut)
			}
			var doc struct {
				Warnings []string               `json:"warnings"`
				Cluster  *recorder.ClusterState `json:"cluster"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			var unread []string
			for _, w := range doc.Warnings {
				m := notRead.FindStringSubmatch(strings.TrimPrefix(w, path))
				if m == nil {
					t.Errorf("warning %q, want only kinds not read", w)
					continue
				}
				unread = append(unread, m[1])
			}
			if diff := cmp.Diff(tt.unread, unread); diff != "" {
				t.Errorf("kinds named as not read (-want +got):\n%s", diff)
			}
			if doc.Cluster == nil {
				t.Fatal("no cluster state")
			}
			workloads := map[string]int32{}
			for _, w := range doc.Cluster.Workloads {
				workloads[w.Kind+"/"+w.Namespace+"/"+w.Name] = w.Desired
				if int32(len(w.Pods)) != w.Desired || w.Pending() != 0 {
					t.Errorf("%s %s/%s: %d pods of %d desired, %d pending", w.Kind, w.Namespace, w.Name, len(w.Pods), w.Desired, w.Pending())
				}
			}
			if diff := cmp.Diff(tt.workloads, workloads); diff != "" {
				t.Errorf("workloads (-want +got):\n%s", diff)
			}
			budgets := map[string]int32{}
			for _, b := range doc.Cluster.Budgets {
				budgets[b.Namespace+"/"+b.Name] = b.DisruptionsAllowed
			}
			if diff := cmp.Diff(tt.budgets, budgets, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("budgets (-want +got):\n%s", diff)
			}
			claims := map[string]string{}
			for _, c := range doc.Cluster.Claims {
				claims[c.Namespace+"/"+c.Name] = c.Phase
			}
			if diff := cmp.Diff(tt.claims, claims, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("claims (-want +got):\n%s", diff)
			}
		})
	}
}
