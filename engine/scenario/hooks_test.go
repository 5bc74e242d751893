package scenario_test

import (
	"context"
	"errors"
	"testing"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/engine/scenario/scenariohook"
	"github.com/schedscope/schedscope/recorder"
)

// The commands hear a run through hooks in its context: the header first,
// each cycle as it ends (and the Result then keeps none), what nothing in
// the run read as a typed problem, the end with the pods that never had a
// cycle; the engine's options pass through the Engine hook (here a Gate,
// the debugger's pause, called before each cycle). A run without hooks is
// unchanged: its Result has the cycles.
func TestHooksHearARun(t *testing.T) {
	sc, err := scenario.Load("hooks", []byte(`apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: "1"}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: held, namespace: default}
spec:
  schedulingGates: [{name: example.com/wait}]
  containers: [{name: c, image: nginx}]
`))
	if err != nil {
		t.Fatal(err)
	}
	var heard []string
	var gated []string
	var unused []string
	h := &scenariohook.Hooks{
		Engine: func(o *engine.Options) {
			o.Gate = func(_ context.Context, p recorder.PodRef) error {
				gated = append(gated, p.Name)
				return nil
			}
		},
		Header: func(recorder.Header) { heard = append(heard, "header") },
		Cycle:  func(c *recorder.Cycle) { heard = append(heard, "cycle "+c.Pod.Name) },
		Problem: func(err error) {
			var u *scenariohook.Unused
			if errors.As(err, &u) {
				unused = append(unused, u.Kind)
			}
		},
		End: func(never []recorder.PodState, _ *recorder.ClusterState, _ int) {
			for _, p := range never {
				heard = append(heard, "never "+p.Pod.Name+" "+p.State)
			}
		},
	}
	res, err := sc.Run(scenariohook.With(context.Background(), h), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"header", "cycle web", "never held Gated"}
	if len(heard) != len(want) {
		t.Fatalf("the hooks heard %q; want %q", heard, want)
	}
	for i := range want {
		if heard[i] != want[i] {
			t.Errorf("the hooks heard %q; want %q", heard, want)
			break
		}
	}
	if len(gated) != 1 || gated[0] != "web" {
		t.Errorf("the Gate set through the Engine hook held %q; want web", gated)
	}
	if len(unused) != 1 || unused[0] != "ConfigMap" {
		t.Errorf("unused kinds told as problems: %q; want ConfigMap", unused)
	}
	if len(res.Cycles) != 0 {
		t.Errorf("a run whose cycles a hook took kept %d in its Result", len(res.Cycles))
	}

	plain, err := sc.Run(context.Background(), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Cycles) != 1 || plain.Node("web") != "n1" {
		t.Errorf("without hooks: %d cycles, web on %q; want 1 cycle, web on n1", len(plain.Cycles), plain.Node("web"))
	}
}
