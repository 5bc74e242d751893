package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

// TestWhatIfMatchesRealScheduler checks each kind of what-if change against
// the real kube-scheduler: the fork's changed cluster is applied to a real
// API server, the pod is created, and where kube-scheduler puts it (or its
// PodScheduled message) must be what the what-if's re-run said.
func TestWhatIfMatchesRealScheduler(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	weightConfig := `profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled:
      - {name: NodeResourcesBalancedAllocation, weight: 40}
`
	mostAllocated := `profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
`
	disableTaints := `profiles:
- schedulerName: default-scheduler
  plugins:
    filter:
      disabled:
      - {name: TaintToleration}
`
	disableImageLocality := `profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - {name: ImageLocality}
`
	bigNode := []byte(`apiVersion: v1
kind: Node
metadata: {name: big, labels: {kubernetes.io/hostname: big, tier: batch}}
status:
  allocatable: {cpu: "16", memory: 32Gi, pods: "110"}
`)
	stuckOnWeb := []byte(`apiVersion: v1
kind: Pod
metadata: {name: stuck, namespace: default}
spec:
  nodeSelector: {tier: web}
  containers:
  - {name: c, image: busybox, resources: {requests: {cpu: "2", memory: 4Gi}}}
`)
	tests := []struct {
		name    string
		fixture string
		target  engine.ForkTarget
		changes func(t *testing.T) []recorder.Change
		// config is the KubeSchedulerConfiguration (after apiVersion and
		// kind) the real scheduler runs with; "" for the default.
		config string
	}{
		{name: "uncordon a node", fixture: "unschedulable.yaml", target: engine.ForkTarget{Pod: "stuck"},
			changes: func(*testing.T) []recorder.Change {
				return []recorder.Change{recorder.PatchNode{Node: "cordoned", Patch: `{"spec":{"unschedulable":false}}`}}
			}},
		{name: "tolerate a taint", fixture: "unschedulable.yaml", target: engine.ForkTarget{Pod: "stuck"},
			changes: func(*testing.T) []recorder.Change {
				return []recorder.Change{recorder.PatchPod{Patch: "spec:\n  tolerations:\n  - {key: team, operator: Equal, value: ml, effect: NoSchedule}\n"}}
			}},
		{name: "replace the pod", fixture: "unschedulable.yaml", target: engine.ForkTarget{Pod: "stuck"},
			changes: func(*testing.T) []recorder.Change {
				return []recorder.Change{recorder.ReplacePod{Manifest: stuckOnWeb, Source: "stuck.yaml"}}
			}},
		{name: "add a node", fixture: "unschedulable.yaml", target: engine.ForkTarget{Pod: "stuck"},
			changes: func(*testing.T) []recorder.Change {
				return []recorder.Change{recorder.AddNode{Manifest: bigNode, Source: "big.yaml"}}
			}},
		{name: "remove and copy nodes", fixture: "default.yaml", target: engine.ForkTarget{Pod: "web"},
			changes: func(*testing.T) []recorder.Change {
				return []recorder.Change{recorder.RemoveNode{Node: "node-a"}, recorder.CopyNode{From: "node-b", Node: "node-e"}}
			}},
		{name: "evict a pod", fixture: "preemption.yaml", target: engine.ForkTarget{Pod: "urgent"},
			changes: func(*testing.T) []recorder.Change {
				return []recorder.Change{recorder.Evict{Pods: []string{"default/filler-2"}}}
			}},
		{name: "set a weight", fixture: "default.yaml", target: engine.ForkTarget{Pod: "web"}, config: weightConfig,
			changes: func(*testing.T) []recorder.Change {
				return []recorder.Change{recorder.SetWeight{Plugin: "NodeResourcesBalancedAllocation", Weight: 40}}
			}},
		{name: "disable a score plugin", fixture: "image-locality.yaml", target: engine.ForkTarget{Pod: "inference"}, config: disableImageLocality,
			changes: func(*testing.T) []recorder.Change {
				return []recorder.Change{recorder.Disable{Plugin: "ImageLocality", Point: "score"}}
			}},
		{name: "still unschedulable, another message", fixture: "unschedulable.yaml", target: engine.ForkTarget{Pod: "stuck"},
			changes: func(*testing.T) []recorder.Change { return []recorder.Change{recorder.RemoveNode{Node: "too-small"}} }},
		{name: "disable a filter plugin", fixture: "unschedulable.yaml", target: engine.ForkTarget{Pod: "stuck"}, config: disableTaints,
			changes: func(*testing.T) []recorder.Change {
				return []recorder.Change{recorder.Disable{Plugin: "TaintToleration", Point: "filter"}}
			}},
		{name: "another configuration", fixture: "default.yaml", target: engine.ForkTarget{Pod: "web"}, config: mostAllocated,
			changes: func(t *testing.T) []recorder.Change {
				return []recorder.Change{recorder.UseConfig{Path: "most-allocated.yaml", Data: []byte(configHeader + mostAllocated)}}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			data, err := fixtures.Read(tt.fixture)
			if err != nil {
				t.Fatal(err)
			}
			fx, err := fixture.Load(tt.fixture, data)
			if err != nil {
				t.Fatal(err)
			}
			f, err := engine.ForkAt(ctx, fx, engine.Options{}, tt.target)
			if err != nil {
				t.Fatal(err)
			}
			changed, err := f.With(tt.changes(t)...)
			if err != nil {
				t.Fatal(err)
			}
			res, err := changed.Run(ctx)
			if err != nil {
				t.Fatal(err)
			}
			ours := res.Cycle
			if d := recorder.DiffCycles(f.Recorded, ours); d.Same {
				t.Fatalf("the change made no difference to the cycle; the scenario tests nothing")
			}

			cp := startControlPlane(t)
			pending := applyObjects(t, ctx, cp, changed.Objects())
			if len(pending) != 1 {
				t.Fatalf("the fork's objects hold %d pending pods, want 1", len(pending))
			}
			var flags []string
			if tt.config != "" {
				path := filepath.Join(t.TempDir(), "config.yaml")
				extra := fmt.Sprintf("clientConnection: {kubeconfig: %s}\nleaderElection: {leaderElect: false}\n", cp.kubeconfig(t, "scheduler-whatif", cp.admin))
				if err := os.WriteFile(path, []byte(configHeader+extra+tt.config), 0o600); err != nil {
					t.Fatal(err)
				}
				flags = append(flags, "--config="+path)
			}
			cp.startScheduler(t, ctx, flags...)
			real, _ := scheduleOneByOne(t, ctx, cp, pending)
			key := pending[0].Namespace + "/" + pending[0].Name
			got := real[key]
			want := ours.Outcome.Node
			if want == "" && len(res.Later) > 0 {
				want = res.Later[len(res.Later)-1].Outcome.Node
			}
			var ties []string
			if ours.Selection != nil {
				for _, i := range ours.Selection.Top {
					ties = append(ties, ours.NodeName(i))
				}
			}
			switch {
			case want == "" && got.node != "":
				t.Errorf("what-if: unschedulable (%s); kube-scheduler bound %s to %s", ours.Outcome.Message, key, got.node)
			case want == "" && got.message != ours.Outcome.Message:
				t.Errorf("messages differ:\n  what-if:        %s\n  kube-scheduler: %s", ours.Outcome.Message, got.message)
			case want != "" && got.node != want && !slices.Contains(ties, got.node):
				t.Errorf("what-if put %s on %s; kube-scheduler %s", key, want, got)
			}
			t.Logf("%s: what-if %q, kube-scheduler %s", tt.name, want, got)
		})
	}
}

const configHeader = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
