package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startSlowRecord starts record on the default fixture with its pods a
// second apart, and returns once the temporary file holds a complete
// cycle: a run that a signal can stop part-way.
func startSlowRecord(t *testing.T, out string) (*exec.Cmd, *bytes.Buffer, string) {
	t.Helper()
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "record", "-o", out, "--arrival-interval", "1s")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	prefix := "." + filepath.Base(out) + ".tmp-" + strconv.Itoa(cmd.Process.Pid) + "-"
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		matches, _ := filepath.Glob(filepath.Join(filepath.Dir(out), prefix+"*"))
		if len(matches) == 1 {
			if data, err := os.ReadFile(matches[0]); err == nil && bytes.Contains(data, []byte(`{"kind":"cycle"`)) {
				return cmd, &stderr, matches[0]
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no cycle was written to a temporary file %s* within 30s; stderr: %s", prefix, stderr.String())
	return nil, nil, ""
}

func runBinary(t *testing.T, args ...string) (string, int) {
	t.Helper()
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, args...).CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// TestRecordInterruptedKeepsThePartialRecording sends record SIGINT and
// SIGTERM part-way: it stops, leaves the output unwritten, keeps the cycles
// written so far in its temporary file and names it; verify reads it.
func TestRecordInterruptedKeepsThePartialRecording(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.rec")
			cmd, stderr, temp := startSlowRecord(t, out)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("exit: %v, want exit status 1; stderr: %s", err, stderr)
			}
			msg := stderr.String()
			if !strings.HasPrefix(msg, "error: interrupted: ") || !strings.Contains(msg, temp) || strings.Count(msg, "\n") != 1 {
				t.Errorf("stderr = %q, want one line saying the run was interrupted and naming %s", msg, temp)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written by an interrupted run", out)
			}
			report, code := runBinary(t, "verify", temp)
			if code != 0 || !strings.Contains(report, "cycle") {
				t.Errorf("verify of the partial recording: exit %d:\n%s", code, report)
			}
		})
	}
}

// TestRecordNamesALeftoverOfAKilledRun kills record outright (SIGKILL,
// which no process can catch): the next record to the same output names
// the partial recording it left and keeps it, and --leftover remove
// deletes it; a temporary file of a running record is never touched.
func TestRecordNamesALeftoverOfAKilledRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.rec")
	cmd, _, temp := startSlowRecord(t, out)
	cmd.Process.Kill()
	cmd.Wait()

	// A run still writing the same output is not a leftover.
	running, _, runningTemp := startSlowRecord(t, out)
	msg, code := runBinary(t, "record", "-o", out)
	if code != 0 {
		t.Fatalf("record after a killed run: exit %d: %s", code, msg)
	}
	want := regexp.MustCompile(`(?m)^kept ` + regexp.QuoteMeta(temp) + `: a partial recording of ` + regexp.QuoteMeta(out) +
		` left by process \d+, which is no longer running \(\d+ bytes, [-0-9: ]+\); verify and replay read it, --leftover remove deletes it$`)
	if !want.MatchString(msg) {
		t.Errorf("record's report of the leftover:\n%s\nwant a line matching %s", msg, want)
	}
	if strings.Contains(msg, runningTemp) {
		t.Errorf("record named the temporary file of a running record as a leftover:\n%s", msg)
	}
	if _, err := os.Stat(temp); err != nil {
		t.Errorf("the leftover was not kept: %v", err)
	}

	msg, code = runBinary(t, "record", "-o", out, "--leftover", "remove")
	if code != 0 || !strings.Contains(msg, "removed "+temp) {
		t.Errorf("record --leftover remove: exit %d:\n%s", code, msg)
	}
	if _, err := os.Stat(temp); err == nil {
		t.Errorf("--leftover remove kept %s", temp)
	}
	if _, err := os.Stat(runningTemp); err != nil {
		t.Errorf("the running record's temporary file is gone: %v", err)
	}
	running.Process.Kill()
}
