package anonymize_test

import (
	"context"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/anonymize"
	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

// TestAnonymizedFixturesDecideTheSame anonymizes every embedded fixture and
// runs both: cycle by cycle, the same pod (through the map), the same
// outcome on the same node, the same number of feasible nodes and the same
// plugin rejecting each node; and no original name, namespace, custom label
// key or value, or image is left in the anonymized fixture.
func TestAnonymizedFixturesDecideTheSame(t *testing.T) {
	for _, name := range fixtures.Names() {
		t.Run(name, func(t *testing.T) { decideTheSame(t, name) })
	}
}

// TestAnonymizedGatedFixturesDecideTheSame does the same for the fixtures
// that need a feature gate (pod groups, composite pod groups), each under
// its gates, and compares their pod-group cycles too: the same group
// (through the map), outcome, members in the same order on the same nodes,
// hierarchy, and placement candidates in the same order (the engine orders
// them, orderPlacements) with the same one chosen.
func TestAnonymizedGatedFixturesDecideTheSame(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	if len(fixtures.Gated()) == 0 {
		t.Fatal("no gated fixture: the test would prove nothing")
	}
	for _, name := range fixtures.Gated() {
		t.Run(name, func(t *testing.T) {
			gates, err := featuregates.Parse(fixtures.GatesFor(name))
			if err != nil {
				t.Fatal(err)
			}
			if err := featuregates.Set(gates); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = featuregates.Reset() }()
			decideTheSame(t, name)
		})
	}
}

func decideTheSame(t *testing.T, name string) {
	data, err := fixtures.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	anon, m, err := anonymize.Manifest(name, data)
	if err != nil {
		t.Fatalf("anonymize: %v", err)
	}
	if strings.Contains(string(anon), "# Left out") {
		t.Errorf("the anonymized fixture left objects out:\n%s", anon)
	}
	again, _, err := anonymize.Manifest(name, data)
	if err != nil || string(again) != string(anon) {
		t.Errorf("anonymizing twice gave different output (err %v)", err)
	}
	leaks(t, name, data, anon)
	sameObjects(t, name, anon)
	want, wantGroups := run(t, name, data)
	got, gotGroups := run(t, "anonymized "+name, anon)
	if len(want) < 1 {
		t.Fatalf("%s ran no cycle; the comparison would prove nothing", name)
	}
	if len(got) != len(want) {
		t.Errorf("%d cycles, want %d", len(got), len(want))
	}
	diverged := false
	for i := range min(len(got), len(want)) {
		compare(t, m, want[i], got[i], &diverged)
	}
	if fixtures.GatesFor(name) != "" && len(wantGroups) == 0 {
		t.Fatalf("%s ran no pod-group cycle; the comparison would prove little", name)
	}
	if len(gotGroups) != len(wantGroups) {
		t.Errorf("%d pod-group cycles, want %d", len(gotGroups), len(wantGroups))
	}
	for i := range min(len(gotGroups), len(wantGroups)) {
		compareGroups(t, m, wantGroups[i], gotGroups[i])
	}
	if t.Failed() {
		t.Logf("anonymized:\n%s", anon)
	}
}

// compareGroups checks that the anonymized run's pod-group cycle g decided
// as w did, every name taken through the map.
func compareGroups(t *testing.T, m *anonymize.Map, w, g *recorder.PodGroupCycle) {
	t.Helper()
	ns := w.Group.Namespace
	mapped := func(kind, name string) string {
		if name == "" {
			return ""
		}
		if kind == "Node" {
			if s := m.Node(name); s != "" {
				return s
			}
		} else if s := m.Name(kind, ns, name); s != "" {
			return s
		}
		return "unmapped " + kind + " " + name
	}
	root := "PodGroup"
	if w.Composite() {
		root = "CompositePodGroup"
	}
	type member struct{ Pod, Group, Node, Code string }
	type level struct {
		Kind, Name, Parent string
		Members, Placed    int
	}
	type candidate struct {
		Nodes []string
		Code  string
	}
	type decision struct {
		Group, Result string
		Members       []member
		Hierarchy     []level
		Candidates    []candidate
		Chosen        []string
	}
	decided := func(c *recorder.PodGroupCycle, name func(kind, name string) string) decision {
		d := decision{Group: name(root, c.Group.Name), Result: c.Outcome.Result}
		for _, mb := range c.Members {
			d.Members = append(d.Members, member{name("Pod", mb.Pod.Name), name("PodGroup", mb.PodGroup), name("Node", mb.Node), mb.Code})
		}
		for _, h := range c.Hierarchy {
			d.Hierarchy = append(d.Hierarchy, level{h.Kind, name(h.Kind, h.Name), name("CompositePodGroup", h.Parent), h.Members, h.Placed})
		}
		if p := c.Placements; p != nil {
			for i, cand := range p.Candidates {
				k := candidate{Code: cand.Code}
				for _, n := range cand.Nodes {
					k.Nodes = append(k.Nodes, name("Node", n))
				}
				if i+1 == p.Chosen {
					d.Chosen = k.Nodes
				}
				d.Candidates = append(d.Candidates, k)
			}
		}
		return d
	}
	same := func(_, name string) string { return name }
	if diff := cmp.Diff(decided(w, mapped), decided(g, same)); diff != "" {
		t.Errorf("pod-group cycle %d (%s): (-want +got)\n%s", w.Seq, w.Group.Key(), diff)
	}
}

// sameObjects checks that the anonymized manifest decodes to the objects
// Objects made of it: leaving out what holds nothing (a node's empty
// system info, null fields) changed none of them.
func sameObjects(t *testing.T, name string, anon []byte) {
	t.Helper()
	objs, err := fixture.DecodeManifest("anonymized "+name, anon)
	if err != nil {
		t.Fatal(err)
	}
	data, err := fixtures.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := fixture.DecodeManifest(name, data)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := anonymize.Objects(orig)
	if len(want) != len(objs) {
		t.Fatalf("the anonymized manifest holds %d objects, want %d", len(objs), len(want))
	}
	for i := range want {
		objs[i].GetObjectKind().SetGroupVersionKind(want[i].GetObjectKind().GroupVersionKind())
		if !equality.Semantic.DeepEqual(want[i], objs[i]) {
			t.Errorf("object %d decodes otherwise than it was anonymized: %s", i, cmp.Diff(want[i], objs[i]))
		}
	}
}

// compare checks that the anonymized run's cycle g decided as w did. A
// tie among nodes is broken in the order the parallel filters passed them,
// which differs from run to run of the same fixture (large-cluster's, as
// the README says): once a tie went to another node, only the outcome, the
// number of feasible nodes and the rejections counted by plugin are
// compared.
func compare(t *testing.T, m *anonymize.Map, w, g *recorder.Cycle, diverged *bool) {
	t.Helper()
	node := func(n string) string {
		if n == "" {
			return ""
		}
		if s := m.Node(n); s != "" {
			return s
		}
		return "unmapped " + n
	}
	at := "cycle " + strconv.Itoa(w.Seq) + " (" + w.Pod.Namespace + "/" + w.Pod.Name + ")"
	ns := w.Pod.Namespace
	if s := m.Namespace(ns); s != "" {
		ns = s
	}
	if g.Pod.Namespace != ns {
		t.Errorf("%s: namespace %q, want %q", at, g.Pod.Namespace, ns)
	}
	// A pod a controller made in the run has a name of the run's.
	if s := m.Name("Pod", w.Pod.Namespace, w.Pod.Name); s != "" && g.Pod.Name != s {
		t.Errorf("%s: pod %q, want %q", at, g.Pod.Name, s)
	}
	if !*diverged && w.Selection != nil && len(w.Selection.Top) > 1 && g.Outcome.Node != node(w.Outcome.Node) {
		tied := false
		for _, i := range w.Selection.Top {
			tied = tied || node(w.NodeName(i)) == g.Outcome.Node
		}
		if !tied {
			t.Errorf("%s: bound to %q, not one of the nodes tied", at, g.Outcome.Node)
		}
		*diverged = true
	}
	if *diverged {
		if g.Outcome.Result != w.Outcome.Result {
			t.Errorf("%s: outcome %s, want %s", at, g.Outcome.Result, w.Outcome.Result)
		}
	} else if g.Outcome.Result != w.Outcome.Result || g.Outcome.Node != node(w.Outcome.Node) || g.Outcome.NominatedNode != node(w.Outcome.NominatedNode) {
		t.Errorf("%s: outcome %s %q (nominated %q), want %s %q (nominated %q)", at, g.Outcome.Result, g.Outcome.Node, g.Outcome.NominatedNode,
			w.Outcome.Result, node(w.Outcome.Node), node(w.Outcome.NominatedNode))
	}
	if (g.Filter == nil) != (w.Filter == nil) {
		t.Errorf("%s: filter ran %v, want %v", at, g.Filter != nil, w.Filter != nil)
		return
	}
	if w.Filter == nil {
		return
	}
	if len(g.Filter.Feasible) != len(w.Filter.Feasible) {
		t.Errorf("%s: %d feasible nodes, want %d", at, len(g.Filter.Feasible), len(w.Filter.Feasible))
	}
	rejected := func(c *recorder.Cycle, name func(string) string) map[string]string {
		out := map[string]string{}
		for _, r := range c.Filter.Rejected {
			out[name(c.NodeName(r.Node))] = c.Filter.Plugins[r.Plugin]
		}
		return out
	}
	wr, gr := rejected(w, node), rejected(g, func(s string) string { return s })
	if *diverged {
		count := func(r map[string]string) map[string]int {
			out := map[string]int{}
			for _, p := range r {
				out[p]++
			}
			return out
		}
		if !reflect.DeepEqual(count(gr), count(wr)) {
			t.Errorf("%s: rejections by plugin %v, want %v", at, count(gr), count(wr))
		}
		return
	}
	if !reflect.DeepEqual(gr, wr) {
		t.Errorf("%s: rejected %v, want %v", at, gr, wr)
	}
}

func run(t *testing.T, name string, data []byte) ([]*recorder.Cycle, []*recorder.PodGroupCycle) {
	t.Helper()
	fx, err := fixture.Load(name, data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var mu sync.Mutex
	var cycles []*recorder.Cycle
	var groups []*recorder.PodGroupCycle
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// One filter goroutine: a search that samples (large-cluster's,
	// percentageOfNodesToScore) then visits the same nodes every run, as
	// parallel filters racing do not, so the two runs can be compared.
	cfg, err := engine.LoadConfigFile("")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Parallelism = 1
	e, err := engine.New(ctx, fx, engine.Options{Config: cfg, OnCycle: func(c *recorder.Cycle) {
		mu.Lock()
		cycles = append(cycles, c)
		mu.Unlock()
	}, OnPodGroup: func(g *recorder.PodGroupCycle) {
		mu.Lock()
		groups = append(groups, g)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if _, err := e.Run(ctx); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(cycles, func(a, b *recorder.Cycle) int { return a.Seq - b.Seq })
	slices.SortFunc(groups, func(a, b *recorder.PodGroupCycle) int { return a.Seq - b.Seq })
	return cycles, groups
}

// leaks fails for each original name, namespace, custom label key, label
// value or image that is a string of the anonymized fixture.
func leaks(t *testing.T, name string, original, anon []byte) {
	t.Helper()
	before, err := fixture.DecodeManifest(name, original)
	if err != nil {
		t.Fatal(err)
	}
	after, err := fixture.DecodeManifest("anonymized "+name, anon)
	if err != nil {
		t.Fatalf("the anonymized fixture does not decode: %v", err)
	}
	secret := map[string]bool{}
	for _, obj := range before {
		originals(reflect.ValueOf(obj), "", secret)
	}
	if len(secret) < 3 {
		t.Fatalf("%s: only %v to look for; the check would prove little", name, secret)
	}
	found := map[string]bool{}
	for _, obj := range after {
		strs(reflect.ValueOf(obj), found)
	}
	for s := range secret {
		if found[s] {
			t.Errorf("the anonymized fixture still holds %q", s)
		}
	}
}

// originals collects what names the cluster in v: object names and
// namespaces, custom label keys, label values (but whole numbers and the
// os and arch), images.
func originals(v reflect.Value, field string, out map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			originals(v.Elem(), field, out)
		}
	case reflect.Struct:
		if om, ok := v.Interface().(metav1.ObjectMeta); ok {
			for _, s := range []string{om.Name, om.Namespace} {
				if s != "" && s != "default" && !(len(s) > 7 && s[:7] == "system-") {
					out[s] = true
				}
			}
			labels(om.Labels, out)
			return
		}
		if n := v.FieldByName("Name"); n.IsValid() && n.Kind() == reflect.String && n.String() != "" &&
			(v.Type().Name() == "PodGroupTemplate" || v.Type().Name() == "CompositePodGroupTemplate") {
			out[n.String()] = true
		}
		if ls, ok := v.Interface().(metav1.LabelSelector); ok {
			labels(ls.MatchLabels, out)
			return
		}
		for i := range v.NumField() {
			originals(v.Field(i), v.Type().Field(i).Name, out)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			originals(v.Index(i), field, out)
		}
	case reflect.Map:
		if field == "NodeSelector" {
			labels(v.Interface().(map[string]string), out)
		}
	case reflect.String:
		if field == "Image" && v.String() != "" {
			out[v.String()] = true
		}
	}
}

func labels(l map[string]string, out map[string]bool) {
	for k, v := range l {
		switch k {
		case v1.LabelOSStable, v1.LabelArchStable:
			continue
		}
		if _, err := strconv.Atoi(v); err != nil && v != "" {
			out[v] = true
		}
		if len(k) < 13 || k[len(k)-13:] != "kubernetes.io" && !slices.Contains([]string{"kubernetes.io/hostname", "topology.kubernetes.io/zone"}, k) {
			if !containsKubernetesIO(k) {
				out[k] = true
			}
		}
	}
}

func containsKubernetesIO(k string) bool {
	for i := 0; i+len("kubernetes.io/") <= len(k); i++ {
		if k[i:i+len("kubernetes.io/")] == "kubernetes.io/" {
			return true
		}
	}
	return false
}

// strs collects every string of v, map keys included, but annotations'.
func strs(v reflect.Value, out map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			strs(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).Name == "Annotations" || !v.Type().Field(i).IsExported() {
				continue
			}
			strs(v.Field(i), out)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			strs(v.Index(i), out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			strs(k, out)
			strs(v.MapIndex(k), out)
		}
	case reflect.String:
		out[v.String()] = true
	}
}

var _ runtime.Object = (*v1.Pod)(nil)
