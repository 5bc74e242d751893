package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// runAll runs a command and, for a batch, each command in it.
func runAll(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if b, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range b {
			runAll(c)
		}
	}
}

// TestFirstRunHint: the hint shows over the list on a first session; the
// first key closes it, does what it does (enter opens the cycle), and the
// session is told once that the hint was seen. Esc only closes it.
func TestFirstRunHint(t *testing.T) {
	rec := loadRecording(t, "unschedulable")
	start := func(seen func()) Model {
		return newSessionWith(rec, Options{Source: "replay test.rec", FirstRun: seen}, 80, 24)
	}
	calls := 0
	m := start(func() { calls++ })
	golden(t, "first-run-80x24", screen(m))
	m, cmd := sendCmd(m, press("enter"))
	runAll(cmd)
	if calls != 1 || strings.Contains(screen(m), "new here?") {
		t.Fatalf("after enter: told %d times, hint shown %v", calls, strings.Contains(screen(m), "new here?"))
	}
	if m.focus != focusCycle {
		t.Errorf("enter closed the hint but did not open the cycle:\n%s", screen(m))
	}
	m, cmd = sendCmd(m, press("l"))
	runAll(cmd)
	if calls != 1 {
		t.Errorf("the session was told %d times that the hint was seen", calls)
	}

	calls = 0
	m = start(func() { calls++ })
	m, cmd = sendCmd(m, press("esc"))
	runAll(cmd)
	if calls != 1 || m.focus != focusList || strings.Contains(screen(m), "new here?") {
		t.Errorf("esc: told %d times, focus %d, hint shown %v", calls, m.focus, strings.Contains(screen(m), "new here?"))
	}
	if without := New(Options{Source: "replay test.rec"}); without.firstRun {
		t.Error("a session without FirstRun shows the hint")
	}
}
