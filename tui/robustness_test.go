package tui

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// statusLine is the screen's status bar line (the one before last).
func statusLine(t *testing.T, m Model) string {
	t.Helper()
	lines := strings.Split(screen(m), "\n")
	if len(lines) < 2 {
		t.Fatalf("screen has %d lines", len(lines))
	}
	return lines[len(lines)-2]
}

// lastLine is the screen's bottom line: the help line or the prompt.
func lastLine(t *testing.T, m Model) string {
	t.Helper()
	lines := strings.Split(screen(m), "\n")
	return lines[len(lines)-1]
}

// TestPauseBeforeFirstFrame: space before the window size and before any
// event pauses the engine, and the status bar shows what the engine reports,
// even though the header comes after the report.
func TestPauseBeforeFirstFrame(t *testing.T) {
	rec := loadRecording(t, "default")
	ctl := &fakeController{}
	m := New(Options{Source: "fixture default.yaml", Control: ctl})
	m, cmd := sendCmd(m, press("space"))
	run(cmd)
	if diff := cmp.Diff([]string{"Pause"}, ctl.calls); diff != "" {
		t.Fatalf("calls (-want +got):\n%s", diff)
	}
	paused := source.EngineState{State: source.StatePaused, Why: "paused by you"}
	m = send(m, eventsMsg{events: []source.Event{{State: &paused}}})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = send(m, eventsMsg{events: []source.Event{{Header: &rec.Header}, {State: &paused}, {Cycle: rec.Cycles[0]}}})
	if got := statusLine(t, m); !strings.Contains(got, "⏸ paused (paused by you)") {
		t.Errorf("status bar = %q, want the engine's paused state", got)
	}
	// The next space resumes: the TUI toggles on the engine's state.
	_, cmd = sendCmd(m, press("space"))
	run(cmd)
	if diff := cmp.Diff([]string{"Pause", "Resume"}, ctl.calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// TestControlsOfAFinishedRun: once the source is done, space, s and b reach
// no controller, say why, and are gone from the help.
func TestControlsOfAFinishedRun(t *testing.T) {
	for _, end := range []struct {
		name string
		msg  eventsMsg
	}{
		{"done event", eventsMsg{events: []source.Event{{State: &source.EngineState{State: source.StateDone}}, {Done: true}}}},
		{"channel closed", eventsMsg{closed: true}},
	} {
		t.Run(end.name, func(t *testing.T) {
			ctl := &fakeController{}
			m := newSession(t, loadRecording(t, "default"), ctl, 200, 50)
			if !strings.Contains(lastLine(t, m), "pause/resume") {
				t.Fatalf("a running session's help line lacks pause/resume: %q", lastLine(t, m))
			}
			m = send(m, end.msg)
			for _, k := range []struct{ key, says string }{
				{"space", "the run has finished; nothing to pause"},
				{"s", "the run has finished; nothing to step"},
				{"b", "the run has finished; nothing to break on"},
			} {
				next, cmd := sendCmd(m, press(k.key))
				if cmd != nil || next.showing(formLayer{}) {
					t.Errorf("%s after the end should do nothing", k.key)
				}
				if got := statusLine(t, next); !strings.Contains(got, k.says) {
					t.Errorf("%s: status bar = %q, want %q", k.key, got, k.says)
				}
			}
			if len(ctl.calls) != 0 {
				t.Errorf("controller called after the end: %v", ctl.calls)
			}
			if got := lastLine(t, m); strings.Contains(got, "pause") || strings.Contains(got, "step") {
				t.Errorf("help line still offers the engine controls: %q", got)
			}
			help := screen(keys(m, "?"))
			if strings.Contains(help, "pause/resume") || !strings.Contains(help, "the run has finished") {
				t.Errorf("full help should say the run has finished instead of listing the controls:\n%s", help)
			}
		})
	}
}

func TestReplaySaysThereIsNothingToControl(t *testing.T) {
	// At 80 columns, while following a file, the answer fits whole.
	m := send(newSession(t, loadRecording(t, "default"), nil, 80, 24), eventsMsg{events: []source.Event{{State: &source.EngineState{State: source.StateFollowing}}}})
	if got := statusLine(t, m); !strings.Contains(got, "… following") || strings.Contains(got, "queue") {
		t.Errorf("following replay (a replay has states but no queue): status bar = %q", got)
	}
	for _, k := range []struct{ key, says string }{
		{"space", "a recording: nothing to pause"},
		{"s", "a recording: nothing to step"},
		{"b", "a recording: nothing to break on"},
	} {
		next, cmd := sendCmd(m, press(k.key))
		if cmd != nil || next.showing(formLayer{}) {
			t.Errorf("%s should do nothing without a Controller", k.key)
		}
		got := statusLine(t, next)
		if !strings.Contains(got, "… following") || !strings.Contains(got, k.says) || strings.Contains(got, "…  ") {
			t.Errorf("%s: status bar = %q, want the following state and %q whole", k.key, got, k.says)
		}
	}
	m = send(m, eventsMsg{events: []source.Event{{State: &source.EngineState{State: source.StateDone}}, {Done: true}}})
	if help := screen(keys(m, "?")); strings.Contains(help, "pause/resume") || !strings.Contains(help, "replay: no engine") {
		t.Errorf("full help of a replay lists the engine controls:\n%s", help)
	}
}

// TestProblemsView: every problem is counted in the status bar and listed,
// whole, by !; esc closes the list.
func TestProblemsView(t *testing.T) {
	long := "recording run.rec: corrupt record at byte 123456: checksum mismatch (want 0x1234abcd, got 0xdeadbeef); skipped it and went on reading"
	problems := []string{"torn record at byte 9000 (the file ends mid-record)", long, "cycle 7 refers to node set 3, which the recording lacks"}
	var evs []source.Event
	for _, p := range problems {
		evs = append(evs, source.Event{Problem: errors.New(p)})
	}
	m := newSession(t, loadRecording(t, "default"), nil, 80, 24)
	m = send(m, eventsMsg{events: evs})
	if got := statusLine(t, m); !strings.Contains(got, "3 problems — ! to list") {
		t.Errorf("status bar = %q, want the count", got)
	}
	if w := ansi.StringWidth(statusLine(t, m)); w != 80 {
		t.Errorf("status bar is %d cells wide", w)
	}
	m = keys(m, "!")
	if !m.showing(problemsLayer{}) {
		t.Fatal("! did not open the problems view")
	}
	// Joined back, the screen holds every problem whole.
	flat := strings.Join(strings.Fields(screen(m)), " ")
	for _, p := range problems {
		if !strings.Contains(flat, p) {
			t.Errorf("problems view lacks %q:\n%s", p, screen(m))
		}
	}
	if got := len(strings.Split(screen(m), "\n")); got != 24 {
		t.Errorf("problems view is %d lines", got)
	}
	// A problem that arrives while the view is open is listed at once.
	late := "the last 1924 bytes are a record that has not ended for 2s"
	m = send(m, eventsMsg{events: []source.Event{{Problem: errors.New(late)}}})
	if flat := strings.Join(strings.Fields(screen(m)), " "); !strings.Contains(flat, late) || !strings.Contains(flat, "Problems (4)") {
		t.Errorf("the open view does not list the problem that came after it opened:\n%s", screen(m))
	}
	m = keys(m, "esc")
	if m.showing(problemsLayer{}) {
		t.Error("esc did not close the problems view")
	}
	if got := statusLine(t, m); !strings.Contains(got, "4 problems") {
		t.Errorf("the count should stay after the list was read: %q", got)
	}
}

func TestProblemsViewScrolls(t *testing.T) {
	var evs []source.Event
	for i := range 40 {
		evs = append(evs, source.Event{Problem: fmt.Errorf("problem number %d", i+1)})
	}
	m := send(newSession(t, loadRecording(t, "default"), nil, 80, 24), eventsMsg{events: evs})
	m = keys(m, "!")
	if s := screen(m); !strings.Contains(s, "problem number 40") || strings.Contains(s, "problem number 1\n") {
		t.Errorf("the problems view should open on the newest:\n%s", s)
	}
	m = keys(m, "g")
	if s := screen(m); !strings.Contains(s, "problem number 1 ") || strings.Contains(s, "problem number 40") {
		t.Errorf("g should go to the oldest:\n%s", s)
	}
	m = keys(m, "j")
	if s := screen(m); strings.Contains(s, "problem number 1 ") || !strings.Contains(s, "problem number 2 ") {
		t.Errorf("j should scroll down one:\n%s", s)
	}
}

// TestMessagesLastUntilTheNextKey: a message shows until the next key and
// stays in the problems view, whole.
func TestMessagesLastUntilTheNextKey(t *testing.T) {
	m := newSession(t, loadRecording(t, "default"), nil, 80, 24)
	m = keys(m, ":", "text:frobnicate the scheduler with great care", "enter")
	if got := statusLine(t, m); !strings.Contains(got, `no command "frobnicate"; :help lists them`) {
		t.Fatalf("status bar = %q", got)
	}
	m = keys(m, "k")
	if got := statusLine(t, m); strings.Contains(got, "no command") {
		t.Errorf("the message outlived the next key: %q", got)
	}
	flat := strings.Join(strings.Fields(screen(keys(m, "!"))), " ")
	if !strings.Contains(flat, `no command "frobnicate"; :help lists them`) {
		t.Errorf("problems view lacks the whole message:\n%s", screen(keys(m, "!")))
	}
}

func TestHelpClosesWithQ(t *testing.T) {
	m := keys(newSession(t, loadRecording(t, "default"), nil, 80, 24), "?")
	if !m.showing(helpLayer{}) {
		t.Fatal("? did not open help")
	}
	for _, k := range []string{"q", "esc", "?"} {
		next, cmd := sendCmd(m, press(k))
		if cmd != nil {
			t.Errorf("%s in help returned a command (quit?)", k)
		}
		if next.showing(helpLayer{}) {
			t.Errorf("%s did not close help", k)
		}
	}
	_, cmd := sendCmd(m, press("ctrl+c"))
	if cmd == nil || fmt.Sprint(cmd()) != fmt.Sprint(tea.Quit()) {
		t.Error("ctrl+c in help should quit")
	}
	if m = keys(newSession(t, loadRecording(t, "default"), nil, 80, 24), ":", "text:help", "enter"); !m.showing(helpLayer{}) {
		t.Errorf(":help did not open help; status %q", statusLine(t, m))
	}
}

// TestHelpListsEveryKeyOnce reads the "?" screen of a live session. The
// keys of the what-if menu, which w opens over the screen, are its own:
// they are listed apart, and left out here; so are those of the pod-group
// page and of a group's what-if menu, which w opens there.
func TestHelpListsEveryKeyOnce(t *testing.T) {
	var menu, group, others []string
	for _, sec := range liveSession(t, 200, 50, cycleEvents(t)...).helpSections() {
		for _, k := range sec.Keys {
			switch {
			case strings.HasPrefix(sec.Title, "In the what-if menu"):
				menu = append(menu, k.Help().Key)
			case strings.HasPrefix(sec.Title, "On the pod-group page"), strings.HasPrefix(sec.Title, "In a group's what-if menu"):
				group = append(group, k.Help().Key)
			default:
				others = append(others, k.Help().Key)
			}
		}
	}
	if want := []string{"e", "n", "x", "W", "p", "d"}; !slices.Equal(menu, want) {
		t.Errorf("the what-if menu's section lists %q, want %q", menu, want)
	}
	if want := []string{"w", "S", "m", "r", "c", "x", "W", "p", "a"}; !slices.Equal(group, want) {
		t.Errorf("the pod-group page's and its what-if menu's sections list %q, want %q", group, want)
	}
	for _, k := range others {
		// enter opens what the pane shows: a cycle from the list, a node
		// inside a cycle (both are checked on the screen below).
		if n := slices.Index(others, k); k != "enter" && slices.Index(others[n+1:], k) >= 0 {
			t.Errorf("help lists %q twice outside the what-if menu: %q", k, others)
		}
	}
	m := keys(liveSession(t, 200, 50, cycleEvents(t)...), "?")
	// The key blocks: below the title, above the glyphs.
	s := screen(m)
	start, end := strings.Index(s, "Moving"), strings.Index(s, "Filter matrix glyphs")
	if start < 0 || end < start {
		t.Fatalf("help screen lacks its sections:\n%s", s)
	}
	s = s[start:end]
	for _, want := range []string{"↑/k", "↓/j", "g ", "G ", "ctrl+u", "ctrl+d", "n/]", "N/[", "←/h", "→/l", "tab ", "shift+tab",
		"enter     node detail", "enter open cycle", "d         diagnostic", "o ", "f ", "? ", ": ", "/ ", "! ", "esc", "q ", "space", "s ", "b "} {
		re := regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(want))
		if n := len(re.FindAllStringIndex(s, -1)); n != 1 {
			t.Errorf("help lists %q %d times, want once:\n%s", want, n, s)
		}
	}
	// At 80×24 the rest is a scroll away.
	m = keys(liveSession(t, 80, 24, cycleEvents(t)...), "?")
	if !strings.Contains(screen(m), "↓/j scrolls") {
		t.Fatalf("80×24 help does not say it scrolls:\n%s", screen(m))
	}
	for range 60 {
		m = keys(m, "j")
	}
	if !strings.Contains(screen(m), "Live cluster bindings") {
		t.Errorf("scrolled help does not reach the end:\n%s", screen(m))
	}
}

func TestCommandCompletion(t *testing.T) {
	tests := []struct {
		typed      string
		wantValue  string
		candidates []string // shown after the prompt; nil when none
	}{
		{"ph", "phase ", []string{"queue", "pref", "filter", "postf", "score", "norm", "sum", "select", "resv", "permit", "preb", "bind", "postb"}},
		{"phase f", "phase filter", nil},
		{"phase p", "phase p", []string{"pref", "postf", "permit", "preb", "postb"}},
		{"so", "sort ", []string{"status", "score", "name", "snapshot"}},
		{"he", "help", nil},
		{"", "", []string{"cycle", "filter", "fixtures", "group", "help", "marked", "nodes", "pods", "problems", "quit", "phase", "sort"}},
		{"po", "pods", nil},
		{"xyz", "xyz", nil},
	}
	for _, tt := range tests {
		t.Run(tt.typed, func(t *testing.T) {
			m := newSession(t, loadRecording(t, "default"), nil, 200, 50)
			m = keys(m, ":", "text:"+tt.typed, "tab")
			if got := m.prompt.Value(); got != tt.wantValue {
				t.Errorf("value = %q, want %q", got, tt.wantValue)
			}
			if diff := cmp.Diff(tt.candidates, m.prompt.Candidates()); diff != "" {
				t.Errorf("candidates (-want +got):\n%s", diff)
			}
			line := lastLine(t, m)
			if len(tt.candidates) > 0 && !strings.Contains(line, "   "+strings.Join(tt.candidates, " ")) {
				t.Errorf("prompt line does not list the candidates: %q", line)
			}
			// Typing on hides them.
			if m = keys(m, "x"); len(m.prompt.Candidates()) != 0 {
				t.Errorf("candidates still listed after typing: %v", m.prompt.Candidates())
			}
		})
	}
}

// TestOpenOnDecisivePhase: a cycle opens on the phase that decided it, not on
// the phase the previous cycle was left on.
func TestOpenOnDecisivePhase(t *testing.T) {
	tests := []struct {
		fixture string
		seq     int
		want    cyclepage.Phase
	}{
		{"default", 1, cyclepage.Select},
		{"default", 4, cyclepage.Filter},
		{"unschedulable", 1, cyclepage.Filter},
		{"preemption", 1, cyclepage.PostFilter},
		{"preemption", 2, cyclepage.Select},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s-%d", tt.fixture, tt.seq), func(t *testing.T) {
			m := newSession(t, loadRecording(t, tt.fixture), nil, 80, 24)
			// Leave another cycle on a phase that may not have run in this one.
			m = keys(m, ":", "text:cycle 1", "enter", ":", "text:phase postb", "enter", "esc")
			m = keys(m, ":", fmt.Sprintf("text:cycle %d", tt.seq), "enter")
			if got := m.view.Phase(); got != tt.want {
				t.Errorf("opened on %v, want %v", got, tt.want)
			}
			if ran, why := cyclepage.Ran(m.view.Cycle(), m.view.Phase()); !ran {
				t.Errorf("opened on a phase that did not run: %s", why)
			}
		})
	}
}

func TestDecisivePhaseOfFailures(t *testing.T) {
	failed := []recorder.PluginStatus{{Plugin: "Example", Code: recorder.CodeUnschedulable}}
	ok := []recorder.PluginStatus{{Plugin: "Example", Code: recorder.CodeSuccess}}
	sel := &recorder.Selection{Node: "n", Rule: recorder.RuleHighestScore}
	tests := []struct {
		name string
		c    recorder.Cycle
		want cyclepage.Phase
	}{
		{"PreFilter rejected", recorder.Cycle{PreFilter: &recorder.PreFilterPhase{Code: recorder.CodeUnschedulableAndUnresolvable}, Outcome: recorder.Outcome{Result: recorder.ResultUnschedulable}}, cyclepage.PreFilter},
		{"Permit rejected", recorder.Cycle{PreFilter: &recorder.PreFilterPhase{Code: recorder.CodeSuccess}, Filter: &recorder.FilterPhase{}, Selection: sel, Reserve: ok, Permit: failed, Outcome: recorder.Outcome{Result: recorder.ResultUnschedulable}}, cyclepage.Permit},
		{"Bind error", recorder.Cycle{Filter: &recorder.FilterPhase{}, Selection: sel, Reserve: ok, Permit: ok, Bind: []recorder.PluginStatus{{Plugin: "DefaultBinder", Code: recorder.CodeError}}, Outcome: recorder.Outcome{Result: recorder.ResultError}}, cyclepage.Bind},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cyclepage.Decisive(&tt.c); got != tt.want {
				t.Errorf("decisivePhase = %v, want %v", got, tt.want)
			}
		})
	}
}
