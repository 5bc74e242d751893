package groupwhatif

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// fakeSource answers as cmd's source does, from testdata: the what-if of
// whatif --pod-group infer --min-count 2 on the gang fixture, and
// suggest's three suggestions for infer. It keeps what it was asked.
type fakeSource struct {
	t    *testing.T
	runs [][]recorder.Change
}

func (f *fakeSource) Change(flag, value string) (recorder.Change, error) {
	switch flag {
	case "min-count":
		n, err := strconv.Atoi(value)
		if err != nil {
			return nil, fmt.Errorf("--min-count %q: want a whole number, 1 or more", value)
		}
		return recorder.SetMinCount{MinCount: int32(n)}, nil
	case "copy-node":
		return recorder.CopyNode{From: value, Node: value + "-copy"}, nil
	}
	return nil, errors.New("no such flag --" + flag)
}

func (f *fakeSource) Run(group recorder.PodGroupRef, changes []recorder.Change) (*Result, error) {
	f.runs = append(f.runs, changes)
	r := inferMinCount2(f.t)
	r.Changes = changes
	return r, nil
}

func (f *fakeSource) Suggest(group recorder.PodGroupRef) (*SuggestResult, error) {
	return inferSuggestions(f.t), nil
}

// inferMinCount2 is testdata/infer-min-count-2.json, what kubectl
// schedscope whatif -f gang --feature-gates=GenericWorkload=true
// --pod-group infer --min-count 2 -o json wrote.
func inferMinCount2(t *testing.T) *Result {
	t.Helper()
	data, err := os.ReadFile("testdata/infer-min-count-2.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Group                         recorder.PodGroupRef
		Before, After                 *recorder.PodGroupCycle
		BindingsBefore, BindingsAfter map[string]string
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return &Result{Group: doc.Group, Before: doc.Before, After: doc.After, BindingsBefore: doc.BindingsBefore, BindingsAfter: doc.BindingsAfter,
		Changes: []recorder.Change{recorder.SetMinCount{MinCount: 2}},
		Command: "kubectl schedscope whatif -f gang --feature-gates GenericWorkload=true --pod-group default/infer --min-count 2"}
}

// inferSuggestions are suggest --pod-group infer's on the gang fixture.
func inferSuggestions(t *testing.T) *SuggestResult {
	after := inferMinCount2(t).After
	const cmd = "kubectl schedscope whatif -f gang --feature-gates GenericWorkload=true --pod-group default/infer "
	patch := `{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"300m"}}}]}}`
	return &SuggestResult{Group: after.Group, Now: inferCycle(t), Tried: 3, Suggestions: []Suggestion{
		{Text: "lower the gang's minCount to 2", Change: recorder.SetMinCount{MinCount: 2}, Cycle: after, Command: cmd + "--min-count 2",
			Bindings: map[string]string{"default/infer-0": "s1", "default/infer-1": "s2", "default/infer-2": ""}},
		{Text: "lower infer-2's request to cpu 300m (what s1 had free)", Change: recorder.PatchPod{Pod: "default/infer-2", Patch: patch}, Cycle: after,
			Command:  cmd + "--patch-pod 'default/infer-2=" + patch + "'",
			Bindings: map[string]string{"default/infer-0": "s1", "default/infer-1": "s2", "default/infer-2": "s1"}},
		{Text: "add a node like s1 (s1-copy)", Change: recorder.CopyNode{From: "s1", Node: "s1-copy"}, Cycle: after, Command: cmd + "--copy-node s1=s1-copy",
			Bindings: map[string]string{"default/infer-0": "s2", "default/infer-1": "s1", "default/infer-2": "s1-copy"}},
	}}
}

// inferCycle is infer's pod-group cycle in tui/testdata/gang.rec.
func inferCycle(t *testing.T) *recorder.PodGroupCycle {
	t.Helper()
	for _, g := range recordings.Load(t, "gang.rec").PodGroups {
		if g.Group.Name == "infer" {
			return g
		}
	}
	t.Fatal("gang.rec has no pod-group cycle of infer")
	return nil
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

// session is the page over src at w×h, with the screen it shows.
type session struct {
	t      *testing.T
	p      Model
	screen Screen
	said   string
}

func newSession(t *testing.T, src Source, w, h int) *session {
	st := theme.New(true)
	p := New(src, &st, Options{})
	p.SetSize(w, h)
	return &session{t: t, p: p}
}

// out takes the page's outbox.
func (s *session) out() {
	var o Out
	s.p, o = s.p.TakeOut()
	if o.Show != nil {
		s.screen = o.Show
	}
	if o.Say != "" {
		s.said = o.Say
	}
}

// run runs cmd and what it returns, as the program would, handing the
// page its own messages.
func (s *session) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		for _, c := range batch {
			s.run(c)
		}
		return
	}
	if Owns(msg) {
		var next tea.Cmd
		s.p, next = s.p.Update(msg)
		s.out()
		s.run(next)
	}
}

// start presses k on the pod-group page showing g, member selected.
func (s *session) start(k string, g *recorder.PodGroupCycle, member string) {
	var cmd tea.Cmd
	s.p, cmd = s.p.Start(press(k), Here{Cycle: g, Member: member, Requests: "cpu=1200m", Nodes: []string{"s1", "s2"}})
	s.out()
	s.run(cmd)
}

// key presses keys on the screen shown, doing what it asks.
func (s *session) key(keys ...string) {
	for _, k := range keys {
		if s.screen == nil {
			s.t.Fatalf("no screen to press %q on", k)
		}
		next, ask, cmd := s.screen.Update(press(k))
		s.screen = next
		var did tea.Cmd
		s.p, did = s.p.Do(ask)
		s.out()
		s.run(did)
		_ = cmd // the prompt's cursor blink
	}
}

func TestWithoutSourceSaysWhy(t *testing.T) {
	s := newSession(t, nil, 80, 24)
	s.start("w", inferCycle(t), "infer-2")
	if s.screen != nil {
		t.Errorf("a session without a fixture showed %T", s.screen)
	}
	if s.said != NoSource {
		t.Errorf("said %q, want %q", s.said, NoSource)
	}
}

func TestMinCountRunsAndAddsUp(t *testing.T) {
	src := &fakeSource{t: t}
	s := newSession(t, src, 80, 24)
	s.start("w", inferCycle(t), "infer-2")
	if _, ok := s.screen.(Menu); !ok {
		t.Fatalf("w showed %T, want the menu", s.screen)
	}
	s.key("m")
	in, ok := s.screen.(Input)
	if !ok {
		t.Fatalf("m showed %T, want the prompt", s.screen)
	}
	// The cycle placed 2 of its minCount 3: the prompt offers 2.
	if in.Value() != "2" {
		t.Errorf("the minCount prompt offers %q, want 2 (the members placed)", in.Value())
	}
	s.key("enter")
	c, ok := s.screen.(Compare)
	if !ok {
		t.Fatalf("enter showed %T, want the before/after", s.screen)
	}
	if diff := cmp.Diff([][]recorder.Change{{recorder.SetMinCount{MinCount: 2}}}, src.runs); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	view := ansi.Strip(c.View())
	for _, want := range []string{"not met: 2 placed, minCount 3", "met: 2 placed, minCount 2", "on s1, reverted", "bound to s1", "--min-count 2"} {
		if !strings.Contains(view, want) {
			t.Errorf("the before/after lacks %q:\n%s", want, view)
		}
	}
	// w on the before/after adds to its changes: a copy of s1 joins the
	// minCount, and a second minCount replaces the first.
	s.key("w", "c", "enter")
	s.key("w", "m", "backspace", "1", "enter")
	want := [][]recorder.Change{
		{recorder.SetMinCount{MinCount: 2}},
		{recorder.SetMinCount{MinCount: 2}, recorder.CopyNode{From: "s1", Node: "s1-copy"}},
		{recorder.CopyNode{From: "s1", Node: "s1-copy"}, recorder.SetMinCount{MinCount: 1}},
	}
	if diff := cmp.Diff(want, src.runs); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	s.key("esc")
	if s.screen != nil {
		t.Errorf("esc on the before/after left %T", s.screen)
	}
}

func TestChangeRefusedShowsThePromptAgain(t *testing.T) {
	src := &fakeSource{t: t}
	s := newSession(t, src, 80, 24)
	s.start("w", inferCycle(t), "infer-2")
	s.key("m", "backspace", "x", "enter")
	in, ok := s.screen.(Input)
	if !ok {
		t.Fatalf("a refused change showed %T, want the prompt again", s.screen)
	}
	if in.Value() != "x" || !strings.Contains(in.err, "want a whole number") {
		t.Errorf("prompt %q with error %q, want the text kept and why", in.Value(), in.err)
	}
	if len(src.runs) != 0 {
		t.Errorf("a refused change ran: %v", src.runs)
	}
}

func TestSuggestEnterRunsTheSuggestion(t *testing.T) {
	src := &fakeSource{t: t}
	s := newSession(t, src, 80, 24)
	s.start("S", inferCycle(t), "infer-2")
	if _, ok := s.screen.(Suggest); !ok {
		t.Fatalf("S showed %T, want suggest's list", s.screen)
	}
	s.key("down", "down", "enter")
	if diff := cmp.Diff([][]recorder.Change{{recorder.CopyNode{From: "s1", Node: "s1-copy"}}}, src.runs); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	if _, ok := s.screen.(Compare); !ok {
		t.Errorf("enter showed %T, want the before/after", s.screen)
	}
}

func TestSuggestRefusedForABoundGroup(t *testing.T) {
	var train *recorder.PodGroupCycle
	for _, g := range recordings.Load(t, "gang.rec").PodGroups {
		if g.Group.Name == "train" {
			train = g
		}
	}
	s := newSession(t, &fakeSource{t: t}, 80, 24)
	s.start("S", train, "train-0")
	if s.screen != nil || !strings.Contains(s.said, "suggest is for a group that did not") {
		t.Errorf("S on a bound group showed %T and said %q", s.screen, s.said)
	}
}

func TestWithChange(t *testing.T) {
	mc2, mc1 := recorder.SetMinCount{MinCount: 2}, recorder.SetMinCount{MinCount: 1}
	p1 := recorder.PatchPod{Pod: "a", Patch: "1"}
	p2 := recorder.PatchPod{Pod: "a", Patch: "2"}
	pb := recorder.PatchPod{Pod: "b", Patch: "1"}
	off := recorder.Disable{Plugin: "P"}
	type changes = []recorder.Change
	tests := []struct {
		name string
		base changes
		ch   recorder.Change
		want changes
	}{
		{"first", nil, mc2, changes{mc2}},
		{"a second minCount replaces the first", changes{mc2, p1}, mc1, changes{p1, mc1}},
		{"a second patch of one member replaces the first", changes{p1, pb}, p2, changes{pb, p2}},
		{"another member's patch adds", changes{p1}, pb, changes{p1, pb}},
		{"disabling twice enables again", changes{mc2, off}, off, changes{mc2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, recorder.WithChange(tt.base, tt.ch)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestGoldens(t *testing.T) {
	tests := []struct {
		name  string
		start string
		keys  []string
	}{
		{name: "menu", start: "w"},
		{name: "prompt-refused", start: "w", keys: []string{"m", "backspace", "x", "enter"}},
		{name: "compare", start: "w", keys: []string{"m", "enter"}},
		{name: "compare-bottom", start: "w", keys: []string{"m", "enter", "G"}},
		{name: "compare-adds", start: "w", keys: []string{"m", "enter", "w"}},
		{name: "suggest", start: "S"},
		{name: "suggest-third", start: "S", keys: []string{"down", "down"}},
	}
	for _, tt := range tests {
		for _, size := range golden.Sizes {
			name := fmt.Sprintf("%s-%dx%d", tt.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				s := newSession(t, &fakeSource{t: t}, size[0], size[1])
				s.start(tt.start, inferCycle(t), "infer-2")
				s.key(tt.keys...)
				if s.screen == nil {
					t.Fatal("no screen shown")
				}
				got := ansi.Strip(s.screen.View())
				for i, l := range strings.Split(got, "\n") {
					if w := ansi.StringWidth(l); w > size[0] {
						t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, w, size[0], l)
					}
				}
				golden.Check(t, name, golden.Screen(s.screen.View(), size[0], size[1]))
			})
		}
	}
}

func TestCompareScrollsWithTheWheel(t *testing.T) {
	s := newSession(t, &fakeSource{t: t}, 80, 24)
	s.start("w", inferCycle(t), "infer-2")
	s.key("m", "enter")
	top := strings.SplitN(ansi.Strip(s.screen.View()), "\n", 2)[0]
	next, _, _ := s.screen.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if got := strings.SplitN(ansi.Strip(next.View()), "\n", 2)[0]; got == top {
		t.Errorf("the wheel did not scroll the before/after: its first line is still %q", got)
	}
	back, _, _ := next.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if got := strings.SplitN(ansi.Strip(back.View()), "\n", 2)[0]; got != top {
		t.Errorf("the wheel up did not scroll back: %q, want %q", got, top)
	}
}
