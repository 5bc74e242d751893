package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder"
)

// TestRunSettlesOnErrors checks that a run answers at once when the scheduler
// can only fail with an error it would retry forever: a cluster with no nodes,
// an extender nobody listens on. Before, such runs waited out the settle
// timeout (a minute) and failed with "did not settle"; a regression fails the
// same way here.
func TestRunSettlesOnErrors(t *testing.T) {
	closed := filepath.Join(t.TempDir(), "extender.yaml")
	if err := os.WriteFile(closed, []byte(`apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: http://127.0.0.1:1/ext
  filterVerb: filter
  weight: 1
`), 0o600); err != nil {
		t.Fatal(err)
	}
	pods := `
apiVersion: v1
kind: Pod
metadata: {name: first}
spec: {containers: [{name: c, image: pause}]}
---
apiVersion: v1
kind: Pod
metadata: {name: second}
spec: {containers: [{name: c, image: pause}]}
`
	node := `apiVersion: v1
kind: Node
metadata: {name: only}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
`
	tests := []struct {
		name     string
		manifest string
		config   string
		result   string
		message  string
	}{
		{name: "no nodes", manifest: pods, result: recorder.ResultUnschedulable, message: "no nodes available to schedule pods"},
		{name: "unreachable extender", manifest: node + pods, config: closed, result: recorder.ResultError, message: "127.0.0.1:1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := LoadConfigFile(tc.config)
			if err != nil {
				t.Fatal(err)
			}
			res, cycles := runFixture(t, tc.name, []byte(tc.manifest), Options{Config: cfg, SettleTimeout: 30 * time.Second})
			if res.Cycles < 2 {
				t.Fatalf("got %d cycles, want one for each pod", res.Cycles)
			}
			seen := map[string]bool{}
			for _, c := range cycles {
				seen[c.Pod.Name] = true
				if c.Outcome.Result != tc.result || !strings.Contains(c.Outcome.Message, tc.message) {
					t.Errorf("cycle %d of %s: %s %q, want %s mentioning %q", c.Seq, c.Pod.Name, c.Outcome.Result, c.Outcome.Message, tc.result, tc.message)
				}
			}
			if got := fmt.Sprint(seen); got != "map[first:true second:true]" {
				t.Errorf("cycles for %s, want both pods", got)
			}
		})
	}
}
