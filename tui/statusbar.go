package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/components/problems"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// cycleCounts tallies outcomes.
type cycleCounts struct{ total, bound, unschedulable, errors int }

// statusBar renders the engine state, cycle and queue counts, how the live
// cluster's bindings compared with the predictions, breakpoints, how many
// problems there were (and list, the key that lists them), the last message
// and the source on one line. A message that does not fit there once the
// other parts have made room goes on one or two lines of its own, above the
// bar, for as long as it shows (until the next key).
func statusBar(st *theme.Styles, w int, sourceName string, live bool, state *source.EngineState, progress *source.Progress, done bool, counts cycleCounts, obs *observations, bp source.Breakpoints, nProblems int, list key.Binding, msg problems.Note) string {
	message := msg.Text
	var parts []string
	s := "replay"
	if live {
		s = source.StateRunning
	}
	why := ""
	if state != nil {
		s, why = state.State, state.Why
	}
	if done {
		s = source.StateDone
	}
	dot := map[string]string{source.StateRunning: "▶", source.StatePaused: "⏸", source.StateIdle: "○", source.StateDone: "■", source.StateFollowing: "…", source.StateDisconnected: "↯", source.StateIndexing: "⟳"}[s]
	if dot == "" {
		dot = "●"
	}
	stateText := dot + " " + s
	if why != "" {
		stateText += " (" + why + ")"
	}
	if s == source.StateIndexing && progress != nil {
		stateText += " " + progressBar(progress, 10)
	}
	if s == source.StateDisconnected {
		parts = append(parts, st.Disconnected.Render(stateText))
	} else {
		parts = append(parts, st.Bold.Render(stateText))
	}
	// The counts come in a long form and, for narrow windows, a short one.
	countsAt := len(parts)
	cycles := "cycles"
	if counts.total == 1 {
		cycles = "cycle"
	}
	parts = append(parts, fmt.Sprintf("%d %s: %s %d bound %s %d unsched %s %d error",
		counts.total, cycles, glyph.Success.Glyph(), counts.bound, glyph.Unschedulable.Glyph(), counts.unschedulable, glyph.Error.Glyph(), counts.errors))
	short := []string{fmt.Sprintf("%d %s %s%d %s%d %s%d",
		counts.total, cycles, glyph.Success.Glyph(), counts.bound, glyph.Unschedulable.Glyph(), counts.unschedulable, glyph.Error.Glyph(), counts.errors)}
	if obs.any() {
		checked, agreed := obs.checked(), obs.agreed
		long := fmt.Sprintf("%d predictions checked: = %d agreed ≠ %d disagreed", checked, agreed, checked-agreed)
		brief := fmt.Sprintf("%d checked =%d ≠%d", checked, agreed, checked-agreed)
		if obs.untracked > 0 {
			long += fmt.Sprintf(" · %d bound without a cycle", obs.untracked)
			brief += fmt.Sprintf(" +%d no cycle", obs.untracked)
		}
		parts = append(parts, long)
		short = append(short, brief)
	}
	queueAt := -1
	if state != nil && live { // a replay has no queue
		queueAt = len(parts)
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
	problemsAt, problemsShort := -1, ""
	if nProblems > 0 {
		noun := "problems"
		if nProblems == 1 {
			noun = "problem"
		}
		problemsAt = len(parts)
		parts = append(parts, st.Problem.Render(fmt.Sprintf("⚠ %d %s — %s to list", nProblems, noun, list.Help().Key)))
		problemsShort = st.Problem.Render(fmt.Sprintf("⚠ %d %s", nProblems, noun))
	}
	bare := append(slices.Clone(parts), sourceName) // the bar without the message
	if message != "" {
		parts = append(parts, st.Problem.Render(message))
	}
	parts = append(parts, sourceName)
	join := func(parts []string) string {
		line := " " + strings.Join(parts, " │ ")
		if ansi.StringWidth(line) > w {
			copy(parts[countsAt:], short)
			line = " " + strings.Join(parts, " │ ")
		}
		return line
	}
	line := join(parts)
	if ansi.StringWidth(line) > w && message != "" {
		// A fresh message matters more than the source's name and the queue
		// counts.
		parts = parts[:len(parts)-1]
		if problemsAt >= 0 && msg.Kind == problems.Message {
			// The answer to a key beats the hint, which the help line repeats
			// ("! problems"); a new problem keeps it, to say there is a list.
			parts[problemsAt] = problemsShort
		}
		line = " " + strings.Join(parts, " │ ")
		if ansi.StringWidth(line) > w && queueAt >= 0 {
			parts = append(parts[:queueAt:queueAt], parts[queueAt+1:]...)
			line = " " + strings.Join(parts, " │ ")
		}
		if ansi.StringWidth(line) > w {
			// Still too long: the message takes lines of its own above the
			// bar, which is then as it is without it.
			var out []string
			for _, l := range messageLines(message, w-1, " "+list.Help().Key+" shows all") {
				out = append(out, st.Status.Render(layout.Fit(" "+st.Problem.Render(l), w)))
			}
			return strings.Join(append(out, st.Status.Render(layout.Fit(join(bare), w))), "\n")
		}
	}
	return st.Status.Render(layout.Fit(line, w))
}

// messageLines wraps a status message into lines of w cells, two at most:
// a longer one keeps its start and its end, which is where a message says
// what came of it, and says where it is whole (more).
func messageLines(msg string, w int, more string) []string {
	lines := layout.Wrap(msg, w, "")
	if len(lines) <= 2 {
		return lines
	}
	first := lines[0]
	room := w - 2 - ansi.StringWidth(more)
	rest := strings.TrimSpace(strings.Join(lines[1:], " "))
	tail := ansi.TruncateLeft(rest, max(ansi.StringWidth(rest)-room, 0), "")
	return []string{first, "…" + tail + more}
}

// progressBar draws how much of a recording has been indexed in w cells,
// then the percentage.
func progressBar(p *source.Progress, w int) string {
	frac := 1.0
	if p.Size > 0 {
		frac = min(float64(p.Read)/float64(p.Size), 1)
	}
	full := int(frac * float64(w))
	return strings.Repeat("█", full) + strings.Repeat("░", w-full) + fmt.Sprintf(" %d%%", int(frac*100))
}
