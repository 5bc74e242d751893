package tui

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
	"github.com/schedscope/schedscope/tui/pages/whatif"
)

// fakeWhatIf answers the TUI's what-if calls from fixed cycles and records them.
type fakeWhatIf struct {
	before map[int]*recorder.Cycle
	// after builds the re-run of a cycle with changes; nil answers the
	// cycle unchanged.
	after   func(seq int, changes []recorder.Change) (*recorder.Cycle, error)
	suggest *whatif.SuggestResult
	podYAML string

	runs    [][]recorder.Change
	yamlFor []string
}

var _ whatif.Source = (*fakeWhatIf)(nil)

func (f *fakeWhatIf) PodYAML(c *recorder.Cycle) ([]byte, error) {
	f.yamlFor = append(f.yamlFor, fmt.Sprintf("pod@%d", c.Seq))
	return []byte(f.podYAML), nil
}

func (f *fakeWhatIf) NodeYAML(c *recorder.Cycle, node string) ([]byte, error) {
	f.yamlFor = append(f.yamlFor, fmt.Sprintf("%s@%d", node, c.Seq))
	return []byte("kind: Node\nmetadata:\n  name: " + node + "\n"), nil
}

func (f *fakeWhatIf) Run(c *recorder.Cycle, changes []recorder.Change) (*whatif.Result, error) {
	f.runs = append(f.runs, changes)
	seq := c.Seq
	if f.before[seq] != c {
		return nil, fmt.Errorf("cycle %d is not the recorded one", seq)
	}
	before := c
	after := before
	if f.after != nil {
		var err error
		if after, err = f.after(seq, changes); err != nil {
			return nil, err
		}
	}
	res := &whatif.Result{Seq: seq, Before: before, After: after, Diff: recorder.DiffCycles(before, after)}
	for _, c := range changes {
		res.Changes = append(res.Changes, narrate.Change(c))
	}
	res.Landing = after.Outcome.Node
	return res, nil
}

func (f *fakeWhatIf) Suggest(c *recorder.Cycle) (*whatif.SuggestResult, error) {
	if f.suggest == nil {
		return nil, errors.New("no suggestions\nsecond line")
	}
	r := *f.suggest
	r.Seq = c.Seq
	return &r, nil
}

// whatIfSession is a fixture session of cycles with a fake what-if, sized w×h.
func whatIfSession(t testing.TB, f *fakeWhatIf, w, h int, cycles ...*recorder.Cycle) Model {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir()) // where the edits' directory is made
	m := New(Options{Source: "fixture test.yaml", WhatIf: f})
	t.Cleanup(func() { m.wi.Edits().Close() })
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
	evs := []source.Event{{Header: &recorder.Header{KubernetesVersion: "v1.37.1"}}}
	f.before = map[int]*recorder.Cycle{}
	for _, c := range cycles {
		evs = append(evs, source.Event{Cycle: c})
		f.before[c.Seq] = c
	}
	return send(m, eventsMsg{events: evs})
}

// settle runs the commands a message returns, feeding their messages back,
// as the program would (an editor is not run: its command is returned).
func settleWhatIf(t testing.TB, m Model, cmd tea.Cmd) (Model, tea.Cmd) {
	t.Helper()
	for range 10 {
		if cmd == nil {
			return m, nil
		}
		msg := cmd()
		switch msg.(type) {
		case nil:
			return m, nil
		case tea.BatchMsg:
			return m, cmd
		}
		if fmt.Sprintf("%T", msg) == "tea.execMsg" {
			return m, cmd
		}
		m, cmd = sendCmd(m, msg)
	}
	t.Fatal("commands did not settle")
	return m, nil
}

// press sends one key and settles what it started.
func pressSettle(t testing.TB, m Model, ks ...string) Model {
	t.Helper()
	for _, k := range ks {
		var cmd tea.Cmd
		if s, ok := strings.CutPrefix(k, "text:"); ok {
			m = keys(m, "text:"+s)
			continue
		}
		m, cmd = sendCmd(m, press(k))
		m, _ = settleWhatIf(t, m, cmd)
	}
	return m
}

// stuckCycles are an unschedulable cycle 1 and the cycle where uncordoning
// node "cordoned" puts the pod there.
func stuckCycles() (*recorder.Cycle, *recorder.Cycle) {
	before := makeCycle(1, "stuck").nodes("cordoned", "tainted", "small").
		reject(0, "node(s) were unschedulable").reject(1, "node(s) had untolerated taint(s)").reject(2, "Insufficient cpu").obj()
	after := makeCycle(1, "stuck").nodes("cordoned", "tainted", "small").
		reject(1, "node(s) had untolerated taint(s)").reject(2, "Insufficient cpu").score("NodeResourcesFit", 1, 40).obj()
	after.Start = after.Start.Add(90)
	return before, after
}

// scoredCycles are a bound cycle 1 over three nodes, and the cycle a weight
// change makes: node b overtakes node a.
func scoredCycles() (*recorder.Cycle, *recorder.Cycle) {
	before := makeCycle(1, "web").nodes("a", "b", "c").reject(2, "Insufficient memory").
		score("NodeResourcesFit", 1, 90, 60).score("ImageLocality", 1, 0, 20).obj()
	after := makeCycle(1, "web").nodes("a", "b", "c").reject(2, "Insufficient memory").
		score("NodeResourcesFit", 1, 90, 60).score("ImageLocality", 5, 0, 20).obj()
	return before, after
}

// lastEdit is the file handed to $EDITOR.
func lastEdit(t testing.TB, m Model) string {
	t.Helper()
	path := m.wi.Editing()
	if path == "" {
		t.Fatal("no edit was handed to $EDITOR")
	}
	return path
}

// isReRun tells whether c is listed as a what-if re-run.
func isReRun(m Model, c *recorder.Cycle) bool {
	_, ok := m.wi.Runs().Label(c)
	return ok
}

func TestWhatIfKeysWithoutSource(t *testing.T) {
	rec := loadRecording(t, "unschedulable")
	m := keys(newSession(t, rec, nil, 80, 24), "enter")
	if strings.Contains(screen(m), "w what-if") {
		t.Errorf("a replay's key bar offers w what-if:\n%s", screen(m))
	}
	for _, k := range []string{"w", "S"} {
		got := keys(m, k)
		if wiScreen(got) != nil || got.message.Text != whatif.NoSource {
			t.Errorf("%s in a replay: screen %T, message %q; want no screen and %q", k, wiScreen(got), got.message.Text, whatif.NoSource)
		}
	}
	if help := screen(keys(m, "?")); !strings.Contains(help, whatif.NoSource) {
		t.Errorf("the help screen does not say why what-if is off:\n%s", help)
	}
}

func TestWhatIfWeightRun(t *testing.T) {
	before, after := scoredCycles()
	f := &fakeWhatIf{after: func(int, []recorder.Change) (*recorder.Cycle, error) { return after, nil }}
	m := whatIfSession(t, f, 80, 24, before)
	m = toPhase(t, keys(m, "enter"), cyclepage.Score)
	m = keys(m, "tab") // ImageLocality
	m = pressSettle(t, m, "w", "W")
	if !isScreen[whatif.Input](m) || inputValue(m) != "ImageLocality=" {
		t.Fatalf("W opened screen %T with %q; want the weight prompt with ImageLocality=", wiScreen(m), inputValue(m))
	}
	golden(t, "whatif-weight-80x24", screen(m))
	m = pressSettle(t, m, "text:5", "enter")
	want := [][]recorder.Change{{recorder.SetWeight{Plugin: "ImageLocality", Weight: 5}}}
	if diff := cmp.Diff(want, f.runs); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	if !isScreen[whatif.Diff](m) {
		t.Fatalf("after the run, screen %T; want the diff view", wiScreen(m))
	}
	if len(m.cycles) != 2 || !isReRun(m, m.cycles[1]) {
		t.Fatalf("the re-run is not listed: %d cycles", len(m.cycles))
	}
	golden(t, "whatif-diff-80x24", screen(m))
	golden(t, "whatif-diff-80x24-words", screen(keys(m, "v")))

	// enter opens the re-run; esc lists it beside the original.
	m = keys(m, "enter")
	if m.view.Cycle() != m.cycles[1] || !strings.Contains(screen(m), "cycle 1' what-if") {
		t.Errorf("enter did not open the re-run:\n%s", screen(m))
	}
	m = keys(m, "esc")
	golden(t, "whatif-list-80x24", screen(m))

	// w on the re-run stacks: its change and the new one.
	m = keys(m, "enter")
	m = pressSettle(t, m, "w")
	golden(t, "whatif-menu-stacked-80x24", screen(m))
	m = pressSettle(t, m, "p", "text:NodeResourcesFit:score", "enter")
	if len(f.runs) != 2 || len(f.runs[1]) != 2 || f.runs[1][1] != recorder.Change(recorder.Disable{Plugin: "NodeResourcesFit", Point: "score"}) {
		t.Errorf("the second run's changes = %+v; want the weight, then NodeResourcesFit disabled at score", f.runs)
	}
	if got := m.list.Number(2); got != "1''" {
		t.Errorf("the second re-run is numbered %q, want 1''", got)
	}
	if rows := m.list.Rows(); len(rows) != 3 || rows[1] != 1 && rows[1] != 2 {
		t.Errorf("rows = %v, want the re-runs after cycle 1", rows)
	}

	// q would lose the re-runs: it asks; another key stays, q again quits.
	m = keys(m, "esc", "esc", "esc")
	for _, quit := range []string{"q", ":q"} {
		asked, cmd := sendCmd(m, press("q"))
		if quit == ":q" {
			asked, cmd = sendCmd(keys(m, ":", "text:q"), press("enter"))
		}
		if cmd != nil || !strings.Contains(screen(asked), "quit, losing 2 what-ifs? q quits, other keys stay") {
			t.Fatalf("%s with two re-runs: cmd %v; want it to ask first:\n%s", quit, cmd, screen(asked))
		}
		stayed, cmd := sendCmd(asked, press("j"))
		if cmd != nil || stayed.quitting || stayed.list.Selected() != asked.list.Selected() {
			t.Errorf("%s, then j: cmd %v, still asking %v, selection moved %v; want it to stay, doing nothing", quit, cmd, stayed.quitting, stayed.list.Selected() != asked.list.Selected())
		}
		if _, cmd := sendCmd(asked, press("q")); cmd == nil || fmt.Sprint(cmd()) != fmt.Sprint(tea.Quit()) {
			t.Errorf("%s, then q: want it to quit", quit)
		}
	}
	if _, cmd := sendCmd(keys(m, ":", "text:q!"), press("enter")); cmd == nil || fmt.Sprint(cmd()) != fmt.Sprint(tea.Quit()) {
		t.Errorf(":q! should quit without asking")
	}
}

func TestWhatIfDiffWide(t *testing.T) {
	before, after := scoredCycles()
	f := &fakeWhatIf{after: func(int, []recorder.Change) (*recorder.Cycle, error) { return after, nil }}
	m := whatIfSession(t, f, 200, 50, before)
	m = toPhase(t, keys(m, "enter"), cyclepage.Score)
	m = pressSettle(t, m, "w", "W", "backspace", "text:=5", "enter")
	if !isScreen[whatif.Diff](m) {
		t.Fatalf("screen %T, want the diff view (runs %+v, message %q)", wiScreen(m), f.runs, m.message.Text)
	}
	golden(t, "whatif-diff-200x50", screen(m))
	m = keys(m, "enter", "esc")
	golden(t, "whatif-list-200x50", screen(m))
	if m = send(m, tea.MouseWheelMsg{Button: tea.MouseWheelDown}); m.list.Selected() != 1 {
		t.Errorf("the wheel over the list moved it to %d", m.list.Selected())
	}
	m = pressSettle(t, m, "w", "d")
	if !isScreen[whatif.Diff](m) {
		t.Fatalf("w d on the re-run: screen %T; want its diff again", wiScreen(m))
	}
	if m = send(m, tea.MouseWheelMsg{Button: tea.MouseWheelDown}); wiScreen(m).(whatif.Diff).Model().Cursor() != 1 {
		t.Errorf("the wheel over the diff moved its cursor to %d, want 1", wiScreen(m).(whatif.Diff).Model().Cursor())
	}
}

func TestWhatIfMenu(t *testing.T) {
	before, _ := stuckCycles()
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		f := &fakeWhatIf{}
		m := whatIfSession(t, f, size[0], size[1], before)
		m = keys(m, "enter", "w")
		// The menu acts on the node and the plugin selected.
		if got := screen(m); !isScreen[whatif.Menu](m) || !strings.Contains(got, "edit node cordoned in $EDITOR") || !strings.Contains(got, "disable a plugin (NodeResourcesFit at filter)") {
			t.Fatalf("menu %T; want it on node cordoned and NodeResourcesFit:\n%s", wiScreen(m), got)
		}
		golden(t, fmt.Sprintf("whatif-menu-%dx%d", size[0], size[1]), screen(m))
		if m = keys(m, "esc"); wiScreen(m) != nil || m.focus != focusCycle {
			t.Errorf("esc: screen %T focus %d; want the menu closed, the cycle open", wiScreen(m), m.focus)
		}
	}
}

func TestWhatIfSuggest(t *testing.T) {
	before, after := stuckCycles()
	uncordon := recorder.PatchNode{Node: "cordoned", Patch: `{"spec":{"unschedulable":false}}`, Why: "uncordon node cordoned"}
	f := &fakeWhatIf{
		after: func(int, []recorder.Change) (*recorder.Cycle, error) { return after, nil },
		suggest: &whatif.SuggestResult{Pod: "default/stuck", Note: "re-ran the cycle 4 times (budget 24) over 3 candidate change(s)", Suggestions: []whatif.Suggestion{
			{Text: "uncordon node cordoned", Node: "cordoned", Change: uncordon},
			{Text: "tolerate the taint team=ml:NoSchedule (on tainted)", Node: "tainted", Change: recorder.PatchPod{Patch: `{"spec":{"tolerations":[{"key":"team","operator":"Exists"}]}}`, Why: "tolerate the taint team=ml:NoSchedule (on tainted)"}},
			{Text: "lower container c's cpu request from 2 to 500m (what small has free), a long text that wraps at 80 columns", Node: "small", Change: recorder.PatchPod{Patch: `{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"500m"}}}]}}`, Why: "lower container c's cpu request from 2 to 500m (what small has free)"}},
		}},
	}
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		m := whatIfSession(t, f, size[0], size[1], before)
		m = pressSettle(t, m, "S")
		if !isScreen[whatif.Suggest](m) {
			t.Fatalf("S from the list: screen %T, message %q; want the suggest list", wiScreen(m), m.message.Text)
		}
		golden(t, fmt.Sprintf("whatif-suggest-%dx%d", size[0], size[1]), screen(keys(m, "j")))
	}
	m := whatIfSession(t, f, 80, 24, before)
	f.runs = nil
	m = pressSettle(t, m, "S", "enter")
	if diff := cmp.Diff([][]recorder.Change{{uncordon}}, f.runs); diff != "" {
		t.Errorf("enter ran (-want +got):\n%s", diff)
	}
	if !isScreen[whatif.Diff](m) {
		t.Fatalf("screen %T, want the diff", wiScreen(m))
	}
	if s := screen(m); !strings.Contains(s, "now fits") || !strings.Contains(s, "✗ NodeResourcesFit") {
		t.Errorf("the diff does not show cordoned becoming feasible:\n%s", s)
	}
	golden(t, "whatif-diff-feasible-80x24", screen(m))
}

func TestWhatIfEditPod(t *testing.T) {
	before, after := stuckCycles()
	fail := true
	f := &fakeWhatIf{podYAML: "kind: Pod\nmetadata:\n  name: stuck\n", after: func(_ int, cs []recorder.Change) (*recorder.Cycle, error) {
		if fail {
			return nil, errors.New(`the edited pod: Pod "stuck" is invalid: spec.containers: Required value`)
		}
		return after, nil
	}}
	m := whatIfSession(t, f, 80, 24, before)
	m, cmd := sendCmd(keys(m, "enter", "w"), press("e"))
	m, cmd = settleWhatIf(t, m, cmd)
	if cmd == nil {
		t.Fatal("e did not start the editor")
	}
	// The editor is not run here: write what it would save.
	path := lastEdit(t, m)
	edited := m.wi.Edited(nil) // what the editor's end sends
	if data, err := os.ReadFile(path); err != nil || string(data) != f.podYAML {
		t.Fatalf("the file to edit holds %q (%v), want the pod's YAML", data, err)
	}
	if err := os.WriteFile(path, []byte("kind: Pod\nmetadata:\n  name: stuck\nspec: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m, _ = settleWhatIf(t, m, func() tea.Msg { return edited })
	if !isScreen[whatif.EditError](m) || !strings.Contains(screen(m), "spec.containers: Required value") {
		t.Fatalf("screen %T; want the edit refused:\n%s", wiScreen(m), screen(m))
	}
	golden(t, "whatif-edit-error-80x24", screen(m))
	if got, ok := f.runs[0][0].(recorder.EditPod); !ok || !strings.Contains(string(got.Edited), "spec: {}") || string(got.Shown) != f.podYAML {
		t.Errorf("the run got %+v, want the edited pod", got)
	}
	// e edits again: the same file, the edit kept.
	m, cmd = sendCmd(m, press("e"))
	if cmd == nil || wiScreen(m) != nil {
		t.Fatalf("e after an error: screen %T, no editor", wiScreen(m))
	}
	fail = false
	m, _ = settleWhatIf(t, m, func() tea.Msg { return edited })
	if !isScreen[whatif.Diff](m) || len(m.cycles) != 2 {
		t.Fatalf("screen %T, %d cycles; want the diff of the re-run", wiScreen(m), len(m.cycles))
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the temporary file %s is left behind (%v)", path, err)
	}
	// An edit of the re-run starts from the edited YAML.
	m = keys(m, "esc", "esc")
	m.list.Select(1)
	m, cmd = sendCmd(keys(m, "enter", "w"), press("e"))
	m, _ = settleWhatIf(t, m, cmd)
	if data, err := os.ReadFile(lastEdit(t, m)); err != nil || !strings.Contains(string(data), "spec: {}") {
		t.Errorf("an edit of the re-run starts from %q (%v); want the edited YAML", data, err)
	}
}

func TestWhatIfEvict(t *testing.T) {
	before, after := stuckCycles()
	before.NodeUse = []recorder.NodeUse{{Node: 2, Generation: 1, Pods: []recorder.PodRef{{Namespace: "default", Name: "batch-1", Priority: 10}, {Namespace: "default", Name: "batch-2"}}}}
	f := &fakeWhatIf{after: func(int, []recorder.Change) (*recorder.Cycle, error) { return after, nil }}
	m := whatIfSession(t, f, 80, 24, before)
	m = keys(m, "enter", "j", "j", "enter") // node detail of small
	m = pressSettle(t, m, "w", "x")
	if !isScreen[whatif.Picker](m) {
		t.Fatalf("x: screen %T, message %q; want the pod picker", wiScreen(m), m.message.Text)
	}
	golden(t, "whatif-evict-80x24", screen(m))
	m = pressSettle(t, m, "j", "enter")
	want := [][]recorder.Change{{recorder.Evict{Pods: []string{"default/batch-2"}}}}
	if diff := cmp.Diff(want, f.runs); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
}

func TestWhatIfScreensCloseWithQ(t *testing.T) {
	before, after := stuckCycles()
	f := &fakeWhatIf{after: func(int, []recorder.Change) (*recorder.Cycle, error) { return after, nil },
		suggest: &whatif.SuggestResult{Pod: "default/stuck"}}
	m := whatIfSession(t, f, 80, 24, before)
	for _, ks := range [][]string{{"w"}, {"S"}, {"enter", "w", "W", "text:P=2", "enter"}} {
		m = pressSettle(t, m, ks...)
		if wiScreen(m) == nil {
			t.Fatalf("%v opened no screen", ks)
		}
		m2, cmd := sendCmd(m, press("q"))
		if wiScreen(m2) != nil || cmd != nil {
			t.Errorf("q on screen %T: screen %T, cmd %v; want the screen closed, the session kept", wiScreen(m), wiScreen(m2), cmd != nil)
		}
		m = m2
	}
}

func TestRecordedUsageLeavesReRunsOut(t *testing.T) {
	before, after := stuckCycles()
	before.NodeUse = []recorder.NodeUse{{Node: 2, Generation: 5, Pods: []recorder.PodRef{{Namespace: "default", Name: "old"}}}}
	after.NodeUse = []recorder.NodeUse{{Node: 2, Generation: 9, Pods: []recorder.PodRef{{Namespace: "default", Name: "forked"}}}}
	f := &fakeWhatIf{after: func(int, []recorder.Change) (*recorder.Cycle, error) { return after, nil }}
	m := whatIfSession(t, f, 80, 24, before)
	m = pressSettle(t, m, "enter", "w", "W", "text:P=2", "enter")
	// A cycle recorded after the re-run was listed.
	next := makeCycle(2, "later").nodes("cordoned", "tainted", "small").obj()
	m = send(m, eventsMsg{events: []source.Event{{Cycle: next}}})
	m = keys(m, "esc", "esc", "G", "enter")
	if m.view.Cycle() != next {
		t.Fatalf("opened %v, want cycle 2", m.view.Cycle().Pod)
	}
	cs, i := m.view.UsageCycles()
	u, _ := recorder.UsageAt(cs, i).Node("small")
	if len(u.Pods) != 1 || u.Pods[0].Name != "old" {
		t.Errorf("cycle 2 sees %v on small, want the recorded pod old, not the fork's", u.Pods)
	}
	m.view.SetCycle(m.cycles, 1) // the re-run
	cs, i = m.view.UsageCycles()
	if u, _ := recorder.UsageAt(cs, i).Node("small"); len(u.Pods) != 1 || u.Pods[0].Name != "forked" {
		t.Errorf("the re-run sees %v on small, want its own forked", u.Pods)
	}
}

func TestReRunHasNoClusterBinding(t *testing.T) {
	before, after := stuckCycles()
	f := &fakeWhatIf{after: func(int, []recorder.Change) (*recorder.Cycle, error) { return after, nil }}
	m := whatIfSession(t, f, 80, 24, before)
	m = send(m, eventsMsg{events: []source.Event{{Observed: &recorder.Observed{Seq: 1, Pod: before.Pod, Node: "tainted", Predicted: ""}}}})
	m = pressSettle(t, m, "w", "W", "text:P=2", "enter", "enter")
	if m.view.Cycle() != m.cycles[1] {
		t.Fatal("the re-run is not open")
	}
	if m.view.Observed() != nil {
		t.Errorf("the re-run shows the cluster's binding of the recorded cycle: %+v", m.view.Observed())
	}
}

// y shows the selected node's YAML, else the pod's, as the source gives
// it, read-only and scrolling; esc closes it. Without a source it says why.
func TestYAMLView(t *testing.T) {
	before, _ := stuckCycles()
	pod := "kind: Pod\nmetadata:\n  name: stuck\n" + strings.Repeat("# padding\n", 40) + "spec: {}\n"
	f := &fakeWhatIf{podYAML: pod}
	m := whatIfSession(t, f, 80, 24, before)

	// From the list: the pod.
	m = pressSettle(t, m, "y")
	got := screen(m)
	if !isScreen[whatif.YAML](m) || !strings.Contains(got, "the pod as cycle 1 saw it") || !strings.Contains(got, "name: stuck") || strings.Contains(got, "spec: {}") {
		t.Fatalf("y on the list: screen %T; want the pod's YAML from its top:\n%s", wiScreen(m), got)
	}
	golden(t, "yaml-pod-80x24", got)
	if m = keys(m, "G"); !strings.Contains(screen(m), "spec: {}") {
		t.Errorf("G in the YAML view does not reach its end:\n%s", screen(m))
	}
	if m = keys(m, "esc"); wiScreen(m) != nil {
		t.Errorf("esc left screen %T", wiScreen(m))
	}

	// Inside the cycle, on the Filter table's selected node: the node.
	m = pressSettle(t, m, "enter", "y")
	if got := screen(m); !strings.Contains(got, "node cordoned as cycle 1 saw it") || !slices.Contains(f.yamlFor, "cordoned@1") {
		t.Errorf("y on node cordoned: asked %q:\n%s", f.yamlFor, got)
	}

	rec := loadRecording(t, "unschedulable")
	m = keys(newSession(t, rec, nil, 80, 24), "y")
	if wiScreen(m) != nil || m.message.Text != whatif.NoSource {
		t.Errorf("y in a replay without a source: screen %T, message %q", wiScreen(m), m.message.Text)
	}
}

// TestSuggestInAnIndexedReplay presses the keys that found a crash: in a
// replay read through its index (the cycles before the shown one are not
// all read), n, enter and S asked every cycle before it for its node use,
// and an unread one was nil. The node use comes from what the replay read
// for the shown cycle, as the node detail's does.
func TestSuggestInAnIndexedReplay(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	cycles := manyCycles(6)
	cycles[0].NodeUse = []recorder.NodeUse{{Node: 1, Generation: 1, Pods: []recorder.PodRef{{Namespace: "default", Name: "earlier"}}}}
	rec := &fakeRecording{cycles: map[int]*recorder.Cycle{}, broken: map[int]error{}}
	var entries []recorder.CycleEntry
	for _, c := range cycles {
		rec.cycles[c.Seq] = c
		entries = append(entries, recorder.EntryOf(c))
	}
	f := &fakeWhatIf{before: rec.cycles, suggest: &whatif.SuggestResult{Pod: "default/pod-3", Note: "re-ran the cycle once"}}
	closed := make(chan source.Event)
	close(closed)
	m := New(Options{Source: "replay test.rec", Recording: rec, Events: closed, WhatIf: f})
	t.Cleanup(func() { m.wi.Edits().Close() })
	m = settle(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = settle(m, eventsMsg{events: []source.Event{{Header: &recorder.Header{}}, {Entries: entries}, {State: &source.EngineState{State: source.StateDone}}, {Done: true}}})
	m = settleKeys(m, "G", "n", "enter")
	if m.view.Cycle() == nil {
		t.Fatalf("no cycle open after n, enter:\n%s", screen(m))
	}
	m = pressSettle(t, m, "S")
	if !isScreen[whatif.Suggest](m) {
		t.Fatalf("S on cycle %d: screen %T, message %q; want the suggest list", m.view.Cycle().Seq, wiScreen(m), m.message.Text)
	}
}

// wiScreen is the what-if screen on top of the stack, nil when none.
func wiScreen(m Model) whatif.Screen {
	if l, ok := m.top().(whatifLayer); ok {
		return l.s
	}
	return nil
}

// isScreen tells whether the what-if screen on top is an S.
func isScreen[S whatif.Screen](m Model) bool {
	_, ok := wiScreen(m).(S)
	return ok
}

// inputValue is the text of the what-if prompt on top, "" when none is.
func inputValue(m Model) string {
	in, _ := wiScreen(m).(whatif.Input)
	return in.Value()
}
