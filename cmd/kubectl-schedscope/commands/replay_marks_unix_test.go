//go:build unix

package commands

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder"
)

// A named pipe where the marks would be is refused in one line, without
// waiting for a writer, and the export is still written.
func TestReplayMarksNotARegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.rec")
	if _, errOut, code := run(t, "record", "-f", "preemption", "-o", path); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	if err := syscall.Mkfifo(recorder.MarksPath(path), 0o600); err != nil {
		t.Fatal(err)
	}
	type result struct {
		out, errOut string
		code        int
	}
	done := make(chan result, 1)
	go func() {
		out, errOut, code := run(t, "replay", path, "--no-tui", "-o", "markdown")
		done <- result{out, errOut, code}
	}()
	select {
	case r := <-done:
		if r.code != 0 || r.errOut != "warning: "+path+".marks: not a regular file: not a sidecar of marks\n" {
			t.Errorf("exit %d, stderr %q; want one line saying the sidecar is not a regular file", r.code, r.errOut)
		}
		if !strings.Contains(r.out, "## Cycle 1") {
			t.Errorf("no export:\n%s", r.out)
		}
	case <-time.After(time.Minute):
		t.Fatal("replay -o markdown waits on a named pipe in the sidecar's place")
	}
}
