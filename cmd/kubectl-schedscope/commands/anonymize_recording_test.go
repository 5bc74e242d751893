package commands

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/engine/anonymize"
	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/fixtures/charts"
	"github.com/schedscope/schedscope/recorder"
)

var updateVocabulary = flag.Bool("update-vocabulary", false, "add the words TestAnonymizedRecordings finds redacted to engine/anonymize/vocabulary.txt")

// recordedRun is one run the anonymized recordings are checked on: an
// embedded fixture, a lesson's fixture under its profile and gates, or a
// rendered chart.
type recordedRun struct {
	name    string
	fixture string // a path or an embedded name
	data    []byte
	args    []string
}

func recordedRuns(t *testing.T) []recordedRun {
	var runs []recordedRun
	for _, name := range fixtures.Names() {
		data, err := fixtures.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, recordedRun{name: name, fixture: name, data: data})
	}
	for _, name := range fixtures.Gated() {
		data, err := fixtures.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, recordedRun{name: "gated/" + name, fixture: name, data: data, args: []string{"--feature-gates=" + fixtures.GatesFor(name)}})
	}
	dir := t.TempDir()
	for _, name := range fixtures.LessonNames() {
		l, err := fixtures.ReadLesson(name)
		if err != nil {
			t.Fatal(err)
		}
		data, err := fixtures.Read(l.Fixture)
		if err != nil {
			t.Fatal(err)
		}
		r := recordedRun{name: "lesson/" + name, fixture: l.Fixture, data: data}
		if l.Config != "" {
			path := filepath.Join(dir, name+"-config.yaml")
			if err := os.WriteFile(path, []byte(l.Config), 0o600); err != nil {
				t.Fatal(err)
			}
			r.args = append(r.args, "--config", path)
		}
		if l.FeatureGates != "" {
			r.args = append(r.args, "--feature-gates="+l.FeatureGates)
		}
		runs = append(runs, r)
	}
	// A public chart rendered into its own namespace (monitoring).
	if data, err := charts.Manifest(charts.KubeStateMetrics()); err != nil {
		t.Errorf("rendering kube-state-metrics: %v", err)
	} else {
		path := filepath.Join(dir, "kube-state-metrics.yaml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, recordedRun{name: "chart/kube-state-metrics", fixture: path, data: data})
	}
	return runs
}

// TestAnonymizedRecordings records every embedded fixture, every lesson
// and a public chart in its own namespace, anonymizes each recording and
// checks that: no original name (a namespace, a pod's, a node's, an
// owner's, a custom label key or value) is a word of the output; replay
// -o json of both is the same document (the same cycles, verdicts and
// scores) once each string of the original is taken to its stand-in, one
// to one; and nothing was redacted: every word the scheduler wrote is in
// the vocabulary (-update-vocabulary adds the words it finds missing,
// to be read before committing: none may be a name).
func TestAnonymizedRecordings(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	dir := t.TempDir()
	missing := map[string][]string{}
	for _, r := range recordedRuns(t) {
		t.Run(r.name, func(t *testing.T) {
			defer func() { _ = featuregates.Reset() }()
			src := filepath.Join(dir, strings.ReplaceAll(r.name, "/", "_")+".rec")
			if _, errOut, code := run(t, append([]string{"record", "-f", r.fixture, "-o", src}, r.args...)...); code != 0 {
				t.Fatalf("record: %s", errOut)
			}
			_ = featuregates.Reset()
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			rw, err := anonymize.ReadRecording(src, bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := rw.Write(&out); err != nil {
				t.Fatal(err)
			}
			for _, w := range rw.Text().Unknown() {
				missing[w] = append(missing[w], r.name)
			}
			if n := rw.Text().Redactions(); n != 0 && !*updateVocabulary {
				t.Errorf("%d words redacted, none expected (the vocabulary misses %v; see -update-vocabulary)", n, rw.Text().Unknown())
			}
			anon := filepath.Join(dir, strings.ReplaceAll(r.name, "/", "_")+".anon.rec")
			if err := os.WriteFile(anon, out.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			secrets := originalNames(t, r, src)
			if len(secrets) < 3 {
				t.Fatalf("only %v to look for: the check would prove little", secrets)
			}
			// A name that is also a word the scheduler writes (a label
			// value "spread", as in "pod topology spread constraints")
			// may stay as that word in free text; it must not stay a
			// string of its own (a name's field).
			words := outputWords(out.Bytes())
			for _, s := range slices.Sorted(mapKeys(secrets)) {
				if anonymize.InVocabulary(s) {
					if bytes.Contains(out.Bytes(), []byte(strconv.Quote(s))) {
						t.Errorf("the anonymized recording still holds the string %q", s)
					}
					continue
				}
				if strings.Contains(s, "/") && bytes.Contains(out.Bytes(), []byte(s)) || words[s] {
					t.Errorf("the anonymized recording still holds %q", s)
				}
			}
			want := replayJSON(t, src)
			got := replayJSON(t, anon)
			// The source says where the run came from: the fixture's
			// path, its digest; the anonymized one says neither.
			source := got.(map[string]any)["header"].(map[string]any)["source"]
			wantSource := map[string]any{"kind": "fixture", "name": "anonymized"}
			if want.(map[string]any)["header"].(map[string]any)["source"].(map[string]any)["config"] != nil {
				wantSource["config"] = "anonymized"
			}
			if d := cmp.Diff(wantSource, source); d != "" {
				t.Errorf("the anonymized header's source (-want +got):\n%s", d)
			}
			delete(want.(map[string]any)["header"].(map[string]any), "source")
			delete(got.(map[string]any)["header"].(map[string]any), "source")
			b := &bijection{to: map[string]string{}, from: map[string]string{}}
			b.same(t, "$", want, got)
		})
	}
	if *updateVocabulary && len(missing) > 0 {
		path := filepath.Join("..", "..", "..", "engine", "anonymize", "vocabulary.txt")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		words := strings.Fields(string(data))
		for w, in := range missing {
			t.Logf("adding %q (from %s)", w, strings.Join(in, ", "))
			words = append(words, w)
		}
		slices.Sort(words)
		words = slices.Compact(words)
		if err := os.WriteFile(path, []byte(strings.Join(words, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// outputWords are the words of a recording's bytes: runs of the
// characters names are made of.
func outputWords(data []byte) map[string]bool {
	out := map[string]bool{}
	for _, w := range regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9._-]*`).FindAll(data, -1) {
		out[strings.TrimRight(string(w), ".-_")] = true
	}
	return out
}

// originalNames are the names the run's cluster is told by: from its
// fixture, every object's name and namespace, custom label keys and label
// values (selectors' too); from its recording, every pod, namespace, node
// and owner. Kept by the rules: the default and kube-* namespaces,
// system-* priority classes, Kubernetes' own label keys and the values
// kept (numbers, the os and arch). "true" and "false", as label values,
// are also JSON's words.
func originalNames(t *testing.T, r recordedRun, src string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	add := func(s string) {
		switch {
		case s == "", s == "default", strings.HasPrefix(s, "kube-"), strings.HasPrefix(s, "system-"), s == "true", s == "false":
			return
		}
		if _, err := strconv.ParseInt(s, 10, 64); err == nil {
			return
		}
		out[s] = true
	}
	labels := func(m map[string]any) {
		for k, v := range m {
			if !strings.Contains(k, "kubernetes.io") && !strings.Contains(k, "k8s.io") && !slices.Contains([]string{"pod-template-hash", "controller-revision-hash", "controller-uid", "job-name"}, k) {
				add(k)
			}
			if s, ok := v.(string); ok && !slices.Contains([]string{"kubernetes.io/os", "kubernetes.io/arch", "pod-template-hash", "controller-revision-hash"}, k) {
				add(s)
			}
		}
	}
	var walk func(v any, field string)
	walk = func(v any, field string) {
		switch v := v.(type) {
		case map[string]any:
			if field == "labels" || field == "matchLabels" || field == "nodeSelector" {
				labels(v)
				return
			}
			if field == "metadata" {
				for _, k := range []string{"name", "namespace"} {
					if s, ok := v[k].(string); ok {
						add(s)
					}
				}
			}
			for k, e := range v {
				if k != "annotations" {
					walk(e, k)
				}
			}
		case []any:
			for _, e := range v {
				walk(e, field)
			}
		}
	}
	objs, err := fixture.DecodeManifest(r.name, r.data)
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range objs {
		b, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		walk(doc, "")
	}
	rec, err := recorder.LoadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rec.Cycles {
		add(c.Pod.Name)
		add(c.Pod.Namespace)
		if c.Pod.Owner != nil {
			add(c.Pod.Owner.Name)
		}
		if c.Nodes != nil {
			for _, n := range c.Nodes.Names {
				add(n)
			}
		}
	}
	return out
}

func replayJSON(t *testing.T, path string) any {
	t.Helper()
	out, errOut, code := run(t, "replay", path, "--no-tui", "-o", "json")
	if code != 0 {
		t.Fatalf("replay %s -o json: %s", path, errOut)
	}
	var doc any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("replay %s -o json: %v", path, err)
	}
	return doc
}

// A bijection takes each string of one document to the string at the
// same place in another, and fails when a string would go to two, or two
// to one.
type bijection struct {
	to, from map[string]string
	failed   bool
}

func (b *bijection) pair(t *testing.T, at, w, g string) {
	t.Helper()
	// A string goes to one stand-in at one place of the document (all
	// cycles' pods); the same string may be two names of different
	// classes (a Deployment and its budget named alike), each with its
	// stand-in, at different places.
	key := regexp.MustCompile(`\[\d+\]`).ReplaceAllString(at, "[]") + "\x00" + w
	if to, ok := b.to[key]; ok && to != g {
		t.Errorf("%s: %q became %q, elsewhere %q", at, w, g, to)
		return
	}
	if from, ok := b.from[g]; ok && from != w {
		t.Errorf("%s: %q and %q both became %q", at, from, w, g)
		return
	}
	b.to[key], b.from[g] = g, w
	b.to[w] = g // for keys paired by name
}

// verdicts are the fields whose strings are the scheduler's own words,
// which must not change at all.
var verdicts = map[string]bool{"code": true, "result": true, "rule": true, "reason": true, "plugin": true, "phase": true, "kind": true}

// same compares two replay documents: the same shape, the same numbers
// and booleans, the same verdicts, and the strings one to one.
func (b *bijection) same(t *testing.T, at string, w, g any) {
	t.Helper()
	if b.failed {
		return // the first difference says enough
	}
	defer func() { b.failed = b.failed || t.Failed() }()
	switch w := w.(type) {
	case map[string]any:
		gm, ok := g.(map[string]any)
		if !ok || len(gm) != len(w) {
			t.Errorf("%s: %v, want %v", at, g, w)
			return
		}
		keys := slices.Sorted(mapKeys(w))
		gkeys := slices.Sorted(mapKeys(gm))
		if slices.Equal(keys, gkeys) {
			for _, k := range keys {
				b.same(t, at+"."+k, w[k], gm[k])
			}
			return
		}
		// Keys that are names (labels): paired through the strings seen
		// so far, the rest in order.
		var rest []string
		used := map[string]bool{}
		for _, k := range keys {
			if to, ok := b.to[k]; ok && gm[to] != nil {
				used[to] = true
				b.same(t, at+"."+k, w[k], gm[to])
			} else if _, ok := gm[k]; ok {
				used[k] = true
				b.same(t, at+"."+k, w[k], gm[k])
			} else {
				rest = append(rest, k)
			}
		}
		var grest []string
		for _, k := range gkeys {
			if !used[k] {
				grest = append(grest, k)
			}
		}
		for i, k := range rest {
			if i < len(grest) {
				b.pair(t, at+"."+k, k, grest[i])
				b.same(t, at+"."+k, w[k], gm[grest[i]])
			}
		}
	case []any:
		ga, ok := g.([]any)
		if !ok || len(ga) != len(w) {
			t.Errorf("%s: %d elements, want %d", at, len(ga), len(w))
			return
		}
		for i := range w {
			b.same(t, fmt.Sprintf("%s[%d]", at, i), w[i], ga[i])
		}
	case string:
		gs, ok := g.(string)
		if !ok {
			t.Errorf("%s: %v, want a string", at, g)
			return
		}
		field := at[strings.LastIndexAny(at, ".]")+1:]
		if verdicts[field] && gs != w {
			t.Errorf("%s: %q, want %q (a verdict changed)", at, gs, w)
			return
		}
		if _, err := time.Parse(time.RFC3339Nano, w); err == nil {
			if gs != w {
				t.Errorf("%s: %q, want %q", at, gs, w)
			}
			return
		}
		b.pair(t, at, w, gs)
	default:
		if fmt.Sprint(w) != fmt.Sprint(g) {
			t.Errorf("%s: %v, want %v", at, g, w)
		}
	}
}

// TestAnonymizedRecordingNamesGroupsAsTheFixture records each gated
// fixture, anonymizes the recording and the fixture, and checks that each
// group the recording names (a pod-group cycle's group, its hierarchy's
// groups and parents, its members' groups, a queue event's group) has the
// stand-in the anonymized fixture gives the object of that name and kind:
// one rule maps a PodGroup's and a CompositePodGroup's names in both.
func TestAnonymizedRecordingNamesGroupsAsTheFixture(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	for _, name := range fixtures.Gated() {
		t.Run(name, func(t *testing.T) {
			defer func() { _ = featuregates.Reset() }()
			src := filepath.Join(t.TempDir(), "run.rec")
			if _, errOut, code := run(t, "record", "-f", name, "-o", src, "--feature-gates="+fixtures.GatesFor(name)); code != 0 {
				t.Fatalf("record: %s", errOut)
			}
			_ = featuregates.Reset()
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			rw, err := anonymize.ReadRecording(src, bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := rw.Write(&out); err != nil {
				t.Fatal(err)
			}
			manifest, err := fixtures.Read(name)
			if err != nil {
				t.Fatal(err)
			}
			_, m, err := anonymize.Manifest(name, manifest)
			if err != nil {
				t.Fatal(err)
			}
			kinds := objectKinds(t, manifest)
			checked := 0
			check := func(what, ns, orig, got string) {
				t.Helper()
				if orig == "" {
					return
				}
				checked++
				kind := kinds[ns+"/"+orig]
				if kind != recorder.KindPodGroupKind && kind != recorder.KindCompositePodGroup {
					t.Errorf("%s %q is no group of the fixture (%q)", what, orig, kind)
					return
				}
				if want := m.Name(kind, ns, orig); got != want {
					t.Errorf("%s %q (a %s): %q in the recording, %q in the fixture", what, orig, kind, got, want)
				}
			}
			orig, anon := readAll(t, data), readAll(t, out.Bytes())
			if len(orig) != len(anon) {
				t.Fatalf("%d records anonymized, want %d", len(anon), len(orig))
			}
			for i := range orig {
				if q := orig[i].Queue; q != nil && q.PodGroup != nil {
					a := anon[i].Queue
					check("queue event's group", q.PodGroup.Namespace, q.PodGroup.Name, a.PodGroup.Name)
					if q.Pod.Name == q.PodGroup.Name {
						check("queue event's pod (its group)", q.PodGroup.Namespace, q.Pod.Name, a.Pod.Name)
					}
				}
				g := orig[i].PodGroup
				if g == nil {
					continue
				}
				a, ns := anon[i].PodGroup, g.Group.Namespace
				check("pod-group cycle's group", ns, g.Group.Name, a.Group.Name)
				for j, mb := range g.Members {
					check("member's group", ns, mb.PodGroup, a.Members[j].PodGroup)
				}
				for j, h := range g.Hierarchy {
					check("hierarchy's group", ns, h.Name, a.Hierarchy[j].Name)
					check("hierarchy's parent", ns, h.Parent, a.Hierarchy[j].Parent)
				}
			}
			if checked < 3 {
				t.Fatalf("only %d group names checked: the test would prove little", checked)
			}
		})
	}
}

func readAll(t *testing.T, data []byte) []recorder.Record {
	t.Helper()
	rd, err := recorder.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out []recorder.Record
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Kind != recorder.KindNodeSet {
			out = append(out, rec)
		}
	}
}

// objectKinds maps namespace/name to the kind of each object of a
// manifest.
func objectKinds(t *testing.T, manifest []byte) map[string]string {
	t.Helper()
	objs, err := fixture.DecodeManifest("fixture", manifest)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, o := range objs {
		var doc struct {
			Metadata struct {
				Name      string `json:"name"`
				Namespace string `json:"namespace"`
			} `json:"metadata"`
		}
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		ns := doc.Metadata.Namespace
		if ns == "" {
			ns = "default"
		}
		kind := fmt.Sprintf("%T", o)
		out[ns+"/"+doc.Metadata.Name] = kind[strings.LastIndex(kind, ".")+1:]
	}
	return out
}
