package commands

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// runGroupWhatIf runs whatif --pod-group on the gang fixture with -o json
// and decodes its document.
func runGroupWhatIf(t *testing.T, args ...string) export.GroupWhatIf {
	t.Helper()
	out, errOut, code := run(t, append([]string{"whatif", "-f", gangFixture, gangGates, "-o", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc export.GroupWhatIf
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("output is not the document: %v\n%s", err, out)
	}
	if doc.Before == nil || doc.After == nil {
		t.Fatalf("a side has no pod-group cycle:\n%s", out)
	}
	return doc
}

// memberNodes are the tentative nodes of a group cycle's members, by name.
func memberNodes(g *recorder.PodGroupCycle) map[string]string {
	out := map[string]string{}
	for _, m := range g.Members {
		out[m.Pod.Name] = m.Node
	}
	return out
}

// TestWhatIfPodGroupBinds: the gang infer (minCount 3, two of its members
// fit) fails as recorded; with its minCount lowered to 2, a copy of s1, or
// its third member's request lowered, the re-run's group cycle binds it,
// and the bindings say where.
func TestWhatIfPodGroupBinds(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	tests := []struct {
		name  string
		args  []string
		bound []string // members the changed run binds
	}{
		{"min-count", []string{"--min-count", "2"}, []string{"infer-0", "infer-1"}},
		{"copy-node", []string{"--copy-node", "s1"}, []string{"infer-0", "infer-1", "infer-2"}},
		{"member request", []string{"--patch-pod", `infer-2={"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"300m"}}}]}}`}, []string{"infer-0", "infer-1", "infer-2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := runGroupWhatIf(t, append([]string{"--pod-group", "infer"}, tt.args...)...)
			if doc.Before.Outcome.Result != recorder.ResultUnschedulable || len(doc.Before.Reverted()) != 2 {
				t.Errorf("before: %s with %d reverted placement(s), want Unschedulable with 2", doc.Before.Outcome.Result, len(doc.Before.Reverted()))
			}
			if doc.After.Outcome.Result != recorder.ResultBound {
				t.Fatalf("after: %s (%s), want Bound", doc.After.Outcome.Result, doc.After.Outcome.Message)
			}
			for _, m := range tt.bound {
				node := doc.BindingsAfter["default/"+m]
				if node == "" || memberNodes(doc.After)[m] != node {
					t.Errorf("%s bound on %q, its tentative node %q: want bound where the group cycle put it", m, node, memberNodes(doc.After)[m])
				}
				if doc.BindingsBefore["default/"+m] != "" {
					t.Errorf("%s bound before the change on %s", m, doc.BindingsBefore["default/"+m])
				}
			}
			if len(doc.Changes) != 1 || doc.Changes[0].Args[0] != tt.args[0] {
				t.Errorf("changes %+v: want the one given, as %s", doc.Changes, tt.args[0])
			}
		})
	}
}

// TestWhatIfPodGroupUnchanged: with no change, the fixture rebuilt and run
// again gives the group's cycle as the unchanged run and as explain's
// recording have it: same outcome and message, same members on the same
// nodes, the same placements reverted.
func TestWhatIfPodGroupUnchanged(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	doc := runGroupWhatIf(t, "--pod-group", "infer")
	b, a := doc.Before, doc.After
	if b.Outcome != a.Outcome || b.MinCount != a.MinCount || b.Policy != a.Policy {
		t.Errorf("before %+v minCount %d, after %+v minCount %d: want the same", b.Outcome, b.MinCount, a.Outcome, a.MinCount)
	}
	if want := map[string]string{"infer-0": "s1", "infer-1": "s2", "infer-2": ""}; !maps.Equal(memberNodes(b), want) || !maps.Equal(memberNodes(a), want) {
		t.Errorf("members before %v, after %v: want %v", memberNodes(b), memberNodes(a), want)
	}
	if got, want := narrate.Placements(a.Reverted()), narrate.Placements(b.Reverted()); got != want {
		t.Errorf("reverted after %q, before %q", got, want)
	}
	if !strings.Contains(a.Outcome.Message, "minCount (3) cannot be satisfied: 2 scheduled") {
		t.Errorf("outcome message %q: want the scheduler's minCount message", a.Outcome.Message)
	}
	// The same as the recording explain makes of the fixture.
	out, errOut, code := run(t, "explain", "-f", gangFixture, gangGates, "-o", "json")
	if code != 0 {
		t.Fatalf("explain: exit %d: %s", code, errOut)
	}
	var rec struct {
		PodGroups []*recorder.PodGroupCycle `json:"podGroups"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	var recorded *recorder.PodGroupCycle
	for _, g := range rec.PodGroups {
		if g.Group.Name == "infer" {
			recorded = g
		}
	}
	if recorded == nil || recorded.Outcome != a.Outcome || !maps.Equal(memberNodes(recorded), memberNodes(a)) {
		t.Errorf("explain recorded infer's cycle as %+v, whatif's unchanged run %+v", recorded, a)
	}
}

// TestWhatIfPodGroupText: the text output sets the two cycles side by
// side; a change that cannot be made, or a group flag on a pod's cycle,
// is one line naming the flag.
func TestWhatIfPodGroupText(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	out, errOut, code := run(t, "whatif", "-f", gangFixture, gangGates, "--pod-group", "pg/infer", "--min-count", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{
		"whatif: pod group default/infer in ",
		"change: set the gang's minCount to 2\n",
		"  policy    gang, minCount 3              gang, minCount 2\n",
		"  result    Unschedulable                 Bound\n",
		"  infer-0   s1, reverted                  s1, bound\n",
		"  reverted  infer-0 on s1, infer-1 on s2  none\n",
		"  minCount 3 was not met: 2 of the 3 member(s) tried fit",
		"the change turns the group from Unschedulable to Bound\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	for _, tt := range []struct {
		args    []string
		wantErr string
	}{
		{[]string{"--pod-group", "infer", "--min-count", "0"}, `--min-count "0": want a whole number, 1 or more`},
		{[]string{"--pod-group", "infer", "--copy-node", "s9"}, `--copy-node s9=s9-copy: no node "s9"`},
		{[]string{"--pod-group", "infer", "--patch-pod", `infr-2={"spec":{}}`}, `--patch-pod infr-2={"spec":{}}: no member "infr-2" in the group (its members: infer-0, infer-1, infer-2)`},
		{[]string{"--pod-group", "infer", "--patch-pod", `{"spec":{}}`}, `--patch-pod {"spec":{}}: name the member to patch (MEMBER=PATCH)`},
		{[]string{"--pod-group", "infer", "--evict", "infer-0"}, `--evict infer-0: pod "infer-0" is pending, not placed`},
		{[]string{"--pod-group", "infer", "--pod", "infer-0"}, "--pod and --cycle name a pod's cycle: --pod-group re-runs the whole fixture"},
		{[]string{"--pod", "infer-0", "--min-count", "2"}, "--min-count changes a pod group: give --pod-group"},
		{[]string{"--pod", "infer-0", "--patch-pod", `infer-1={"spec":{}}`}, `names pod "infer-1": a cycle's re-run patches its own pod`},
		{[]string{"--pod-group", "nope"}, `no PodGroup "nope" in `},
		{[]string{"--pod", "infer-0", "--copy-node", "s1"}, "infer-0 is a member of pod group infer, scheduled in the group's pod-group cycle, which a re-run of one cycle does not make; whatif --pod-group infer re-runs the whole fixture"},
	} {
		_, errOut, code := run(t, append([]string{"whatif", "-f", gangFixture, gangGates}, tt.args...)...)
		if code == 0 || !strings.Contains(errOut, tt.wantErr) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q: want one line with %q", tt.args, code, errOut, tt.wantErr)
		}
	}
}

// TestSuggestPodGroupTryLinesBind: each `try:` line suggest --pod-group
// prints is a whatif --pod-group command that runs, and in it the group
// binds.
func TestSuggestPodGroupTryLinesBind(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	out, errOut, code := run(t, "suggest", "-f", gangFixture, gangGates, "--pod-group", "infer")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var tries []string
	for _, line := range strings.Split(out, "\n") {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "try: kubectl schedscope "); ok {
			tries = append(tries, cmd)
		}
	}
	if len(tries) != 3 {
		t.Fatalf("%d try lines, want one for each of the 3 suggestions:\n%s", len(tries), out)
	}
	for _, line := range tries {
		args := shellSplit(t, line)
		if args[0] != "whatif" || !slices.Contains(args, "--pod-group") {
			t.Fatalf("try line %q is not whatif --pod-group", line)
		}
		out, errOut, code := run(t, append(args, "-o", "json")...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", line, code, errOut)
		}
		var doc export.GroupWhatIf
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.After == nil || doc.After.Outcome.Result != recorder.ResultBound {
			t.Errorf("%s: the group's cycle after is %+v, want Bound", line, doc.After)
		}
	}
}

// TestSuggestPodGroupEvictTryLineBinds: for a gang that fits only where
// running pods it may not preempt are (engine/testdata/gang-victims.yaml),
// suggest --pod-group names the pods to evict, and its try line is a
// whatif --pod-group --evict … in which the gang binds.
func TestSuggestPodGroupEvictTryLineBinds(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	fx := filepath.Join("..", "..", "..", "engine", "testdata", "gang-victims.yaml")
	out, errOut, code := run(t, "suggest", "-f", fx, gangGates, "--pod-group", "hi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	const want = "evict cache on s2 (priority 100), web-1 on s1 (priority 0), none of which the members may preempt: hi-0 → s1, hi-1 → s2"
	if !strings.Contains(out, want) {
		t.Errorf("suggest does not say %q:\n%s", want, out)
	}
	var try string
	for _, line := range strings.Split(out, "\n") {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "try: kubectl schedscope "); ok && strings.Contains(cmd, "--evict") {
			try = cmd
		}
	}
	if try == "" {
		t.Fatalf("no try line evicts:\n%s", out)
	}
	args := shellSplit(t, try)
	if n := strings.Count(try, "--evict "); n != 2 {
		t.Errorf("try line %q evicts %d pods, want 2", try, n)
	}
	out, errOut, code = run(t, append(args, "-o", "json")...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", try, code, errOut)
	}
	var doc export.GroupWhatIf
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Before == nil || doc.Before.Outcome.Result == recorder.ResultBound || doc.After == nil || doc.After.Outcome.Result != recorder.ResultBound {
		t.Errorf("%s: before %+v, after %+v: want unbound, then Bound", try, doc.Before, doc.After)
	}
}
