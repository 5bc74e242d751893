package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
)

func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	code := Execute(streams, args)
	return out.String(), errOut.String(), code
}

func TestExplainDefaultFixture(t *testing.T) {
	out, errOut, code := run(t, "explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"cycle 1 · pod default/web", "result: bound to node-a",
		"Select host — node-a: highest total score",
		"node-b lost by 45: NodeResourcesFit −46",
		`"0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 Insufficient cpu, 3 Insufficient memory.`,
		"Diagnostic pass",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestExplainJSONFilteredByPod(t *testing.T) {
	out, errOut, code := run(t, "explain", "--pod", "api", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Cycles []struct {
			Pod     recorder.PodRef  `json:"pod"`
			Outcome recorder.Outcome `json:"outcome"`
			Nodes   []string         `json:"nodes"`
		} `json:"cycles"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cycles) != 1 || doc.Cycles[0].Pod.Name != "api" || doc.Cycles[0].Outcome.Node != "node-d" || len(doc.Cycles[0].Nodes) != 4 {
		t.Errorf("cycles %+v", doc.Cycles)
	}
}

func TestRecordThenLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.ssr")
	_, errOut, code := run(t, "record", "-f", "preemption", "-o", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rec, err := recorder.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Cycles) != 2 || rec.Cycles[0].PostFilter == nil || rec.Cycles[1].Outcome.Result != recorder.ResultBound {
		t.Fatalf("recording has %d cycles: %+v", len(rec.Cycles), rec.Cycles)
	}
	if rec.Header.KubernetesVersion != "v1.37.1" || len(rec.Header.Profiles) != 1 {
		t.Errorf("header %+v", rec.Header)
	}
}

func TestBadInputIsOneLineError(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: v1\nkind: Node\nmetadata: {name: x}\nspec: {taintz: []}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown field", []string{"explain", "-f", bad}, `bad.yaml:4: Node: strict decoding error: unknown field "spec.taintz"`},
		{"missing file", []string{"explain", "-f", filepath.Join(dir, "nope.yaml")}, "nope.yaml: no such file"},
		{"bad output", []string{"explain", "-o", "xml"}, `--output must be text, json, yaml, markdown or html, not "xml"`},
		{"markdown where it is not written", []string{"suggest", "--pod", "huge", "-o", "markdown"}, `--output must be text, json or yaml, not "markdown"`},
		{"bad diagnostic", []string{"explain", "--diagnostic", "sometimes"}, "--diagnostic must be always, unschedulable or never"},
		{"record without output", []string{"record"}, "--output (-o) is required"},
		{"unknown flag", []string{"explain", "--frobnicate"}, "unknown flag: --frobnicate"},
		{"unknown pod", []string{"explain", "--pod", "ghost"}, `no cycle for pod "ghost"`},
		{"mistyped pod", []string{"explain", "--pod", "webb"}, `no cycle for pod "webb" in (embedded) default.yaml (did you mean default/web?); its pods are`},
		{"mistyped pod of a what-if", []string{"whatif", "--pod", "webb", "--set-weight", "ImageLocality=3"}, `pod "webb" got no scheduling cycle (did you mean default/web?); its pending pods are`},
		{"a directory of no manifest", []string{"explain", "-f", t.TempDir()}, "is a directory with no manifest (.json, .yaml, .yml file) in it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code == 0 {
				t.Fatal("exit 0")
			}
			if !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("stderr %q, want one line containing %q", errOut, tt.want)
			}
		})
	}
}

// A missing file's name (with its extension, or a path) is a file that is
// not there: one line, not the embedded fixtures' list.
func TestMissingFixtureFileIsOneLine(t *testing.T) {
	for _, name := range []string{"it3.yaml", "it3.yml", filepath.Join("dir", "it3")} {
		_, errOut, code := run(t, "explain", "-f", name)
		if code != 1 || !strings.HasPrefix(errOut, "error: "+name+": no such file, nor an embedded fixture") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("-f %s: exit %d, stderr %q; want one line", name, code, errOut)
		}
	}
}

// TestMistypedFixtureListsWhatEachTeaches: -f with a name that is neither
// a file nor an embedded fixture fails in one error line naming the
// closest, then lists the embedded fixtures with what each teaches.
func TestMistypedFixtureListsWhatEachTeaches(t *testing.T) {
	_, errOut, code := run(t, "explain", "-f", "preemptoin")
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if code != 1 || !strings.HasPrefix(lines[0], "error: preemptoin: no such file, nor an embedded fixture (did you mean preemption?); the embedded fixtures are autoscaler, budgets, default,") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if len(lines) != len(embeddedNames())+2 || lines[1] != "the embedded fixtures (-f NAME), and what each teaches:" {
		t.Fatalf("want the error, a heading and one line per embedded fixture, got:\n%s", errOut)
	}
	found := false
	for _, l := range lines[2:] {
		f := strings.Fields(l)
		if len(f) < 2 {
			t.Errorf("a fixture line says nothing of what it teaches: %q", l)
		}
		found = found || len(f) > 0 && f[0] == "preemption" && strings.Contains(l, "Preemption by priority")
	}
	if !found {
		t.Errorf("no line tells what preemption teaches:\n%s", errOut)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := run(t, "version")
	if code != 0 || !strings.Contains(out, "kube-scheduler v1.37.1") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

// A mistyped subcommand or workload handle is answered in one line with
// what it may have meant.
func TestDidYouMean(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"explian"}, `error: unknown command "explian" for "kubectl schedscope" (did you mean explain?)`},
		{[]string{"replya", "x.rec"}, `(did you mean replay?)`},
		{[]string{"capacity", "-f", "deployment", "deploy/wbe"}, "has no Deployment default/wbe among the objects it starts with (did you mean deploy/web?)"},
		{[]string{"capacity", "-f", "workloads", "deploy/agent"}, "(did you mean ds/agent?)"},
		{[]string{"explain", "-f", "deployment", "--pod", "deploy/wbe#2"}, "no pod of Deployment default/wbe had a scheduling cycle (did you mean deploy/web?)"},
	}
	for _, tc := range tests {
		_, errOut, code := run(t, tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want one line with %q", tc.args, code, errOut, tc.want)
		}
	}
}
