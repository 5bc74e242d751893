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

// status is what the status bar says: the session's facts as the bar
// shows them (Model.status gathers them).
type status struct {
	source   string // where the cycles come from
	live     bool   // an engine runs (else a replay)
	state    *source.EngineState
	progress *source.Progress
	done     bool
	counts   cycleCounts
	obs      *observations
	bp       source.Breakpoints
	problems int
	// list is the key that lists the problems.
	list key.Binding
	// msg is the last message, shown until the next key.
	msg problems.Note
}

// status gathers what the status bar says now.
func (m *Model) status() status {
	return status{source: m.opts.Source, live: m.opts.Control != nil, state: m.state, progress: m.progress, done: m.done,
		counts: m.counts, obs: &m.observed, bp: m.breakpoints, problems: m.nProblems, list: m.Keys.Problems, msg: m.gwi.Status(m.wi.Status(m.message))}
}

// render draws the engine state, cycle and queue counts, how the live
// cluster's bindings compared with the predictions, breakpoints, how many
// problems there were (and the key that lists them), the last message
// and the source on one line, w cells wide. A message that does not fit
// there once the other parts have made room goes on one or two lines of
// its own, above the bar, for as long as it shows (until the next key).
func (s status) render(st *theme.Styles, w int) string {
	parts := []string{s.engine(st)}
	countsAt := len(parts)
	long, short := s.tallies()
	parts = append(parts, long...)
	queueAt := -1
	if s.state != nil && s.live { // a replay has no queue
		queueAt = len(parts)
		parts = append(parts, fmt.Sprintf("queue %d active %d backoff", s.state.Active, s.state.Backoff))
	}
	if b := s.breaks(); b != "" {
		parts = append(parts, b)
	}
	problemsAt, problemsShort := -1, ""
	if s.problems > 0 {
		problemsAt = len(parts)
		var p string
		p, problemsShort = s.problemsPart(st)
		parts = append(parts, p)
	}
	bare := append(slices.Clone(parts), s.source) // the bar without the message
	message := s.msg.Text
	if message != "" {
		parts = append(parts, st.Problem.Render(message))
	}
	parts = append(parts, s.source)
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
		if problemsAt >= 0 && s.msg.Kind == problems.Message {
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
			for _, l := range messageLines(message, w-1, " "+s.list.Help().Key+" shows all") {
				out = append(out, st.Status.Render(layout.Fit(" "+st.Problem.Render(l), w)))
			}
			return strings.Join(append(out, st.Status.Render(layout.Fit(join(bare), w))), "\n")
		}
	}
	return st.Status.Render(layout.Fit(line, w))
}

// engine is the engine's state: running, paused and why, done, the
// indexing's progress.
func (s status) engine(st *theme.Styles) string {
	state := "replay"
	if s.live {
		state = source.StateRunning
	}
	why := ""
	if s.state != nil {
		state, why = s.state.State, s.state.Why
	}
	if s.done {
		state = source.StateDone
	}
	dot := map[string]string{source.StateRunning: "▶", source.StatePaused: "⏸", source.StateIdle: "○", source.StateDone: "■", source.StateFollowing: "…", source.StateDisconnected: "↯", source.StateIndexing: "⟳"}[state]
	if dot == "" {
		dot = "●"
	}
	text := dot + " " + state
	if why != "" {
		text += " (" + why + ")"
	}
	if state == source.StateIndexing && s.progress != nil {
		text += " " + progressBar(s.progress, 10)
	}
	if state == source.StateDisconnected {
		return st.Disconnected.Render(text)
	}
	return st.Bold.Render(text)
}

// tallies are the cycles' outcomes and, live, how the cluster's bindings
// compared with the predictions: a long form, and a short one for narrow
// windows, part for part.
func (s status) tallies() (long, short []string) {
	c := s.counts
	cycles := "cycles"
	if c.total == 1 {
		cycles = "cycle"
	}
	long = []string{fmt.Sprintf("%d %s: %s %d bound %s %d unsched %s %d error",
		c.total, cycles, glyph.Success.Glyph(), c.bound, glyph.Unschedulable.Glyph(), c.unschedulable, glyph.Error.Glyph(), c.errors)}
	short = []string{fmt.Sprintf("%d %s %s%d %s%d %s%d",
		c.total, cycles, glyph.Success.Glyph(), c.bound, glyph.Unschedulable.Glyph(), c.unschedulable, glyph.Error.Glyph(), c.errors)}
	if obs := s.obs; obs.any() {
		checked, agreed := obs.checked(), obs.agreed
		l := fmt.Sprintf("%d predictions checked: = %d agreed ≠ %d disagreed", checked, agreed, checked-agreed)
		b := fmt.Sprintf("%d checked =%d ≠%d", checked, agreed, checked-agreed)
		if obs.untracked > 0 {
			l += fmt.Sprintf(" · %d bound without a cycle", obs.untracked)
			b += fmt.Sprintf(" +%d no cycle", obs.untracked)
		}
		long, short = append(long, l), append(short, b)
	}
	return long, short
}

// breaks says what a live run breaks on, "" when nothing.
func (s status) breaks() string {
	if !s.live {
		return ""
	}
	var b []string
	if s.bp.Pod != "" {
		b = append(b, "pod "+s.bp.Pod)
	}
	if s.bp.Unschedulable {
		b = append(b, "Unschedulable")
	}
	if s.bp.Error {
		b = append(b, "Error")
	}
	if len(b) == 0 {
		return ""
	}
	return "break on " + strings.Join(b, ", ")
}

// problemsPart counts the problems, with the key that lists them, and
// without it (short).
func (s status) problemsPart(st *theme.Styles) (long, short string) {
	noun := "problems"
	if s.problems == 1 {
		noun = "problem"
	}
	return st.Problem.Render(fmt.Sprintf("⚠ %d %s — %s to list", s.problems, noun, s.list.Help().Key)),
		st.Problem.Render(fmt.Sprintf("⚠ %d %s", s.problems, noun))
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
