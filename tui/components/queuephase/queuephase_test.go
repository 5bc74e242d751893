package queuephase

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/components/textphase"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// view shows cycle index i of the default fixture, w×h.
func view(t *testing.T, i, w, h int) Model {
	t.Helper()
	st := theme.New(true)
	m := New(&st)
	m.SetCycle(recordings.Cycle(t, "default.rec", i))
	m.SetSize(w, h)
	return m
}

func TestView(t *testing.T) {
	got := ansi.Strip(view(t, 0, 100, 60).View())
	for _, want := range []string{"pod", "default/web", "attempt", "1 (first try)", "time per phase", "outcome"} {
		if !strings.Contains(got, want) {
			t.Errorf("view lacks %q:\n%s", want, got)
		}
	}
	if m := New(nil); m.View() != "" {
		t.Error("a view without a cycle should be empty")
	}
}

// Moves picks the pod's events made since its attempt before and not after
// the cycle began; the view words them under the outcome.
func TestMovesBeforeTheCycle(t *testing.T) {
	c := recordings.Cycle(t, "default.rec", 0)
	c.Attempt = 2
	pod := c.Pod
	other := pod
	other.Name = "someone-else"
	ev := func(p recorder.PodRef, attempts int, at time.Duration, event, to string) *recorder.QueueEvent {
		return &recorder.QueueEvent{Pod: p, Attempts: attempts, Time: c.Start.Add(at), Event: event, To: to, Op: recorder.QueueMove,
			Hints: []recorder.QueueHint{{Plugin: "NodeResourcesFit", Event: event, Hint: recorder.HintQueue}}}
	}
	queue := []*recorder.QueueEvent{
		ev(pod, 0, -3*time.Second, "PodAdd", recorder.QueueActive),   // before attempt 1
		ev(pod, 1, -2*time.Second, "NodeAdd", recorder.QueueBackoff), // led to attempt 2
		ev(other, 1, -time.Second, "NodeAdd", recorder.QueueBackoff), // another pod
		ev(pod, 1, time.Second, "NodeUpdate", recorder.QueueBackoff), // after the cycle began
	}
	moves := Moves(queue, c)
	if len(moves) != 1 || moves[0] != queue[1] {
		t.Fatalf("moves %v, want the NodeAdd before attempt 2 alone", moves)
	}
	st := theme.New(true)
	m := textphase.New(&st, With(moves))
	m.SetCycle(c)
	m.SetSize(120, 60)
	got := ansi.Strip(m.View())
	for _, want := range []string{"how the queue moved it since its attempt before", "NodeAdd → NodeResourcesFit said Queue → Backoff"} {
		if !strings.Contains(got, want) {
			t.Errorf("view lacks %q:\n%s", want, got)
		}
	}
}
