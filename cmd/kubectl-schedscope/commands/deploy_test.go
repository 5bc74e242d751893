package commands

import (
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/schedscope/schedscope/recorder/export/otel"
)

// deployed runs deploy with args and returns the ConfigMap and Deployment
// it prints.
func deployed(t *testing.T, args ...string) (*v1.ConfigMap, *appsv1.Deployment) {
	t.Helper()
	out, errOut, code := run(t, append([]string{"deploy"}, args...)...)
	if code != 0 {
		t.Fatalf("deploy %v: exit %d: %s", args, code, errOut)
	}
	var cm *v1.ConfigMap
	var d *appsv1.Deployment
	for _, doc := range strings.Split(out, "\n---\n") {
		switch {
		case strings.Contains(doc, "\nkind: ConfigMap\n"):
			cm = &v1.ConfigMap{}
			if err := yaml.UnmarshalStrict([]byte(doc), cm); err != nil {
				t.Fatal(err)
			}
		case strings.Contains(doc, "\nkind: Deployment\n"):
			d = &appsv1.Deployment{}
			if err := yaml.UnmarshalStrict([]byte(doc), d); err != nil {
				t.Fatal(err)
			}
		}
	}
	if cm == nil || d == nil {
		t.Fatalf("deploy printed no ConfigMap or no Deployment:\n%s", out)
	}
	return cm, d
}

// The pod gives live time to close its recording and send its last traces
// on SIGTERM before the kubelet kills it.
func TestDeployGivesLiveTimeToEnd(t *testing.T) {
	_, d := deployed(t, "--otlp-endpoint", "http://otel-collector.observability:4317")
	grace := d.Spec.Template.Spec.TerminationGracePeriodSeconds
	if grace == nil || time.Duration(*grace)*time.Second < otel.DefaultTimeout+10*time.Second {
		t.Errorf("terminationGracePeriodSeconds %v: want it set, at least --otlp-timeout's %s and 10 s more", grace, otel.DefaultTimeout)
	}
}
