package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/components/problems"
	"github.com/schedscope/schedscope/tui/theme"
)

func TestStatusBarStates(t *testing.T) {
	tests := []struct {
		name  string
		state *source.EngineState
		want  string
	}{
		{"running", &source.EngineState{State: source.StateRunning}, "▶ running"},
		{"paused", &source.EngineState{State: source.StatePaused, Why: "breakpoint: pod default/web"}, "⏸ paused (breakpoint: pod default/web)"},
		{"disconnected", &source.EngineState{State: source.StateDisconnected, Why: "since 12:03:04: dial tcp 127.0.0.1:6443: connection refused"},
			"↯ disconnected (since 12:03:04: dial tcp 127.0.0.1:6443: connection refused)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, noColor := range []bool{false, true} {
				st := theme.New(noColor)
				bar := status{source: "cluster kind-kind", live: true, state: tt.state, obs: &observations{}, list: DefaultKeyMap().Problems}.render(&st, 200)
				if got := ansi.Strip(bar); !strings.Contains(got, tt.want) {
					t.Errorf("NO_COLOR=%v: status bar %q lacks %q", noColor, got, tt.want)
				}
				style := st.Bold
				if tt.state.State == source.StateDisconnected {
					style = st.Disconnected
				}
				if !strings.Contains(bar, style.Render(tt.want)) {
					t.Errorf("NO_COLOR=%v: %q is not in its style: %q", noColor, tt.want, bar)
				}
			}
		})
	}
}

// TestDisconnectedStandsOut checks the disconnected state does not look like
// the others, with colour or without.
func TestDisconnectedStandsOut(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		st := theme.New(noColor)
		if st.Disconnected.Render("x") == st.Bold.Render("x") {
			t.Errorf("NO_COLOR=%v: the disconnected state is styled like the others", noColor)
		}
	}
}

func TestDisconnectedInSession(t *testing.T) {
	m := liveSession(t, 120, 30, cycleEvents(t)...)
	m = send(m, eventsMsg{events: []source.Event{{State: &source.EngineState{State: source.StateDisconnected, Why: "since 12:03:04"}}}})
	if !strings.Contains(screen(m), "↯ disconnected (since 12:03:04)") {
		t.Errorf("status bar should show the lost connection:\n%s", screen(m))
	}
}

// TestStatusBarMakesRoomForAMessage: at 80 columns a message pushes out the
// source and the queue counts before it is cut.
func TestStatusBarMakesRoomForAMessage(t *testing.T) {
	st := theme.New(true)
	msg := "the run has finished; nothing to pause"
	for _, tt := range []struct {
		problems int
		want     []string
	}{
		{0, []string{"■ done", "4 cycles", msg}},
		{2, []string{"■ done", "4 cycles", "⚠ 2 problems", msg}},
	} {
		bar := ansi.Strip(status{source: "fixture default.yaml", live: true, state: &source.EngineState{State: source.StateIdle, Backoff: 1}, done: true, counts: cycleCounts{total: 4, bound: 3, unschedulable: 1}, obs: &observations{}, problems: tt.problems, list: DefaultKeyMap().Problems, msg: problems.Note{Kind: problems.Message, Text: msg}}.render(&st, 80))
		for _, want := range tt.want {
			if !strings.Contains(bar, want) {
				t.Errorf("%d problems: status bar %q lacks %q", tt.problems, bar, want)
			}
		}
		for _, l := range strings.Split(bar, "\n") {
			if w := ansi.StringWidth(l); w != 80 {
				t.Errorf("%d problems: a status bar line is %d cells wide, want 80", tt.problems, w)
			}
		}
	}
	// A message too long for the line takes a line of its own above the
	// bar, whole; one too long for two lines keeps its start and its end
	// and says where it is whole.
	for _, tt := range []struct {
		msg   string
		lines int
		want  []string
	}{
		{"what-if: set the Score weight of NodeResourcesFit to 5: the pod goes to node-b instead of node-a", 3,
			[]string{"what-if: set the Score weight of NodeResourcesFit to 5: the pod goes to node-b", "instead of node-a"}},
		{"cycle 4 could not be read: " + strings.Repeat("a checksum that does not match ", 6) + "at offset 1234", 3,
			[]string{"cycle 4 could not be read: a checksum", "at offset 1234 ! shows all"}},
	} {
		out := ansi.Strip(status{source: "fixture default.yaml", live: true, state: &source.EngineState{State: source.StateIdle, Backoff: 1}, done: true, counts: cycleCounts{total: 4}, obs: &observations{}, problems: 1, list: DefaultKeyMap().Problems, msg: problems.Note{Kind: problems.Problem, Text: tt.msg}}.render(&st, 80))
		lines := strings.Split(out, "\n")
		if len(lines) != tt.lines {
			t.Errorf("%q: %d lines, want %d:\n%s", tt.msg, len(lines), tt.lines, out)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) != 80 {
				t.Errorf("%q: a line %d cells wide, want 80: %q", tt.msg, ansi.StringWidth(l), l)
			}
		}
		for _, want := range tt.want {
			if !strings.Contains(out, want) {
				t.Errorf("the status bar lacks %q:\n%s", want, out)
			}
		}
		if bar := lines[len(lines)-1]; !strings.Contains(bar, "■ done") || !strings.Contains(bar, "⚠ 1 problem") {
			t.Errorf("the bar under a long message is not whole: %q", bar)
		}
	}
	// Without a message the source and the queue stay.
	bar := ansi.Strip(status{source: "fixture default.yaml", live: true, state: &source.EngineState{State: source.StateIdle, Backoff: 1}, done: true, counts: cycleCounts{total: 4, bound: 3, unschedulable: 1}, obs: &observations{}, list: DefaultKeyMap().Problems}.render(&st, 80))
	for _, want := range []string{"queue 0 active 1 backoff", "fixture default.yaml"} {
		if !strings.Contains(bar, want) {
			t.Errorf("status bar %q lacks %q", bar, want)
		}
	}
}
