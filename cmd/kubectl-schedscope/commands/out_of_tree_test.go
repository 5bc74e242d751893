package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A configuration that enables a plugin this binary was not built with is
// refused by every command that runs the scheduler, in one line naming the
// plugin and the profile and pointing to how to build one with it; live
// says so before it connects to a cluster or predicts anything.
func TestMissingPluginIsRefusedByEveryCommand(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "nosuch.yaml")
	if err := os.WriteFile(cfg, []byte(`apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    filter:
      enabled: [{name: NoSuchPlugin}]
`), 0o600); err != nil {
		t.Fatal(err)
	}
	const want = `nosuch.yaml: profile default-scheduler enables plugin NoSuchPlugin, which this schedscope does not have (it has kube-scheduler v1.37.1's plugins); build a schedscope with it: see README, "Your plugins"`
	tests := []struct {
		name string
		args []string
	}{
		{"explain", []string{"explain", "--config", cfg}},
		{"record", []string{"record", "--config", cfg, "-o", filepath.Join(t.TempDir(), "r.ssr")}},
		{"whatif", []string{"whatif", "--pod", "web", "--set-weight", "ImageLocality=3", "--config", cfg}},
		{"suggest", []string{"suggest", "--pod", "huge", "--config", cfg}},
		{"capacity", []string{"capacity", "-f", "deployment", "deploy/web", "--config", cfg}},
		{"diff", []string{"diff", "-f", "default", "--with-config", cfg}},
		{"live", []string{"live", "--no-tui", "--kubeconfig", filepath.Join(t.TempDir(), "none"), "--config", cfg}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code == 0 || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want one line with %q", code, errOut, want)
			}
		})
	}
}
