package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestStatusBarStates(t *testing.T) {
	tests := []struct {
		name  string
		state *EngineState
		want  string
	}{
		{"running", &EngineState{State: StateRunning}, "▶ running"},
		{"paused", &EngineState{State: StatePaused, Why: "breakpoint: pod default/web"}, "⏸ paused (breakpoint: pod default/web)"},
		{"disconnected", &EngineState{State: StateDisconnected, Why: "since 12:03:04: dial tcp 127.0.0.1:6443: connection refused"},
			"↯ disconnected (since 12:03:04: dial tcp 127.0.0.1:6443: connection refused)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, noColor := range []bool{false, true} {
				st := NewStyles(noColor)
				bar := statusBar(&st, 200, "cluster kind-kind", true, tt.state, false, cycleCounts{}, &observations{}, Breakpoints{}, 0, "")
				if got := ansi.Strip(bar); !strings.Contains(got, tt.want) {
					t.Errorf("NO_COLOR=%v: status bar %q lacks %q", noColor, got, tt.want)
				}
				style := st.Bold
				if tt.state.State == StateDisconnected {
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
		st := NewStyles(noColor)
		if st.Disconnected.Render("x") == st.Bold.Render("x") {
			t.Errorf("NO_COLOR=%v: the disconnected state is styled like the others", noColor)
		}
	}
}

func TestDisconnectedInSession(t *testing.T) {
	m := liveSession(t, 120, 30, cycleEvents(t)...)
	m = send(m, eventsMsg{events: []Event{{State: &EngineState{State: StateDisconnected, Why: "since 12:03:04"}}}})
	if !strings.Contains(screen(m), "↯ disconnected (since 12:03:04)") {
		t.Errorf("status bar should show the lost connection:\n%s", screen(m))
	}
}
