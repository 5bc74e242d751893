package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
	"github.com/schedscope/schedscope/tui/theme"
)

func TestListKeysMoveSelection(t *testing.T) {
	rec := loadRecording(t, "default")
	tests := []struct {
		name string
		keys []string
		want int // index into cycles
	}{
		{"follows the tail at start", nil, len(rec.Cycles) - 1},
		{"k moves up", []string{"k"}, len(rec.Cycles) - 2},
		{"up arrow moves up", []string{"up"}, len(rec.Cycles) - 2},
		{"g goes to the first", []string{"g"}, 0},
		{"g then j", []string{"g", "j"}, 1},
		{"g then down", []string{"g", "down"}, 1},
		{"G goes to the last", []string{"g", "G"}, len(rec.Cycles) - 1},
		{"ctrl+u pages up", []string{"ctrl+u"}, max(len(rec.Cycles)-1-9, 0)},
		{"j stops at the end", []string{"j", "j"}, len(rec.Cycles) - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := keys(newSession(t, rec, nil, 80, 24), tt.keys...)
			if got := m.list.Selected(); got != tt.want {
				t.Errorf("selected = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestPhaseSteppingSkipsNothing(t *testing.T) {
	for _, fixture := range []string{"default", "preemption", "unschedulable", "taints-tolerations"} {
		rec := loadRecording(t, fixture)
		if len(rec.Cycles) == 0 {
			t.Fatalf("%s has no cycles", fixture)
		}
		for i := range rec.Cycles {
			m := newSession(t, rec, nil, 80, 24)
			m.open(i)
			m = toPhase(t, m, cyclepage.Queue)
			var seen []cyclepage.Phase
			for range cyclepage.NumPhases + 2 {
				seen = append(seen, m.view.Phase())
				m = keys(m, "l")
			}
			var want []cyclepage.Phase
			for p := range cyclepage.NumPhases {
				want = append(want, p)
			}
			want = append(want, cyclepage.NumPhases-1, cyclepage.NumPhases-1)
			if diff := cmp.Diff(want, seen); diff != "" {
				t.Errorf("%s cycle %d: phases (-want +got):\n%s", fixture, i, diff)
			}
			for p := cyclepage.NumPhases - 1; p > 0; p-- {
				m = keys(m, "h")
				if m.view.Phase() != p-1 {
					t.Fatalf("%s cycle %d: h from %v gave %v", fixture, i, p, m.view.Phase())
				}
			}
			m = keys(m, "right", "left", "left")
			if m.view.Phase() != cyclepage.Queue {
				t.Errorf("arrows: phase %v, want Queue", m.view.Phase())
			}
		}
	}
}

func TestCycleFilter(t *testing.T) {
	rec := loadRecording(t, "default")
	tests := []struct {
		filter string
		want   []string // pods shown
	}{
		{"", []string{"web", "api", "trainer", "huge"}},
		{"huge", []string{"huge"}},
		{"outcome:unsched", []string{"huge"}},
		{"node:node-c", []string{"trainer"}},
		{"plugin:nodeaffinity", []string{"api"}},
		{"nothing-matches", nil},
	}
	for _, tt := range tests {
		t.Run(tt.filter, func(t *testing.T) {
			m := newSession(t, rec, nil, 80, 24)
			m = keys(m, "/", "text:"+tt.filter, "enter")
			var got []string
			for _, i := range m.list.Rows() {
				got = append(got, m.cycles[i].Pod.Name)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			m = keys(m, "esc")
			if len(m.list.Rows()) != len(rec.Cycles) {
				t.Errorf("esc should clear the filter, rows = %d", len(m.list.Rows()))
			}
		})
	}
}

func TestFailureJump(t *testing.T) {
	rec := loadRecording(t, "default") // only cycle index 3 failed
	m := keys(newSession(t, rec, nil, 80, 24), "g", "n")
	if got := m.list.Selected(); got != 3 {
		t.Fatalf("n: selected %d, want 3", got)
	}
	m = keys(m, "g", "]")
	if got := m.list.Selected(); got != 3 {
		t.Fatalf("]: selected %d, want 3", got)
	}
	m = keys(m, "N")
	if got := m.list.Selected(); got != 3 {
		t.Fatalf("N with no earlier failure should stay, got %d", got)
	}
	// From inside a cycle, ] opens the next failed cycle.
	m = keys(m, "g", "enter", "]")
	if m.focus != focusCycle || m.view.Cycle() != rec.Cycles[3] {
		t.Fatalf("] in the cycle view should open cycle 4:\n%s", screen(m))
	}
}

func TestOpenAndBack(t *testing.T) {
	m := newSession(t, loadRecording(t, "default"), nil, 80, 24)
	m = keys(m, "g", "enter")
	if m.focus != focusCycle || m.view.Cycle().Seq != 1 {
		t.Fatalf("enter should open cycle 1")
	}
	m = keys(toPhase(t, m, cyclepage.Filter), "enter")
	if !detailOpen(m) {
		t.Fatal("enter on a filter row should open node detail")
	}
	m = keys(m, "esc")
	if detailOpen(m) || m.focus != focusCycle {
		t.Fatal("esc should close node detail first")
	}
	m = keys(m, "esc")
	if m.focus != focusList {
		t.Fatal("esc should go back to the list")
	}
}

func TestControllerCalls(t *testing.T) {
	rec := loadRecording(t, "default")
	ctl := &fakeController{}
	m := newSession(t, rec, ctl, 80, 24)
	var cmd tea.Cmd
	m, cmd = sendCmd(m, press("space"))
	run(cmd)
	m = send(m, eventsMsg{events: []source.Event{{State: &source.EngineState{State: source.StatePaused, Why: "user"}}}})
	m, cmd = sendCmd(m, press("space"))
	run(cmd)
	m, cmd = sendCmd(m, press("s"))
	run(cmd)
	if diff := cmp.Diff([]string{"Pause", "Resume", "Step"}, ctl.calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if !strings.Contains(screen(m), "paused (user)") {
		t.Errorf("status bar should show the paused state:\n%s", screen(m))
	}
}

func TestBreakpointsReachController(t *testing.T) {
	ctl := &fakeController{}
	m := newSession(t, loadRecording(t, "default"), ctl, 200, 50)
	m = keys(m, "b", "text:default/web-*", "tab", "space", "tab", "space", "shift+tab", "space")
	m, cmd := sendCmd(m, press("enter"))
	run(cmd)
	want := []source.Breakpoints{{Pod: "default/web-*", Unschedulable: false, Error: true}}
	if diff := cmp.Diff(want, ctl.breakpoints); diff != "" {
		t.Errorf("breakpoints (-want +got):\n%s", diff)
	}
	if !strings.Contains(screen(m), "break on pod default/web-*, Error") {
		t.Errorf("status bar should list the breakpoints:\n%s", screen(m))
	}
	// esc cancels without calling the controller.
	m, cmd = sendCmd(keys(m, "b", "tab", "space"), press("esc"))
	if cmd != nil || len(ctl.breakpoints) != 1 {
		t.Errorf("esc should not set breakpoints")
	}
}

func TestReplayHasNoControls(t *testing.T) {
	m := newSession(t, loadRecording(t, "default"), nil, 80, 24)
	for _, k := range []string{"space", "s", "b"} {
		next, cmd := sendCmd(m, press(k))
		if cmd != nil || next.showing(formLayer{}) {
			t.Errorf("%s should do nothing without a Controller", k)
		}
	}
}

func TestEventsAppendWithoutJumping(t *testing.T) {
	rec := loadRecording(t, "default")
	m := New(Options{Source: "live"})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = send(m, eventsMsg{events: []source.Event{{Header: &rec.Header}, {Cycle: rec.Cycles[0]}, {Cycle: rec.Cycles[1]}}})
	if m.list.Selected() != 1 {
		t.Fatalf("following the tail: selected %d, want 1", m.list.Selected())
	}
	m = keys(m, "k")
	m = send(m, eventsMsg{events: []source.Event{{Cycle: rec.Cycles[2]}}})
	if m.list.Selected() != 0 {
		t.Errorf("not following: selection moved to %d", m.list.Selected())
	}
	m = keys(m, "G")
	m = send(m, eventsMsg{events: []source.Event{{Cycle: rec.Cycles[3]}, {Problem: errors.New("torn record at 1234")}}, closed: true})
	if m.list.Selected() != 3 {
		t.Errorf("following again: selected %d, want 3", m.list.Selected())
	}
	if m.counts != (cycleCounts{total: 4, bound: 3, unschedulable: 1}) {
		t.Errorf("counts = %+v", m.counts)
	}
	s := screen(m)
	for _, want := range []string{"done", "torn record at 1234", "4 cycles"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

func TestOpenCycleDoesNotFollow(t *testing.T) {
	rec := loadRecording(t, "default")
	m := New(Options{Source: "live"})
	m = send(m, tea.WindowSizeMsg{Width: 200, Height: 50})
	m = send(m, eventsMsg{events: []source.Event{{Header: &rec.Header}, {Cycle: rec.Cycles[0]}}})
	m = keys(m, "enter")
	m = send(m, eventsMsg{events: []source.Event{{Cycle: rec.Cycles[1]}}})
	if m.view.Cycle() != rec.Cycles[0] {
		t.Errorf("a new cycle pulled the open cycle view away")
	}
}

func TestResize(t *testing.T) {
	m := newSession(t, loadRecording(t, "default"), nil, 80, 24)
	m = toPhase(t, keys(m, "g", "enter"), cyclepage.Filter)
	for _, size := range [][2]int{{200, 50}, {40, 10}, {80, 24}, {120, 30}, {20, 5}} {
		m = send(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(screen(m), "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
	}
}

func TestNothingBeforeWindowSize(t *testing.T) {
	m := New(Options{})
	if got := m.View().Content; got != "" {
		t.Errorf("view before the first WindowSizeMsg = %q", got)
	}
}

func TestMouse(t *testing.T) {
	m := newSession(t, loadRecording(t, "default"), nil, 80, 24)
	m = send(m, tea.MouseClickMsg{X: 10, Y: 2, Button: tea.MouseLeft}) // title, list header, first row
	if m.list.Selected() != 0 {
		t.Errorf("click: selected %d, want 0", m.list.Selected())
	}
	m = send(m, tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelDown})
	if m.list.Selected() != 1 {
		t.Errorf("wheel: selected %d, want 1", m.list.Selected())
	}
}

func TestCommands(t *testing.T) {
	m := newSession(t, loadRecording(t, "default"), nil, 80, 24)
	m = keys(m, ":", "text:cycle 2", "enter")
	if m.focus != focusCycle || m.view.Cycle().Seq != 2 {
		t.Fatalf(":cycle 2 did not open cycle 2")
	}
	m = keys(m, ":", "text:phase filter", "enter")
	if m.view.Phase() != cyclepage.Filter {
		t.Errorf(":phase filter gave %v", m.view.Phase())
	}
	// The names older articles use.
	if m = keys(m, ":", "text:phase priorities", "enter"); m.view.Phase() != cyclepage.Score {
		t.Errorf(":phase priorities gave %v, want Score", m.view.Phase())
	}
	if m = keys(m, ":", "text:phase predicates", "enter"); m.view.Phase() != cyclepage.Filter {
		t.Errorf(":phase predicates gave %v, want Filter", m.view.Phase())
	}
	m = keys(m, ":", "text:cycle 99", "enter")
	if !strings.Contains(screen(m), "no cycle 99") {
		t.Errorf("unknown cycle should be reported")
	}
	_, cmd := sendCmd(keys(m, ":", "text:q"), press("enter"))
	if cmd == nil || fmt.Sprint(cmd()) != fmt.Sprint(tea.Quit()) {
		t.Errorf(":q should quit")
	}
}

func TestNodeSortAndFilter(t *testing.T) {
	m := newSession(t, loadRecording(t, "unschedulable"), nil, 80, 24)
	m = keys(m, "enter") // an unschedulable cycle opens on Filter
	names := func() []string {
		var out []string
		for _, n := range m.view.Nodes().Rows() {
			out = append(out, m.view.Cycle().NodeName(n))
		}
		return out
	}
	m = keys(m, "o", "o") // status → score → name
	if diff := cmp.Diff([]string{"cordoned", "tainted", "too-small", "wrong-tier"}, names()); diff != "" {
		t.Errorf("by name (-want +got):\n%s", diff)
	}
	m = keys(m, "/", "text:t", "enter")
	if diff := cmp.Diff([]string{"tainted", "too-small", "wrong-tier"}, names()); diff != "" {
		t.Errorf("filter t (-want +got):\n%s", diff)
	}
	m = keys(m, "/", "backspace", "text:tai", "enter")
	if diff := cmp.Diff([]string{"tainted"}, names()); diff != "" {
		t.Errorf("filter tai (-want +got):\n%s", diff)
	}
	m = keys(m, "esc") // clears the node filter
	m = keys(m, "f")   // passed only
	if len(names()) != 0 {
		t.Errorf("no node passed, got %v", names())
	}
}

// TestGolden renders every phase of a few cycles at 80×24 and 200×50.
func TestGolden(t *testing.T) {
	cases := []struct {
		fixture string
		cycle   int // index
	}{
		{"default", 0}, {"default", 3}, {"taints-tolerations", 1}, {"preemption", 0}, {"preemption", 1}, {"unschedulable", 0},
	}
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		for _, tc := range cases {
			rec := loadRecording(t, tc.fixture)
			if tc.cycle >= len(rec.Cycles) {
				t.Fatalf("%s has %d cycles", tc.fixture, len(rec.Cycles))
			}
			m := newSession(t, rec, nil, size[0], size[1])
			name := fmt.Sprintf("%s-%dx%d-list", tc.fixture, size[0], size[1])
			if tc.cycle == 0 {
				golden(t, name, screen(m))
			}
			m.list.Select(tc.cycle)
			m = toPhase(t, keys(m, "enter"), cyclepage.Queue)
			for p := range cyclepage.NumPhases {
				golden(t, fmt.Sprintf("%s-c%d-%dx%d-%02d-%s", tc.fixture, tc.cycle+1, size[0], size[1], p, strings.ReplaceAll(strings.ToLower(p.Short()), " ", "")), screen(m))
				if p == cyclepage.Filter && rec.Cycles[tc.cycle].Diagnostic != nil {
					golden(t, fmt.Sprintf("%s-c%d-%dx%d-%02d-diagnostic", tc.fixture, tc.cycle+1, size[0], size[1], p), screen(keys(m, "d")))
					golden(t, fmt.Sprintf("%s-c%d-%dx%d-%02d-node", tc.fixture, tc.cycle+1, size[0], size[1], p), screen(keys(m, "enter")))
				}
				m = keys(m, "l")
			}
		}
	}
}

// TestDetailOnlyWhenThereIsANode: enter is offered (key bar, hint line) and
// opens a node detail only where there is a node row to open.
func TestDetailOnlyWhenThereIsANode(t *testing.T) {
	// One feasible node and no score plugin: Score, NormalizeScore and the
	// weighted sum are skipped.
	c := makeCycle(1, "web").nodes("node-a", "node-b").reject(1, "Insufficient cpu").obj()
	c.Selection.Rule = recorder.RuleOnlyFeasible
	m := New(Options{Source: "replay test.rec"})
	m = send(m, tea.WindowSizeMsg{Width: 200, Height: 50})
	m = send(m, eventsMsg{events: []source.Event{{Header: &recorder.Header{}}, {Cycle: c}}})
	m = keys(m, "enter")
	tests := []struct {
		name     string
		phase    cyclepage.Phase
		filter   string
		wantNode bool
	}{
		{"filter", cyclepage.Filter, "", true},
		{"filter matching no node", cyclepage.Filter, "zzz", false},
		{"skipped score", cyclepage.Score, "", false},
		{"skipped normalize", cyclepage.Normalize, "", false},
		{"skipped weighted sum", cyclepage.Weighted, "", false},
		{"select host", cyclepage.Select, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := toPhase(t, m, tt.phase)
			if tt.filter != "" {
				m = keys(m, "/", "text:"+tt.filter, "enter")
			}
			s := screen(m)
			if got := strings.Contains(lastLine(t, m), "node detail"); got != tt.wantNode {
				t.Errorf("key bar offers node detail = %v, want %v: %q", got, tt.wantNode, lastLine(t, m))
			}
			if strings.Contains(s, "enter node") && !tt.wantNode {
				t.Errorf("hint offers enter:\n%s", s)
			}
			if m = keys(m, "enter"); (detailOpen(m)) != tt.wantNode {
				t.Errorf("enter opened a node detail = %v, want %v", detailOpen(m), tt.wantNode)
			}
		})
	}
}

// TestExplainNamesTheProfilesPlugins checks the explain panel's plugin at
// PostFilter and Bind comes from the cycle and its profile, not from the
// default profile's names.
func TestExplainNamesTheProfilesPlugins(t *testing.T) {
	h := &recorder.Header{Profiles: []recorder.Profile{{SchedulerName: "custom", ExtensionPoints: []recorder.ExtensionPoint{
		{Name: recorder.PhasePostFilter, Plugins: []recorder.PluginRef{{Name: "DynamicResources"}, {Name: "GangPreemption"}}},
		{Name: recorder.PhaseBind, Plugins: []recorder.PluginRef{{Name: "RackBinder"}}},
	}}}}
	ran := &recorder.Cycle{Seq: 1, Profile: "custom",
		PostFilter: &recorder.PostFilterPhase{Plugins: []recorder.PluginStatus{{Plugin: "DynamicResources", Code: recorder.CodeUnschedulable}, {Plugin: "GangPreemption", Code: recorder.CodeSuccess}}},
		Bind:       []recorder.PluginStatus{{Plugin: "RackBinder", Code: recorder.CodeSuccess}}}
	notRun := &recorder.Cycle{Seq: 2, Profile: "custom"}
	st := theme.New(true)
	v := cyclepage.New(&st)
	v.SetHeader(h)
	for i, c := range []*recorder.Cycle{ran, notRun} {
		v.SetCycle([]*recorder.Cycle{ran, notRun}, i)
		for ph, want := range map[cyclepage.Phase]string{cyclepage.PostFilter: "GangPreemption", cyclepage.Bind: "RackBinder"} {
			v.SetPhase(ph)
			if got := v.SelectedPlugin(); got != want {
				t.Errorf("cycle %d, %v: explain panel names %q, want %q", c.Seq, ph, got, want)
			}
		}
	}
}

// A fixture's run shows its first frame while the fixture loads, says so,
// and says why it stopped when it stops before its first cycle.
func TestEmptyListSaysWhatItWaitsFor(t *testing.T) {
	rec := loadRecording(t, "default")
	want := func(m Model, text string) {
		t.Helper()
		if s := screen(m); !strings.Contains(s, text) {
			t.Errorf("screen lacks %q:\n%s", text, s)
		}
	}
	m := send(New(Options{Source: "fixture big.yaml"}), tea.WindowSizeMsg{Width: 80, Height: 24})
	want(m, "starting: loading the fixture into the scheduler…")
	want(send(m, eventsMsg{events: []source.Event{{Header: &rec.Header}}}), "waiting for scheduling cycles…")
	want(send(m, eventsMsg{events: []source.Event{{Done: true, Err: errors.New("big.yaml:12: Pod \"p\" is invalid")}}, closed: true}), "stopped on an error (! shows it)")
	m = send(New(Options{Source: "recording r.rec"}), tea.WindowSizeMsg{Width: 80, Height: 24})
	want(m, "waiting for scheduling cycles…")
	want(send(m, eventsMsg{events: []source.Event{{Header: &rec.Header}, {Done: true}}, closed: true}), "no cycle: nothing was scheduled")
}

// While paused, . lets one cycle run and opens it at its first phase; each
// further . shows the next phase that cycle ran, and past its last one it
// lets the next cycle run.
func TestStepPhaseWalksTheNextCycle(t *testing.T) {
	rec := loadRecording(t, "default")
	ctl := &fakeController{}
	m := New(Options{Source: "live", Control: ctl})
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = send(m, eventsMsg{events: []source.Event{{Header: &rec.Header}, {Cycle: rec.Cycles[0]}, {State: &source.EngineState{State: source.StatePaused, Why: "user"}}}})
	m, cmd := sendCmd(m, press("."))
	run(cmd)
	if diff := cmp.Diff([]string{"Step"}, ctl.calls); diff != "" {
		t.Fatalf("calls (-want +got):\n%s", diff)
	}
	next := rec.Cycles[1]
	m = send(m, eventsMsg{events: []source.Event{{Cycle: next}}})
	if m.focus != focusCycle || m.view.Index() != 1 || m.view.Phase() != cyclepage.Queue {
		t.Fatalf("the stepped cycle should open at Queue: focus %v, cycle %d, phase %v", m.focus, m.view.Index(), m.view.Phase())
	}
	var ran []cyclepage.Phase
	for p := cyclepage.PreFilter; p < cyclepage.NumPhases; p++ {
		if ok, _ := cyclepage.Ran(next, p); ok {
			ran = append(ran, p)
		}
	}
	if len(ran) < 4 {
		t.Fatalf("cycle %d ran only %v", next.Seq, ran)
	}
	for _, want := range ran {
		m, cmd = sendCmd(m, press("."))
		if cmd != nil {
			t.Fatalf("at %v: . asked the engine for a cycle", want)
		}
		if m.view.Phase() != want {
			t.Fatalf(". showed %v, want %v", m.view.Phase(), want)
		}
		if s := screen(m); !strings.Contains(s, fmt.Sprintf("cycle %d › %s", next.Seq, want)) {
			t.Errorf("the title does not say where . is (%v):\n%s", want, s)
		}
	}
	m, cmd = sendCmd(m, press("."))
	run(cmd)
	if diff := cmp.Diff([]string{"Step", "Step"}, ctl.calls); diff != "" {
		t.Errorf("past the last phase . should let the next cycle run (-want +got):\n%s", diff)
	}
	// The run ended before that cycle came: . says so and asks nothing.
	m = send(m, eventsMsg{events: []source.Event{{Done: true}}})
	m, cmd = sendCmd(m, press("."))
	if cmd != nil || len(ctl.calls) != 2 {
		t.Errorf("after the run ended . asked the engine again: %v", ctl.calls)
	}
	if !strings.Contains(screen(m), "the run has finished") {
		t.Errorf("after the run ended . should say so:\n%s", screen(m))
	}
}

// The Queue phase of a cycle shows its pod's queue events that led to it,
// and not another pod's.
func TestQueuePhaseShowsThePodsMoves(t *testing.T) {
	rec := loadRecording(t, "default")
	c := rec.Cycles[0]
	mine := &recorder.QueueEvent{Pod: c.Pod, Time: c.Start.Add(-time.Millisecond), Op: recorder.QueueAdd, To: recorder.QueueActive, Event: "PodAdd"}
	other := &recorder.QueueEvent{Pod: recorder.PodRef{Namespace: "default", Name: "someone-else"}, Time: c.Start.Add(-time.Millisecond), Op: recorder.QueueMove, To: recorder.QueueBackoff, Event: "NodeTaintChange"}
	m := New(Options{Source: "live"})
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = send(m, eventsMsg{events: []source.Event{{Header: &rec.Header}, {Queue: mine}, {Queue: other}, {Cycle: c}}})
	m.open(0)
	m.view.SetPhase(cyclepage.Queue)
	s := screen(m)
	if !strings.Contains(s, "how it came to the queue") || !strings.Contains(s, "→ Active") {
		t.Errorf("the Queue phase does not show the pod's move:\n%s", s)
	}
	if strings.Contains(s, "NodeTaintChange") {
		t.Errorf("the Queue phase shows another pod's move:\n%s", s)
	}
}

// TestCycleOfAPod: ":cycle" takes a pod as every command does — its
// namespace/name, its name, or its workload's handle — and opens the
// pod's last cycle; a handle counts replicas in the order they first had
// a cycle, as explain's; a what-if's re-runs are not the pod's cycles.
func TestCycleOfAPod(t *testing.T) {
	web := &recorder.Owner{Kind: "Deployment", Name: "web"}
	var cycles []*recorder.Cycle
	for i, pod := range []string{"web-5d8f-aaaaa", "web-5d8f-bbbbb", "solo", "web-5d8f-aaaaa"} {
		c := makeCycle(i+1, pod).nodes("a", "b").obj()
		if pod != "solo" {
			c.Pod.Owner = web
		}
		cycles = append(cycles, c)
	}
	cycles[0].Outcome = recorder.Outcome{Result: recorder.ResultUnschedulable, Message: "0/2 nodes are available"}
	m := newSession(t, &recorder.Recording{Cycles: cycles}, nil, 100, 30)
	for _, tt := range []struct {
		arg  string
		want int
	}{
		{"deploy/web#1", 4}, {"deploy/web#2", 2}, {"deploy/web", 4}, {"default/solo", 3}, {"solo", 3}, {"web-5d8f-bbbbb", 2},
	} {
		m = keys(m, "esc", ":", "text:cycle "+tt.arg, "enter")
		if m.focus != focusCycle || m.view.Cycle().Seq != tt.want {
			t.Errorf(":cycle %s opened cycle %d (focus %v), want %d", tt.arg, m.view.Cycle().Seq, m.focus, tt.want)
		}
	}
	for _, tt := range []struct{ arg, says string }{
		{"deploy/web#3", "has 2 replica(s) that had a cycle"},
		{"sts/db", "no pod of StatefulSet default/db had a scheduling cycle"},
		{"nosuch", `no cycle of pod "nosuch"`},
		{"deploy/web#0", "want a replica number from 1"},
	} {
		m = keys(m, "esc", ":", "text:cycle "+tt.arg, "enter")
		if !strings.Contains(m.message.Text, tt.says) {
			t.Errorf(":cycle %s says %q, want %q", tt.arg, m.message.Text, tt.says)
		}
	}
}
