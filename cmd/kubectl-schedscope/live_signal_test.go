package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder"
)

// lockedBuffer is a buffer a child process writes while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// liveGrace is what live may take to end after a signal: well within the
// termination grace period deploy gives its pod (30 s).
const liveGrace = 10 * time.Second

// live --no-tui, as deploy's Deployment runs it, taken down by SIGTERM,
// SIGINT or SIGHUP while it schedules: it closes its flight recording
// (verify finds its end, and every cycle printed is in it) and says how it
// ended, in time.
func TestLiveHeadlessEndsCleanlyOnSignals(t *testing.T) {
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	kc := fakeAPIServer(t, 3000)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "flight.ssr")
			cmd := exec.Command(bin, "live", "--no-tui", "-A", "--kubeconfig", kc, "--record", rec)
			var stdout, stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill() })
			deadline := time.Now().Add(time.Minute)
			for strings.Count(stdout.String(), "\ncycle ") < 100 {
				if time.Now().After(deadline) {
					t.Fatalf("live printed fewer than 100 cycles in a minute; stderr:\n%s", stderr.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			sent := time.Now()
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(liveGrace):
				t.Fatalf("live still ran %s after %s", liveGrace, sig)
			}
			if err != nil {
				t.Errorf("live exited after %s with %v (in %s); stderr:\n%s", sig, err, time.Since(sent), stderr.String())
			}
			if want := "live: stopped: " + sig.String() + " signal received after "; !strings.Contains(stderr.String(), want) ||
				!strings.Contains(stderr.String(), "flight recording closed: "+rec) {
				t.Errorf("stderr does not say %q and that the recording is closed:\n%s", want, stderr.String())
			}
			report, code := runBinary(t, "verify", rec)
			if code != 0 || strings.Contains(report, "no end record") {
				t.Errorf("verify %s: exit %d:\n%s", rec, code, report)
			}
			printed := strings.Count("\n"+stdout.String(), "\ncycle ")
			r, err := recorder.LoadFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Cycles) < printed {
				t.Errorf("%d cycles printed, %d in the recording", printed, len(r.Cycles))
			}
		})
	}
}
