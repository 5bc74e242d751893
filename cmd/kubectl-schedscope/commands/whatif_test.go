package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

const mostAllocatedConfig = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
`

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWhatIfJSON(t *testing.T) {
	out, errOut, code := run(t, "whatif", "-f", "unschedulable.yaml", "--pod", "stuck",
		"--patch-node", `cordoned={"spec":{"unschedulable":false}}`, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Before struct {
			Outcome struct{ Result, Node string } `json:"outcome"`
		} `json:"before"`
		After struct {
			Outcome struct{ Result, Node string } `json:"outcome"`
		} `json:"after"`
		Diff struct {
			BecameFeasible []struct {
				Node   string
				Before struct{ Plugin string }
			} `json:"becameFeasible"`
		} `json:"diff"`
		Landing string `json:"landing"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Before.Outcome.Result != "Unschedulable" || doc.After.Outcome.Node != "cordoned" || doc.Landing != "cordoned" {
		t.Errorf("before %+v, after %+v, landing %q", doc.Before.Outcome, doc.After.Outcome, doc.Landing)
	}
	if len(doc.Diff.BecameFeasible) != 1 || doc.Diff.BecameFeasible[0].Node != "cordoned" || doc.Diff.BecameFeasible[0].Before.Plugin != "NodeUnschedulable" {
		t.Errorf("diff.becameFeasible = %+v, want cordoned, was rejected by NodeUnschedulable", doc.Diff.BecameFeasible)
	}
}

func TestWhatIfErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"whatif"}, "--pod is required"},
		{[]string{"whatif", "--pod", "web", "--patch-node", "node-a"}, "want NAME=PATCH"},
		{[]string{"whatif", "--pod", "web", "--set-weight", "ImageLocality"}, "want PLUGIN=N"},
		{[]string{"whatif", "--pod", "ghost"}, `pod "ghost" got no scheduling cycle`},
		{[]string{"whatif", "--pod", "web", "--patch-pod", `{"spec":{"nodeSelectr":{}}}`}, `unknown field "spec.nodeSelectr"`},
		{[]string{"whatif", "--pod", "web", "--remove-node", "node-z"}, `remove node node-z: no node "node-z"`},
		{[]string{"whatif", "--pod", "web", "--disable", "Foo"}, `no plugin named "Foo"`},
		{[]string{"whatif", "--pod", "web", "--with-config", "/nonexistent.yaml"}, "--with-config"},
		{[]string{"whatif", "--pod", "web", "--cycle", "99"}, "there is no cycle 99"},
		{[]string{"whatif", "--pod", "web", "--cycle", "2"}, "cycle 2 schedules pod default/api"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code != 1 || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stderr %q: want exit 1 and one line containing %q", code, errOut, tt.want)
			}
		})
	}
}

func TestSuggestText(t *testing.T) {
	out, errOut, code := run(t, "suggest", "-f", "unschedulable.yaml", "--pod", "stuck")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"uncordon node cordoned (kubectl uncordon cordoned) → lands on cordoned",
		`--patch-node 'cordoned={"spec":{"unschedulable":false}}'`,
		"tolerate the taint team=ml:NoSchedule (on tainted) → lands on tainted",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// diff exits 0 when nothing differs, 1 when something does, 2 on error.
func TestDiffExitCodes(t *testing.T) {
	most := writeTemp(t, "most.yaml", mostAllocatedConfig)
	same := writeTemp(t, "default.yaml", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n")
	out, errOut, code := run(t, "diff", "--with-config", most)
	if code != 1 || !strings.Contains(out, "default/web: node-a  →  node-b") || errOut != "" {
		t.Errorf("default vs MostAllocated: exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	out, errOut, code = run(t, "diff", "--with-config", same)
	if code != 0 || !strings.Contains(out, "0 of 4 pod(s) changed") {
		t.Errorf("default vs default: exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	_, errOut, code = run(t, "diff", "--with-config", "/nonexistent.yaml")
	if code != 2 || !strings.Contains(errOut, "nonexistent") {
		t.Errorf("missing config: exit %d, stderr %q, want 2", code, errOut)
	}
	_, errOut, code = run(t, "diff", "only-one.rec")
	if code != 2 || !strings.Contains(errOut, "two recordings") {
		t.Errorf("one argument: exit %d, stderr %q, want 2", code, errOut)
	}
	// Two recordings: the same fixture recorded twice does not differ.
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.rec"), filepath.Join(dir, "b.rec")
	for _, p := range []string{a, b} {
		if _, errOut, code := run(t, "record", "-o", p); code != 0 {
			t.Fatalf("record: %s", errOut)
		}
	}
	c := filepath.Join(dir, "c.rec")
	if _, errOut, code := run(t, "record", "--config", most, "-o", c); code != 0 {
		t.Fatalf("record: %s", errOut)
	}
	if out, errOut, code := run(t, "diff", a, b); code != 0 {
		t.Errorf("a vs b: exit %d, stderr %q\n%s", code, errOut, out)
	}
	out, errOut, code = run(t, "diff", a, c, "-o", "json")
	if code != 1 {
		t.Fatalf("a vs c: exit %d, stderr %q", code, errOut)
	}
	var doc struct {
		Pods []struct {
			Pod     string
			A, B    struct{ Node string }
			Changed bool
			Diff    *struct {
				Winner struct{ Before, After string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	changed := 0
	for _, p := range doc.Pods {
		if p.Changed {
			changed++
			if p.Pod != "default/web" || p.A.Node != "node-a" || p.B.Node != "node-b" || p.Diff == nil || p.Diff.Winner.After != "node-b" {
				t.Errorf("changed pod %+v", p)
			}
		}
	}
	if changed != 1 || len(doc.Pods) != 4 {
		t.Errorf("%d of %d pods changed, want 1 of 4", changed, len(doc.Pods))
	}
}

// A suggestion's what-if command runs the fixture as suggest ran it: with
// burst arrival the cycle numbers differ, and the command must say so.
func TestSuggestCommandKeepsArrival(t *testing.T) {
	fixture := filepath.Join("..", "..", "..", "engine", "testdata", "graceful-victim.yaml")
	out, errOut, code := run(t, "suggest", "-f", fixture, "--arrival", "burst", "--pod", "small")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "--copy-node") {
			line = strings.TrimSpace(l)
		}
	}
	if !strings.Contains(line, " --arrival burst ") {
		t.Fatalf("no what-if command with --arrival burst for the copy-node suggestion:\n%s", out)
	}
	args := shellSplit(t, strings.TrimPrefix(line, "kubectl schedscope "))
	out, errOut, code = run(t, args...)
	if code != 0 || !strings.Contains(out, "after:  bound to node-1-copy") {
		t.Errorf("%v: exit %d, stderr %q, output:\n%s", args, code, errOut, out)
	}
}

// shellSplit splits a command line whose words shellQuote quoted.
func shellSplit(t *testing.T, s string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	quoted, inWord := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, w.String())
				w.Reset()
			}
			inWord = false
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// A configuration compared with itself is the same on every embedded
// fixture, every time: large-cluster.yaml samples 420 of 1 000 nodes, where
// kube-scheduler's parallel filter used to make diff report changes in
// most runs. The large fixture is compared ten times, the others twice.
func TestDiffOfAConfigurationWithItself(t *testing.T) {
	same := writeTemp(t, "same.yaml", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n")
	for _, name := range fixtures.Names() {
		times := 2
		if name == "large-cluster.yaml" {
			times = 10
		}
		for i := range times {
			out, errOut, code := run(t, "diff", "-f", name, "--with-config", same)
			if code != 0 || !strings.Contains(out, "note: both runs filter nodes one at a time") {
				t.Errorf("%s, run %d: exit %d, stderr %q, output:\n%s", name, i+1, code, errOut, out)
				break
			}
		}
	}
}

// On a sampled cycle, the run and the change's re-run both filter in one
// goroutine: the recorded cycle is the baseline, not re-run, and a what-if
// that changes nothing finds nothing changed.
func TestWhatIfSampledConfigChange(t *testing.T) {
	out, errOut, code := run(t, "whatif", "-f", "large-cluster.yaml", "--pod", "job-03", "--set-weight", "NodeResourcesFit=5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"sampled search", "before and after both filter in one goroutine", "before: bound to worker-", "after:  bound to worker-", "set the Score weight of NodeResourcesFit to 5"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	out, errOut, code = run(t, "whatif", "-f", "large-cluster.yaml", "--pod", "job-03", "--set-weight", "NodeResourcesFit=1", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Sampled, BeforeRerun bool
		Diff                 recorder.CycleDiff
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.Sampled || doc.BeforeRerun {
		t.Errorf("sampled %v, before re-run %v: want the recorded sampled cycle as the baseline", doc.Sampled, doc.BeforeRerun)
	}
	if !doc.Diff.Same {
		t.Errorf("the weight it already has changed the cycle: %+v", doc.Diff)
	}
}
