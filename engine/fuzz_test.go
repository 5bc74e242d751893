package engine

import (
	"strings"
	"testing"
)

// FuzzLoadConfig feeds the KubeSchedulerConfiguration loader arbitrary files.
// It must never panic; an error is one line naming the file; a loaded
// configuration has at least one profile with a scheduler name.
func FuzzLoadConfig(f *testing.F) {
	f.Add([]byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"))
	f.Add([]byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: a\n  plugins:\n    score:\n      enabled: [{name: NodeResourcesFit, weight: 3}]\n"))
	f.Add([]byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 150\n"))
	f.Add([]byte("apiVersion: v1\nkind: Pod\n"))
	f.Add([]byte("{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := LoadConfig("c.yaml", data)
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "c.yaml") {
				t.Fatalf("error %q is not one line naming the file", msg)
			}
			return
		}
		if len(cfg.Profiles) == 0 || cfg.Profiles[0].SchedulerName == "" {
			t.Fatalf("a loaded configuration has no named profile: %+v", cfg.Profiles)
		}
	})
}
