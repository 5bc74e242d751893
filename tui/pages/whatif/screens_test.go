package whatif

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// fakeSource answers the page's calls from fixed cycles and records them.
type fakeSource struct {
	// after is the re-run of any cycle; nil answers the cycle unchanged.
	after   *recorder.Cycle
	failRun error
	suggest *SuggestResult
	podYAML string

	runs    [][]recorder.Change
	yamlFor []string
}

var _ Source = (*fakeSource)(nil)

func (f *fakeSource) PodYAML(c *recorder.Cycle) ([]byte, error) {
	f.yamlFor = append(f.yamlFor, fmt.Sprintf("pod@%d", c.Seq))
	return []byte(f.podYAML), nil
}

func (f *fakeSource) NodeYAML(c *recorder.Cycle, node string) ([]byte, error) {
	f.yamlFor = append(f.yamlFor, fmt.Sprintf("%s@%d", node, c.Seq))
	return []byte("kind: Node\nmetadata:\n  name: " + node + "\n"), nil
}

func (f *fakeSource) Run(c *recorder.Cycle, changes []recorder.Change) (*Result, error) {
	f.runs = append(f.runs, changes)
	if f.failRun != nil {
		return nil, f.failRun
	}
	after := c
	if f.after != nil {
		after = f.after
	}
	res := &Result{Seq: c.Seq, Before: c, After: after, Diff: recorder.DiffCycles(c, after), Landing: after.Outcome.Node}
	for _, ch := range changes {
		res.Changes = append(res.Changes, narrate.Change(ch))
	}
	return res, nil
}

func (f *fakeSource) Suggest(c *recorder.Cycle) (*SuggestResult, error) {
	if f.suggest == nil {
		return nil, errors.New("no suggestions\nsecond line")
	}
	r := *f.suggest
	r.Seq = c.Seq
	return &r, nil
}

// cycle builds cycle 1 of pod default/stuck over nodes cordoned, tainted
// and small, NodeResourcesFit rejecting those in rejected; the others
// are scored by NodeResourcesFit (weight 1) and the first of them bound.
func cycle(rejected ...int) *recorder.Cycle {
	names := []string{"cordoned", "tainted", "small"}
	c := &recorder.Cycle{
		Seq: 1, Pod: recorder.PodRef{Namespace: "default", Name: "stuck"}, Profile: "default-scheduler", Attempt: 1,
		Start:     time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC),
		Nodes:     &recorder.NodeSet{ID: 1, Names: names},
		NodeSetID: 1, NodesToFind: 3,
		PreFilter: &recorder.PreFilterPhase{Code: recorder.CodeSuccess},
		Filter:    &recorder.FilterPhase{Plugins: []string{"NodeName", "NodeResourcesFit"}, Evaluated: 3},
		Score:     &recorder.ScorePhase{},
	}
	for i := range names {
		if slices.Contains(rejected, i) {
			c.Filter.Rejected = append(c.Filter.Rejected, recorder.NodeStatus{Node: i, Plugin: 1, Code: recorder.CodeUnschedulable, Reasons: []string{"Insufficient cpu"}})
			continue
		}
		c.Filter.Feasible = append(c.Filter.Feasible, i)
	}
	c.Score.Nodes = slices.Clone(c.Filter.Feasible)
	if len(c.Score.Nodes) == 0 {
		c.Outcome = recorder.Outcome{Result: recorder.ResultUnschedulable, Message: "0/3 nodes are available"}
		return c
	}
	raw := make([]int64, len(c.Score.Nodes))
	for k := range raw {
		raw[k] = int64(90 - 10*k)
	}
	c.Score.Plugins = []recorder.ScorePlugin{{Name: "NodeResourcesFit", Weight: 1, Raw: raw}}
	c.Score.Totals = slices.Clone(raw)
	node := names[c.Score.Nodes[0]]
	c.Selection = &recorder.Selection{Node: node, Best: raw[0], Top: c.Score.Nodes[:1], Rule: recorder.RuleHighestScore}
	c.Outcome = recorder.Outcome{Result: recorder.ResultBound, Node: node}
	return c
}

// driver plays the root's part for the page: it shows the screen the page
// asks for, hands a screen's asks to Do and feeds the results of commands
// back, as the program would (an editor is not run).
type driver struct {
	t     *testing.T
	p     Model
	shown Screen
	here  Here
	said  []string
	added []*Added
	open  *recorder.Cycle
	// editor is the command that would run $EDITOR, once asked for.
	editor tea.Cmd
}

func newDriver(t *testing.T, src Source, h Here, w, ht int) *driver {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	st := theme.New(true)
	p := New(src, &st, Options{})
	t.Cleanup(func() { p.Edits().Close() })
	p.SetSize(w, ht)
	return &driver{t: t, p: p, here: h}
}

// press sends keys: to the screen shown, else to Start.
func (d *driver) press(ks ...string) {
	d.t.Helper()
	for _, k := range ks {
		msg := keyPress(k)
		var cmd tea.Cmd
		if d.shown == nil {
			if !d.p.Opens(msg) {
				d.t.Fatalf("%s: no screen shown, and it opens none", k)
			}
			d.p, cmd = d.p.Start(msg, d.here)
		} else {
			var ask Ask
			var did tea.Cmd
			d.shown, ask, cmd = d.shown.Update(msg)
			d.p, did = d.p.Do(ask)
			cmd = tea.Batch(cmd, did)
		}
		d.takeOut()
		d.settle(cmd)
	}
}

// settle runs the page's commands and feeds their messages back.
func (d *driver) settle(cmd tea.Cmd) {
	d.t.Helper()
	for range 10 {
		if cmd == nil {
			return
		}
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			// A screen's own command (a cursor's blink) beside the page's.
			for _, c := range b {
				if c == nil {
					continue
				}
				if m := c(); Owns(m) || fmt.Sprintf("%T", m) == "tea.execMsg" {
					cmd, msg = c, m
				}
			}
		}
		if fmt.Sprintf("%T", msg) == "tea.execMsg" {
			d.editor = cmd
			return
		}
		if !Owns(msg) {
			return
		}
		d.p, cmd = d.p.Update(msg)
		d.takeOut()
	}
	d.t.Fatal("commands did not settle")
}

func (d *driver) takeOut() {
	var out Out
	d.p, out = d.p.TakeOut()
	if out.Say != "" {
		d.said = append(d.said, out.Say)
	}
	if out.Added != nil {
		d.added = append(d.added, out.Added)
	}
	if out.Show != nil {
		d.shown = out.Show
	}
	if out.Open != nil {
		d.open = out.Open
		if out.ThenMenu {
			d.shown = d.p.Menu(Here{Cycle: out.Open})
		}
	}
}

// last is the last status message, "" when none.
func (d *driver) last() string {
	if len(d.said) == 0 {
		return ""
	}
	return d.said[len(d.said)-1]
}

func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

// typed presses each letter of s.
func typed(s string) []string {
	var out []string
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

// draw is the screen shown, boxed to w×h as the root lays it out.
func (d *driver) draw(w, h int) string {
	return ansi.Strip(strings.Join(layout.Box(layout.SplitLines(d.shown.View()), w, h), "\n"))
}

var sizes = [][2]int{{80, 24}, {200, 50}}

// TestScreens draws each screen at 80×24 and 200×50.
func TestScreens(t *testing.T) {
	stuck, fits := cycle(0, 1, 2), cycle(1, 2)
	stuck.NodeUse = []recorder.NodeUse{{Node: 2, Generation: 1, Pods: []recorder.PodRef{{Namespace: "default", Name: "batch-1", Priority: 10}, {Namespace: "default", Name: "batch-2"}}}}
	usage := recorder.UsageAt([]*recorder.Cycle{stuck}, 0)
	onSmall := Here{Cycle: stuck, Node: 2, HasNode: true, Usage: usage, Plugin: "NodeResourcesFit", Point: "filter"}
	suggest := &SuggestResult{Pod: "default/stuck", Note: "re-ran the cycle 2 times (budget 24) over 2 candidate change(s)", Suggestions: []Suggestion{
		{Text: "uncordon node cordoned", Node: "cordoned", Change: recorder.PatchNode{Node: "cordoned", Patch: `{"spec":{"unschedulable":false}}`, Why: "uncordon node cordoned"}},
		{Text: "lower container c's cpu request from 2 to 500m (what small has free), a long text that wraps at 80 columns", Node: "small", Change: recorder.PatchPod{Patch: `{}`, Why: "lower"}},
	}}
	for _, size := range sizes {
		w, h := size[0], size[1]
		for _, tt := range []struct {
			name string
			keys []string
			want string
		}{
			{"menu", []string{"w"}, "disable a plugin (NodeResourcesFit at filter)"},
			{"weight", []string{"w", "W"}, "weight PLUGIN=N: "},
			{"weight-error", append([]string{"w", "W"}, append(typed("P="), "enter")...), "P="},
			{"evict", []string{"w", "x", "j"}, "▸ default/batch-2 (priority 0)"},
			{"diff", append([]string{"w", "p"}, "enter"), "what-if 1' of cycle 1"},
			{"suggest", []string{"S", "j"}, "uncordon node cordoned"},
			{"yaml", []string{"y"}, "node small as cycle 1 saw it"},
		} {
			t.Run(fmt.Sprintf("%s-%dx%d", tt.name, w, h), func(t *testing.T) {
				d := newDriver(t, &fakeSource{after: fits, suggest: suggest}, onSmall, w, h)
				d.press(tt.keys...)
				if d.shown == nil {
					t.Fatalf("%v showed no screen (said %q)", tt.keys, d.said)
				}
				got := d.draw(w, h)
				if !strings.Contains(got, tt.want) {
					t.Errorf("%v: the screen does not say %q:\n%s", tt.keys, tt.want, got)
				}
				golden.Check(t, fmt.Sprintf("%s-%dx%d", tt.name, w, h), got)
			})
		}
	}
}

// Without a Source every key that opens the page says why, and the help
// says it too.
func TestKeysWithoutSource(t *testing.T) {
	st := theme.New(true)
	p := New(nil, &st, Options{})
	for _, k := range []string{"w", "S", "y"} {
		got, _ := p.Start(keyPress(k), Here{Cycle: cycle(0)})
		got, out := got.TakeOut()
		if out.Show != nil || out.Say != NoSource {
			t.Errorf("%s without a source: showed %T, said %q; want nothing shown and %q", k, out.Show, out.Say, NoSource)
		}
	}
	if note := p.HelpSections()[0].Note; note != NoSource {
		t.Errorf("the help's what-if section notes %q, want %q", note, NoSource)
	}
	if p := New(nil, &st, Options{Why: "the fixture changed"}); p.HelpSections()[0].Note != "the fixture changed" {
		t.Errorf("Options.Why is not what the help says: %q", p.HelpSections()[0].Note)
	}
}

// The weight prompt re-runs the cycle; the re-run is listed beside it,
// its diff shown; w on it stacks a change on its changes.
func TestWeightRunStacks(t *testing.T) {
	before, after := cycle(2), cycle(0, 2)
	d := newDriver(t, &fakeSource{after: after}, Here{Cycle: before, Plugin: "NodeResourcesFit", Point: "score", Weight: 1}, 80, 24)
	src := d.p.src.(*fakeSource)
	d.press("w", "W")
	if in, ok := d.shown.(Input); !ok || in.Value() != "NodeResourcesFit=" {
		t.Fatalf("W showed %T; want the weight prompt on NodeResourcesFit=", d.shown)
	}
	d.press("5", "enter")
	want := [][]recorder.Change{{recorder.SetWeight{Plugin: "NodeResourcesFit", Weight: 5}}}
	if diff := cmp.Diff(want, src.runs); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	diff, ok := d.shown.(Diff)
	if !ok || len(d.added) != 1 || d.added[0].Label != "1'" || d.added[0].Orig != before {
		t.Fatalf("after the run: showed %T, added %+v; want the diff of 1' beside cycle 1", d.shown, d.added)
	}
	if d.last() != "cycle 1': the pod would bind to tainted" {
		t.Errorf("said %q", d.last())
	}
	// w in the diff opens the re-run and the menu on it, which adds to it.
	rerun := d.added[0].Cycle
	d.shown = diff
	d.press("w")
	if d.open != rerun {
		t.Fatalf("w in the diff opened %v, want the re-run", d.open)
	}
	d.press("p")
	d.press(append(typed("NodeName"), "enter")...)
	if len(src.runs) != 2 || len(src.runs[1]) != 2 || src.runs[1][1] != recorder.Change(recorder.Disable{Plugin: "NodeName"}) {
		t.Errorf("the second run's changes = %+v; want the weight, then NodeName disabled", src.runs)
	}
	if len(d.added) != 2 || d.added[1].Label != "1''" || d.added[1].Orig != before {
		t.Errorf("the second re-run: %+v; want 1'' beside cycle 1", d.added[1:])
	}
	if l, ok := d.p.Runs().Label(d.added[1].Cycle); !ok || l != "1''" || d.p.Runs().Original(d.added[1].Cycle) != before || d.p.Runs().Len() != 2 {
		t.Errorf("Runs: label %q %v, %d runs", l, ok, d.p.Runs().Len())
	}
}

// esc in a prompt or the picker goes back to the menu; esc or q there
// closes the page.
func TestEscGoesBack(t *testing.T) {
	stuck := cycle(0, 1, 2)
	stuck.NodeUse = []recorder.NodeUse{{Node: 2, Generation: 1, Pods: []recorder.PodRef{{Namespace: "default", Name: "batch-1"}}}}
	h := Here{Cycle: stuck, Node: 2, HasNode: true, Usage: recorder.UsageAt([]*recorder.Cycle{stuck}, 0)}
	for _, ks := range [][]string{{"w", "W", "esc"}, {"w", "p", "esc"}, {"w", "x", "esc"}} {
		d := newDriver(t, &fakeSource{}, h, 80, 24)
		d.press(ks...)
		if _, ok := d.shown.(Menu); !ok {
			t.Errorf("%v: showed %T, want the menu", ks, d.shown)
		}
		for _, k := range []string{"esc", "q"} {
			if next, ask, cmd := d.shown.Update(keyPress(k)); next != nil || !reflect.DeepEqual(ask, Ask{}) || cmd != nil {
				t.Errorf("%v then %s: %T, %+v; want the page closed, nothing asked", ks, k, next, ask)
			}
		}
	}
}

// The menu's node actions need a node: they say so, and stay.
func TestMenuNeedsANode(t *testing.T) {
	d := newDriver(t, &fakeSource{}, Here{Cycle: cycle(0, 1, 2)}, 80, 24)
	src := d.p.src.(*fakeSource)
	for _, k := range []string{"n", "x"} {
		d.press("w", k)
		if _, ok := d.shown.(Menu); !ok || !strings.Contains(d.last(), "select a node") || len(src.yamlFor) != 0 {
			t.Errorf("%s without a node: showed %T, said %q, asked %v", k, d.shown, d.last(), src.yamlFor)
		}
		d.shown = nil
	}
}

func TestSuggestErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    *recorder.Cycle
		want string
	}{
		{"the error's first line", cycle(0, 1, 2), "suggest: no suggestions"},
		{"a bound cycle", cycle(), "cycle 1 bound its pod to cordoned: suggest is for a pod that did not fit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, &fakeSource{}, Here{Cycle: tt.c}, 80, 24)
			d.press("S")
			if d.shown != nil || d.last() != tt.want {
				t.Errorf("S: showed %T, said %q; want %q", d.shown, d.last(), tt.want)
			}
		})
	}
}

// An edit the scheduler refuses shows why; e edits the same file again,
// esc drops it; an unchanged file re-runs nothing.
func TestEdit(t *testing.T) {
	stuck := cycle(0, 1, 2)
	src := &fakeSource{podYAML: "kind: Pod\nmetadata:\n  name: stuck\n", failRun: errors.New(`the edited pod: Pod "stuck" is invalid: spec.containers: Required value`)}
	d := newDriver(t, src, Here{Cycle: stuck}, 80, 24)
	d.press("w", "e")
	path := d.p.Editing()
	if d.editor == nil || path == "" {
		t.Fatal("e did not hand a file to $EDITOR")
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != src.podYAML {
		t.Fatalf("the file to edit holds %q (%v), want the pod's YAML", data, err)
	}
	edited := d.p.Edited(nil)
	if err := os.WriteFile(path, []byte(src.podYAML+"spec: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d.settle(func() tea.Msg { return edited })
	if got, ok := src.runs[0][0].(recorder.EditPod); !ok || !strings.Contains(string(got.Edited), "spec: {}") || string(got.Shown) != src.podYAML {
		t.Errorf("the run got %+v, want the edited pod", src.runs)
	}
	if _, ok := d.shown.(EditError); !ok || !strings.Contains(d.draw(80, 24), "spec.containers: Required value") {
		t.Fatalf("showed %T; want the edit refused:\n%s", d.shown, d.draw(80, 24))
	}
	d.editor = nil
	d.press("e")
	if d.shown != nil || d.editor == nil || d.p.Editing() != path {
		t.Fatalf("e after the error: showed %T, editor %v on %q; want $EDITOR on %s again", d.shown, d.editor != nil, d.p.Editing(), path)
	}
	// Unchanged: nothing re-runs.
	runs := len(src.runs)
	if err := os.WriteFile(path, []byte(src.podYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	d.settle(func() tea.Msg { return d.p.Edited(nil) })
	if len(src.runs) != runs || !strings.Contains(d.last(), "not changed") {
		t.Errorf("runs %d → %d, said %q; want nothing re-run", runs, len(src.runs), d.last())
	}
}

// A diff switched to its words at 80 columns opens the next diff on its
// words too.
func TestDiffKeepsWords(t *testing.T) {
	before, after := cycle(0, 1, 2), cycle(1, 2)
	d := newDriver(t, &fakeSource{after: after}, Here{Cycle: before, Plugin: "NodeResourcesFit", Point: "filter"}, 80, 24)
	d.press("w", "p", "enter", "v")
	if diff, ok := d.shown.(Diff); !ok || !diff.Model().Words() {
		t.Fatalf("v in the diff: showed %T, want its words", d.shown)
	}
	d.press("esc")
	d.here = Here{Cycle: d.added[0].Cycle}
	d.press("w", "d")
	if diff, ok := d.shown.(Diff); !ok || !diff.Model().Words() {
		t.Errorf("the next diff: showed %T, want it on its words as the last was left", d.shown)
	}
}
