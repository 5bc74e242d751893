package engine

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
)

// FuzzLoadFixture feeds the fixture loader arbitrary manifests. It must never
// panic; an error is one line naming the file; a loaded fixture holds only
// admitted objects (pending pods unbound and Pending, bound pods on a node of
// the fixture) and loads the same way twice.
func FuzzLoadFixture(f *testing.F) {
	for _, name := range fixtures.Names() {
		data, err := fixtures.Read(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("apiVersion: v1\nkind: Node\nmetadata: {name: n, annotations: {schedscope.io/replicas: \"3\"}}\n"))
	f.Add([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i, resources: {requests: {cpu: \"-1\"}}}]}\n"))
	f.Add([]byte("---\n# only a comment\n---\n"))
	f.Add([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p\n"))
	// Timelines: a node added, replaced and deleted after a pending pod.
	f.Add([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n, labels: {a: b}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n}\nspec: {unschedulable: true}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n, annotations: {schedscope.io/delete: \"true\"}}\n"))
	f.Add([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, annotations: {schedscope.io/delete: \"true\", schedscope.io/replicas: \"2\"}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fx, err := fixture.Load("f.yaml", data)
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "f.yaml") {
				t.Fatalf("error %q is not one line naming the file", msg)
			}
			return
		}
		nodes := map[string]bool{}
		for _, o := range fx.Objects {
			if n, ok := o.(*v1.Node); ok {
				nodes[n.Name] = true
			}
		}
		for _, o := range fx.Objects {
			if p, ok := o.(*v1.Pod); ok && !nodes[p.Spec.NodeName] {
				t.Fatalf("running pod %s/%s is on node %q, which the fixture does not hold", p.Namespace, p.Name, p.Spec.NodeName)
			}
		}
		for _, p := range fx.Pending {
			if p.Spec.NodeName != "" || p.Status.Phase != v1.PodPending || p.Spec.Priority == nil || p.UID == "" {
				t.Fatalf("pending pod %s/%s was not admitted: node %q, phase %q, priority %v, uid %q", p.Namespace, p.Name, p.Spec.NodeName, p.Status.Phase, p.Spec.Priority, p.UID)
			}
		}
		after := 0
		for _, st := range fx.Steps {
			if st.After < after || st.After > len(fx.Pending) || !strings.HasPrefix(st.Source, "f.yaml:") {
				t.Fatalf("step %s from %s after %d pods, following one after %d (of %d pending)", st, st.Source, st.After, after, len(fx.Pending))
			}
			after = st.After
		}
		again, err := fixture.Load("f.yaml", data)
		if err != nil || len(again.Objects) != len(fx.Objects) || len(again.Pending) != len(fx.Pending) || len(again.Steps) != len(fx.Steps) {
			t.Fatalf("a second load differs: %v", err)
		}
	})
}

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
