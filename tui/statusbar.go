package tui

import (
	"fmt"
	"strings"
)

// cycleCounts tallies outcomes.
type cycleCounts struct{ total, bound, unschedulable, errors int }

// statusBar renders the engine state, cycle and queue counts, breakpoints, the
// last problem and the source on one line.
func statusBar(st *Styles, w int, source string, live bool, state *EngineState, done bool, counts cycleCounts, bp Breakpoints, problem string) string {
	var parts []string
	s := "replay"
	if live {
		s = StateRunning
	}
	why := ""
	if state != nil {
		s, why = state.State, state.Why
	}
	if done {
		s = StateDone
	}
	dot := map[string]string{StateRunning: "▶", StatePaused: "⏸", StateIdle: "○", StateDone: "■", StateFollowing: "…"}[s]
	if dot == "" {
		dot = "●"
	}
	stateText := dot + " " + s
	if why != "" {
		stateText += " (" + why + ")"
	}
	parts = append(parts, st.Bold.Render(stateText))
	parts = append(parts, fmt.Sprintf("%d cycles: %s %d bound %s %d unsched %s %d error",
		counts.total, cellSuccess.glyph(), counts.bound, cellUnschedulable.glyph(), counts.unschedulable, cellError.glyph(), counts.errors))
	if state != nil {
		parts = append(parts, fmt.Sprintf("queue %d active %d backoff", state.Active, state.Backoff))
	}
	if live {
		var b []string
		if bp.Pod != "" {
			b = append(b, "pod "+bp.Pod)
		}
		if bp.Unschedulable {
			b = append(b, "Unschedulable")
		}
		if bp.Error {
			b = append(b, "Error")
		}
		if len(b) > 0 {
			parts = append(parts, "break on "+strings.Join(b, ", "))
		}
	}
	if problem != "" {
		parts = append(parts, st.Problem.Render("⚠ "+problem))
	}
	parts = append(parts, source)
	return st.Status.Render(fit(" "+strings.Join(parts, " │ "), w))
}
