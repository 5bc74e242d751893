package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder/export/otel/otlptest"
)

// manyPods writes a fixture of 50 nodes and n small pods: more spans than
// the exporter and the SDK's batch processor hold together.
func manyPods(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata: {name: node-%d}\nstatus:\n  allocatable: {cpu: \"64\", memory: 256Gi, pods: \"110\"}\n---\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Pod\nmetadata: {name: p-%d, namespace: default}\nspec:\n  containers:\n  - {name: c, image: nginx, resources: {requests: {cpu: 10m}}}\n---\n", i)
	}
	path := filepath.Join(t.TempDir(), "many.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// runFor runs the binary with args, killing it after limit; it reports
// its output and how long it ran.
func runFor(t *testing.T, limit time.Duration, args ...string) (string, time.Duration) {
	t.Helper()
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v still ran after %s; output so far:\n%s", args, limit, out.String())
	}
	return out.String(), time.Since(start)
}

// dropLine matches the export summary of a backend given up on.
var dropLine = regexp.MustCompile(`(?m)^otlp: \d+ cycles made \d+ spans; 0 reached \S+; gave up \(.*\): dropped \d+ spans and \d+ records not yet made into spans.*$`)

// slack is what a command may take beyond --otlp-timeout to end, on a
// busy machine.
const slack = 4 * time.Second

// An endpoint that accepts connections and never answers holds no command
// up: record ends --otlp-timeout after its last cycle, export gives up
// when the backend has taken nothing for as long, and sim quits as soon
// after q; each says in one line what was dropped.
func TestSilentEndpointHoldsNoCommand(t *testing.T) {
	silent := otlptest.Silent(t)
	fixture := manyPods(t, 1500)
	rec := filepath.Join(t.TempDir(), "o.rec")
	const wait = 5 * time.Second // --otlp-timeout's default (otel.DefaultTimeout), not given: the test runs on older binaries too

	t.Run("record", func(t *testing.T) {
		out, took := runFor(t, time.Minute, "record", "-f", fixture, "-o", rec, "--arrival", "burst", "--otlp-endpoint", silent)
		m := regexp.MustCompile(`through the scheduler \(\d+ bound, \d+ not\) in ([0-9.]+m?s)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("record did not say it wrote the recording:\n%s", out)
		}
		scheduling, err := time.ParseDuration(m[1])
		if err != nil {
			t.Fatal(err)
		}
		if took-scheduling > wait+slack {
			t.Errorf("record scheduled for %s and exited after %s: want it done within %s of its last cycle", scheduling, took, wait+slack)
		}
		if !dropLine.MatchString(out) {
			t.Errorf("record's output has no line saying what the export dropped:\n%s", out)
		}
	})

	t.Run("export", func(t *testing.T) {
		out, took := runFor(t, time.Minute, "export", "--otlp", silent, rec)
		if took > wait+2*slack {
			t.Errorf("export ran for %s: want it to give up on a silent backend within %s", took, wait+2*slack)
		}
		if !dropLine.MatchString(out) || !strings.Contains(out, "not every trace reached the backend") {
			t.Errorf("export's output does not say what it dropped:\n%s", out)
		}
	})

	t.Run("sim quit", func(t *testing.T) {
		tmux, err := exec.LookPath("tmux")
		if err != nil {
			t.Fatal("tmux is needed to run sim in a terminal (Debian package tmux)")
		}
		bin, err := builtBinary()
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		sock, exited, stderr := filepath.Join(dir, "tmux.sock"), filepath.Join(dir, "exited"), filepath.Join(dir, "stderr")
		tm := func(args ...string) string {
			t.Helper()
			out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
			if err != nil {
				t.Fatalf("tmux %v: %v\n%s", args, err, out)
			}
			return string(out)
		}
		tm("new-session", "-d", "-s", "sim", "-x", "120", "-y", "30",
			fmt.Sprintf("env TERM=xterm-256color %s sim -f %s --arrival burst --otlp-endpoint %s 2>%s; echo $? > %s; sleep 600", bin, fixture, silent, stderr, exited))
		t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })
		deadline := time.Now().Add(time.Minute)
		for !strings.Contains(tm("capture-pane", "-p", "-t", "sim"), "■ done") {
			if time.Now().After(deadline) {
				t.Fatalf("sim did not finish its run within a minute:\n%s", tm("capture-pane", "-p", "-t", "sim"))
			}
			time.Sleep(200 * time.Millisecond)
		}
		tm("send-keys", "-t", "sim", "q")
		quit := time.Now()
		for {
			if _, err := os.Stat(exited); err == nil {
				break
			}
			if time.Since(quit) > time.Minute {
				t.Fatalf("sim still ran a minute after q")
			}
			time.Sleep(50 * time.Millisecond)
		}
		if took := time.Since(quit); took > wait+slack {
			t.Errorf("sim exited %s after q: want within %s", took, wait+slack)
		}
		msg, _ := os.ReadFile(stderr)
		if !dropLine.Match(msg) {
			t.Errorf("sim's standard error does not say what the export dropped:\n%s", msg)
		}
	})
}
