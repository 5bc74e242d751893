package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

// TestEveryNamespaceGivesTheSameAnswer moves every embedded fixture (the
// lessons' among them) and every end-to-end workload scenario into other
// namespaces — default and each namespace the fixture names to another,
// every reference to them along (a claim's, an affinity term's), the
// cluster-scoped objects left as they are — and checks the run answers as
// before: each cycle's pod (by owner), outcome, node and message, where
// each workload's pods went, each budget, each claim. A Deployment outside
// default once made no pods at all: its pods were stored in default.
func TestEveryNamespaceGivesTheSameAnswer(t *testing.T) {
	sources := map[string][]byte{}
	for _, name := range fixtures.Names() {
		if name == "large-cluster.yaml" {
			// Its search stops early (percentageOfNodesToScore): which
			// nodes the scheduler's parallel filter finds first is not
			// the same every run, in any namespace.
			continue
		}
		sources[name] = embedded(t, name)
	}
	for _, glob := range []string{"e2e/testdata/workloads/*.yaml", "e2e/testdata/workload-timelines/*.yaml"} {
		paths, err := filepath.Glob(glob)
		if err != nil || len(paths) == 0 {
			t.Fatalf("%s: %v (%d files)", glob, err, len(paths))
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			sources[strings.TrimSuffix(filepath.Base(p), ".yaml")] = data
		}
	}
	names := make([]string, 0, len(sources))
	for n := range sources {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			// Admission writes the objects it admits: each run decodes its own.
			decode := func() []runtime.Object {
				objs, err := fixture.DecodeManifest(name, sources[name])
				if err != nil {
					t.Fatal(err)
				}
				return objs
			}
			want := namespaceOutcome(t, name, decode(), func(s string) string { return s })
			if len(want.Cycles) == 0 {
				t.Fatalf("no cycle to compare")
			}
			// Two moves: a namespace that sorts before the others'
			// names and one that sorts after, with a dash.
			for _, to := range []string{"apps", "team-z-prod"} {
				moved := func(ns string) string {
					switch ns {
					case "kube-system":
						return ns // where system-critical priorities are allowed
					case "", metav1.NamespaceDefault:
						return to
					}
					return to + "-" + ns
				}
				objs := decode()
				got := namespaceOutcome(t, name, moveNamespaces(t, objs, moved), namesBack(objs, moved))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("moved to %s (-as in default +moved):\n%s", to, diff)
				}
			}
		})
	}
}

// nsOutcome is what a run answers, named so that two runs in different
// namespaces compare.
type nsOutcome struct {
	Cycles    []string
	Workloads map[string][]string
	Budgets   map[string]string
	Claims    map[string]string
}

// generated is a name's generated suffix (a controller's pod's name depends
// on its namespace).
var generated = regexp.MustCompile(`-[bcdfghjklmnpqrstvwxz2456789]{5}\b|-[0-9a-f]{8,10}\b`)

// namespaceOutcome runs objs and tells the outcome with every namespace
// named back(ns).
func namespaceOutcome(t *testing.T, name string, objs []runtime.Object, back func(string) string) nsOutcome {
	t.Helper()
	fx, err := fixture.New(name, objs)
	if err != nil {
		t.Fatal(err)
	}
	_, cycles, e := runEngine(t, fx, false)
	out := nsOutcome{Workloads: map[string][]string{}, Budgets: map[string]string{}, Claims: map[string]string{}}
	for _, c := range cycles {
		if c.Outcome.Result == recorder.ResultError {
			// A binding cycle that raced the next pod's scheduling cycle
			// (pods sharing a claim), as in kube-scheduler: the pod is
			// retried, and where it went is compared below.
			continue
		}
		who := c.Pod.Namespace + "/" + c.Pod.Name
		if o := c.Pod.Owner; o != nil {
			who = c.Pod.Namespace + "/" + o.Kind + "/" + o.Name
		}
		msg := generated.ReplaceAllString(c.Outcome.Message, "-*")
		line := back(fmt.Sprintf("%s: %s %s %s", who, c.Outcome.Result, c.Outcome.Node, msg))
		if n := len(out.Cycles); n > 0 && out.Cycles[n-1] == line {
			// A retry with the same answer: how often a pending pod is
			// retried follows when the cluster's events reach the queue.
			continue
		}
		out.Cycles = append(out.Cycles, line)
	}
	if st := e.ClusterState(); st != nil {
		for _, w := range st.Workloads {
			var nodes []string
			for _, p := range w.Pods {
				nodes = append(nodes, p.Node)
			}
			slices.Sort(nodes)
			out.Workloads[back(w.Kind+"/"+w.Namespace+"/"+w.Name)] = nodes
		}
		for _, b := range st.Budgets {
			out.Budgets[back(b.Namespace+"/"+b.Name)] = fmt.Sprintf("%d allowed, %d/%d healthy, %d expected %s", b.DisruptionsAllowed, b.CurrentHealthy, b.DesiredHealthy, b.ExpectedPods, b.Error)
		}
		for _, c := range st.Claims {
			out.Claims[back(c.Namespace+"/"+generated.ReplaceAllString(c.Name, "-*"))] = c.Phase + " " + c.SelectedNode
		}
	}
	return out
}

// namesBack undoes moved on every namespace objs name, in a text.
func namesBack(objs []runtime.Object, moved func(string) string) func(string) string {
	from := map[string]string{moved(metav1.NamespaceDefault): metav1.NamespaceDefault}
	for _, o := range objs {
		if m, err := fixture.ObjectMeta(o); err == nil && m.Namespace != "" {
			from[moved(m.Namespace)] = m.Namespace
		}
		if n, ok := o.(*v1.Namespace); ok {
			from[moved(n.Name)] = n.Name
		}
	}
	delete(from, "kube-system")
	keys := make([]string, 0, len(from))
	for k := range from {
		keys = append(keys, k)
	}
	// Longest first: "apps-data" before "apps".
	slices.SortFunc(keys, func(a, b string) int { return len(b) - len(a) })
	return func(s string) string {
		for _, k := range keys {
			s = regexp.MustCompile(`\b`+regexp.QuoteMeta(k)+`\b`).ReplaceAllString(s, from[k])
		}
		return s
	}
}

// moveNamespaces copies objs with every namespace ns renamed moved(ns):
// Namespace objects, each object's metadata.namespace, and every field
// named namespace or namespaces that names one (a claim reference, an
// affinity term's namespaces). Namespaces the fixture leaves implicit
// (default) are created first.
func moveNamespaces(t *testing.T, objs []runtime.Object, moved func(string) string) []runtime.Object {
	t.Helper()
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				switch s := e.(type) {
				case string:
					if k == "namespace" {
						x[k] = moved(s)
					}
				case []any:
					if k == "namespaces" {
						for i, n := range s {
							if n, ok := n.(string); ok {
								s[i] = moved(n)
							}
						}
						continue
					}
					x[k] = walk(e)
				default:
					x[k] = walk(e)
				}
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		}
		return v
	}
	made := map[string]bool{}
	var out, namespaces []runtime.Object
	for _, o := range objs {
		if m, err := fixture.ObjectMeta(o); err == nil && m.Annotations[fixture.DeleteAnnotation] == "true" {
			// A deletion names its object only.
			c := o.DeepCopyObject()
			cm, _ := fixture.ObjectMeta(c)
			if fixture.Namespaced(c) {
				cm.Namespace = moved(cm.Namespace)
			}
			out = append(out, c)
			continue
		}
		data, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		m, _ := doc["metadata"].(map[string]any)
		if ns, ok := o.(*v1.Namespace); ok {
			m["name"] = moved(ns.Name)
			made[moved(ns.Name)] = true
		} else if fixture.Namespaced(o) {
			if _, ok := m["namespace"]; !ok {
				m["namespace"] = ""
			}
		}
		walk(doc)
		data, err = json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		c := reflect.New(reflect.TypeOf(o).Elem()).Interface().(runtime.Object)
		if err := json.Unmarshal(data, c); err != nil {
			t.Fatal(err)
		}
		if m, err := fixture.ObjectMeta(c); err == nil && fixture.Namespaced(c) && !made[m.Namespace] && m.Namespace != "kube-system" {
			made[m.Namespace] = true
			namespaces = append(namespaces, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: m.Namespace}})
		}
		out = append(out, c)
	}
	return append(namespaces, out...)
}
