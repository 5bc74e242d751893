package queuephase

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

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
