package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadConfigFileErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, data, want string
	}{
		{"unknown field", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelizm: 4\n", `unknown field "parallelizm"`},
		{"invalid value", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelism: -1\n", "parallelism"},
		{"wrong kind", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n", "a Pod (v1), not a KubeSchedulerConfiguration"},
		{"not yaml", "{{{", "not YAML or JSON"},
		{"no kind", "parallelism: 4\n", "not a KubeSchedulerConfiguration: it needs apiVersion"},
		{"empty", "", "not a KubeSchedulerConfiguration: it needs apiVersion"},
		{"old version", "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n", "does not read apiVersion kubescheduler.config.k8s.io/v1beta3; use kubescheduler.config.k8s.io/v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "config.yaml")
			if err := os.WriteFile(path, []byte(tt.data), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := LoadConfigFile(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "config.yaml") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line naming the file and containing %q", err, tt.want)
			}
		})
	}
}

func TestMultipleProfiles(t *testing.T) {
	cfgPath := filepath.Join(t.TempDir(), "config.yaml")
	cfg := `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: bin-packer
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
`
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfigFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	data := embedded(t, "resources-fit.yaml")
	packed := strings.Replace(string(data), "metadata: {name: small, namespace: default}\nspec:\n", "metadata: {name: small, namespace: default}\nspec:\n  schedulerName: bin-packer\n", 1)
	res, cycles := runFixture(t, "packed", []byte(packed), Options{Config: c})
	if res.Bindings["default/small"] != "node-big" {
		t.Errorf("MostAllocated should pack small onto the fullest node node-big, got %q", res.Bindings["default/small"])
	}
	if cycles[0].Profile != "bin-packer" {
		t.Errorf("cycle profile %q", cycles[0].Profile)
	}
	for _, c := range cycles {
		checkInvariants(t, c)
	}
}

// TestConfigFilesAreBounded reads an endless configuration: it must fail
// with one line once past its size bound, not read until memory runs out.
func TestConfigFilesAreBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	_, err := LoadConfigFile("/dev/zero")
	if err == nil || !strings.Contains(err.Error(), "/dev/zero: larger than 4 MiB: too big for a scheduler configuration") {
		t.Errorf("config /dev/zero: got %v", err)
	}
}
