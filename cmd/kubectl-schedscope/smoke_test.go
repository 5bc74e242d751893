package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSmokeTUIInTmux builds the real binary, runs it with no arguments (the
// debugger over the embedded default fixture) in a tmux pane of 80×24, opens
// the unschedulable cycle, steps to its Filter phase and reads the screen.
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
	run("new-session", "-d", "-s", "smoke", "-x", "80", "-y", "24", "env TERM=xterm-256color "+bin)
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
	list := waitFor("all four cycles", func(s string) bool {
		return strings.Contains(s, "default/huge") && strings.Contains(s, "4/4")
	})
	for _, want := range []string{"default/web", "default/api", "default/trainer", "Unschedulable"} {
		if !strings.Contains(list, want) {
			t.Errorf("cycle list lacks %q:\n%s", want, list)
		}
	}
	// The selection follows the newest cycle: default/huge, which found no node.
	run("send-keys", "-t", "smoke", "Enter")
	waitFor("the cycle view", func(s string) bool { return strings.Contains(s, "cycle 4") })
	run("send-keys", "-t", "smoke", "l", "l")
	filter := waitFor("the Filter phase", func(s string) bool { return strings.Contains(s, "[Filter]") })
	for _, want := range []string{"0/4 nodes are available", "NodeResourcesFit", "node-c"} {
		if !strings.Contains(filter, want) {
			t.Errorf("Filter phase lacks %q:\n%s", want, filter)
		}
	}
	for _, line := range strings.Split(strings.TrimRight(filter, "\n"), "\n") {
		if w := len([]rune(line)); w > 80 {
			t.Errorf("line wider than the 80-column pane (%d): %q", w, line)
		}
	}
	run("send-keys", "-t", "smoke", "q")
	deadline := time.Now().Add(10 * time.Second)
	for exec.Command(tmux, "-S", sock, "has-session", "-t", "smoke").Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("q did not quit; screen:\n%s", screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
