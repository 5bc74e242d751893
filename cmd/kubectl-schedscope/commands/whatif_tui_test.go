package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/pages/whatif"
)

// TestWhatIfSourceOnUnschedulable drives the TUI's what-if over the real
// engine, through the interface the TUI sees, without a terminal.
func TestWhatIfSourceOnUnschedulable(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := &simOptions{Fixture: "unschedulable.yaml", Diagnostic: "unschedulable"}
	var src whatif.Source = newWhatIfSource(ctx, o)
	forks := 0
	s := src.(*whatIfSource)
	fork := s.fork
	s.fork = func(ctx context.Context, c *recorder.Cycle) (*engine.Fork, error) { forks++; return fork(ctx, c) }
	// A fixture's forks need only the cycle's number.
	c1 := &recorder.Cycle{Seq: 1}

	pod, err := src.PodYAML(c1)
	if err != nil || !strings.Contains(string(pod), "name: stuck") {
		t.Fatalf("PodYAML(1) = %q, %v; want the stuck pod", pod, err)
	}
	node, err := src.NodeYAML(c1, "cordoned")
	if err != nil || !strings.Contains(string(node), "unschedulable: true") {
		t.Fatalf("NodeYAML(1, cordoned) = %q, %v; want the cordoned node", node, err)
	}

	// Uncordon by editing the node's YAML, as $EDITOR would.
	edited := strings.Replace(string(node), "unschedulable: true", "unschedulable: false", 1)
	res, err := src.Run(c1, []recorder.Change{recorder.EditNode{Node: "cordoned", Shown: node, Edited: []byte(edited), Source: "the edited node cordoned"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Before.Outcome.Result != recorder.ResultUnschedulable || res.After.Outcome.Node != "cordoned" || res.Landing != "cordoned" {
		t.Errorf("before %s, after %s on %q, landing %q; want unschedulable, then bound to cordoned",
			res.Before.Outcome.Result, res.After.Outcome.Result, res.After.Outcome.Node, res.Landing)
	}
	if d := res.Diff; d == nil || len(d.BecameFeasible) != 1 || d.BecameFeasible[0].Node != "cordoned" {
		t.Errorf("diff = %+v; want cordoned to become feasible", res.Diff)
	}
	// The words compare the manifest the editor was given with the edit.
	if want := "edit node cordoned: spec.unschedulable: true → false"; len(res.Changes) != 1 || res.Changes[0] != want {
		t.Errorf("changes = %q, want [%q]", res.Changes, want)
	}

	// A refused edit is one line.
	_, err = src.Run(c1, []recorder.Change{recorder.EditPod{Shown: pod, Edited: []byte("kind: Pod\nmetadata:\n  name: stuck\nspec:\n  containers: []\n"), Source: "the edited pod"}})
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("an invalid pod: err = %v; want a one-line error", err)
	}
	_, err = src.Run(c1, []recorder.Change{recorder.SetWeight{Plugin: "NoSuchPlugin", Weight: 3}})
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("an unknown plugin: err = %v; want a one-line error", err)
	}

	// Suggest, then open the first suggestion as a what-if.
	sg, err := src.Suggest(c1)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, x := range sg.Suggestions {
		texts = append(texts, x.Text)
	}
	if len(sg.Suggestions) == 0 || !strings.Contains(strings.Join(texts, "\n"), "uncordon node cordoned") {
		t.Fatalf("suggestions = %q; want uncordon node cordoned among them", texts)
	}
	first := sg.Suggestions[0]
	res, err = src.Run(c1, []recorder.Change{first.Change})
	if err != nil {
		t.Fatal(err)
	}
	if res.Landing != first.Node {
		t.Errorf("suggestion %q lands on %q when opened, but was listed for %q", first.Text, res.Landing, first.Node)
	}
	if forks != 1 {
		t.Errorf("forked %d times; want one fork of cycle 1, kept", forks)
	}
	if _, err := src.PodYAML(&recorder.Cycle{Seq: 7}); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("cycle 7 of a one-cycle run: err = %v; want a one-line error", err)
	}
}

// The pod's manifest handed to $EDITOR holds none of the values a pod keeps
// beside what the scheduler reads, and an edit of it keeps them in the pod
// the re-run schedules.
func TestWhatIfSourceEditsWithoutTheSecrets(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	path := filepath.Join(t.TempDir(), "leaky.yaml")
	manifests := `apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}, annotations: {example.com/key: LEAK-node}}
status:
  allocatable: {cpu: "1", memory: 2Gi, pods: "110"}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, annotations: {example.com/token: LEAK-annotation}}
spec:
  containers:
  - name: c
    image: busybox
    command: [run, --password=LEAK-command]
    env: [{name: PASSWORD, value: LEAK-env}]
    resources: {requests: {cpu: "2"}}
    volumeMounts: [{name: creds, mountPath: /creds}]
  volumes:
  - {name: creds, secret: {secretName: leak-secret}}
`
	if err := os.WriteFile(path, []byte(manifests), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newWhatIfSource(ctx, &simOptions{Fixture: path, Diagnostic: "unschedulable"})
	c1 := &recorder.Cycle{Seq: 1}
	pod, err := s.PodYAML(c1)
	if err != nil {
		t.Fatal(err)
	}
	node, err := s.NodeYAML(c1, "node-a")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range [][]byte{pod, node} {
		if strings.Contains(strings.ToLower(string(m)), "leak") {
			t.Errorf("the manifest for $EDITOR holds a value the scheduler does not read:\n%s", m)
		}
	}
	edited := strings.Replace(string(pod), `cpu: "2"`, "cpu: 500m", 1)
	ch := recorder.EditPod{Shown: pod, Edited: []byte(edited), Source: "the edited pod"}
	res, err := s.Run(c1, []recorder.Change{ch})
	if err != nil {
		t.Fatal(err)
	}
	if res.After.Outcome.Node != "node-a" {
		t.Errorf("after the edit the pod is %s on %q; want it bound to node-a", res.After.Outcome.Result, res.After.Outcome.Node)
	}
	if want := `edit the pod: spec.containers[0].resources.requests.cpu: 2 → 500m`; len(res.Changes) != 1 || res.Changes[0] != want {
		t.Errorf("changes = %q, want [%q]", res.Changes, want)
	}
	f, err := s.forkAt(c1)
	if err != nil {
		t.Fatal(err)
	}
	g, err := f.With(ch)
	if err != nil {
		t.Fatal(err)
	}
	c := g.Pod.Spec.Containers[0]
	if len(c.Env) != 1 || c.Env[0].Value != "LEAK-env" || len(c.Command) != 2 || g.Pod.Annotations["example.com/token"] != "LEAK-annotation" ||
		len(g.Pod.Spec.Volumes) == 0 || g.Pod.Spec.Volumes[0].Secret == nil {
		t.Errorf("the edited pod lost what the editor did not show: env %v, command %v, annotations %v, volumes %v",
			c.Env, c.Command, g.Pod.Annotations, g.Pod.Spec.Volumes)
	}
}
