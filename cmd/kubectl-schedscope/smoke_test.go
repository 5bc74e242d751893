package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestSmokeTUIInTmux builds the real binary, runs it with no arguments (the
// debugger over the embedded default fixture) in a tmux pane of 80×24, waits
// for the run to finish, presses the engine keys (a crash once), opens and
// closes help with q, completes a command, opens the unschedulable cycle on
// its Filter phase and reads the screen.
func TestSmokeTUIInTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatal("tmux is needed for the TUI smoke test (Debian package tmux; .ci/run installs it)")
	}
	bin := filepath.Join(t.TempDir(), "kubectl-schedscope")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	// The pane outlives the program, so that a crash is still on screen.
	exited := filepath.Join(t.TempDir(), "exited")
	run("new-session", "-d", "-s", "smoke", "-x", "80", "-y", "24", "env TERM=xterm-256color "+bin+" 2>&1; echo exit $? > "+exited+"; sleep 600")
	t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })
	screen := func() string { return run("capture-pane", "-p", "-t", "smoke") }
	waitFor := func(what string, ok func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			s := screen()
			if ok(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	// Every pod is in one namespace: the list says it once, in its header.
	// Waited for whole, as every screen here.
	waitFor("all four cycles", func(s string) bool {
		for _, want := range []string{"4/4", "pod (ns default)", " web ", " api ", " trainer ", " huge ", "Unschedulable"} {
			if !strings.Contains(s, want) {
				return false
			}
		}
		return true
	})
	alive := func(after string) {
		t.Helper()
		if b, err := os.ReadFile(exited); err == nil {
			t.Fatalf("the program ended (%s) after %s; screen:\n%s", strings.TrimSpace(string(b)), after, screen())
		}
	}
	waitFor("the end of the run", func(s string) bool { return strings.Contains(s, "■ done") })
	// The engine is gone: the keys say so instead of crashing.
	for _, k := range []struct{ key, says string }{
		{"Space", "nothing to pause"}, {"s", "nothing to step"}, {"b", "nothing to break on"},
	} {
		run("send-keys", "-t", "smoke", k.key)
		waitFor(k.key+"'s answer", func(s string) bool { return strings.Contains(s, "the run has finished; "+k.says) })
		alive(k.key)
	}
	// q closes help; it does not quit.
	run("send-keys", "-t", "smoke", "?")
	waitFor("help", func(s string) bool { return strings.Contains(s, "Inside a cycle") })
	run("send-keys", "-t", "smoke", "q")
	waitFor("help to close", func(s string) bool {
		return strings.Contains(s, " huge ") && !strings.Contains(s, "Inside a cycle")
	})
	alive("q in help")
	// Tab completes the common prefix and lists the rest.
	run("send-keys", "-t", "smoke", ":", "p", "h", "Tab")
	waitFor("the phase candidates", func(s string) bool { return strings.Contains(s, ":phase ") && strings.Contains(s, "queue pref filter") })
	run("send-keys", "-t", "smoke", "C-u", "Escape")
	time.Sleep(300 * time.Millisecond) // let the terminal take esc on its own
	// The selection follows the newest cycle: default/huge, which found no
	// node; it opens on the phase that decided that, Filter.
	run("send-keys", "-t", "smoke", "Enter")
	// Waited for whole: tmux may capture a frame the terminal is still
	// drawing.
	filter := waitFor("the Filter phase of cycle 4, its message and its table", func(s string) bool {
		for _, want := range []string{"cycle 4", "[Filter]", "0/4 nodes are available", "NodeResourcesFit", "node-c"} {
			if !strings.Contains(s, want) {
				return false
			}
		}
		return true
	})
	for _, line := range strings.Split(strings.TrimRight(filter, "\n"), "\n") {
		if w := ansi.StringWidth(line); w > 80 {
			t.Errorf("line wider than the 80-column pane (%d): %q", w, line)
		}
	}
	run("send-keys", "-t", "smoke", "q")
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(exited)
		if err == nil {
			if got := strings.TrimSpace(string(b)); got != "exit 0" {
				t.Fatalf("q: the program ended with %s; screen:\n%s", got, screen())
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("q did not quit; screen:\n%s", screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
