package commands

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/fixtures"
)

// TestLearn: learn --list prints a line a lesson; every lesson reads and
// names phases the debugger has; a name that is no lesson is one error
// line listing them; learn without a terminal says so.
func TestLearn(t *testing.T) {
	out, errOut, code := run(t, "learn", "--list")
	names := fixtures.LessonNames()
	if code != 0 || strings.Count(out, "\n") != len(names) {
		t.Fatalf("learn --list: exit %d, %q, %s", code, out, errOut)
	}
	for i, n := range names {
		if !strings.Contains(out, n+" ") {
			t.Errorf("learn --list does not list %s:\n%s", n, out)
		}
		l, err := fixtures.ReadLesson(n)
		if err != nil {
			t.Fatal(err)
		}
		tl, err := tuiLesson(l)
		if err != nil || len(tl.Steps) != len(l.Steps) {
			t.Errorf("lesson %s in the debugger: %v", n, err)
		}
		// The end of a lesson names the next one.
		want := ""
		if i+1 < len(names) {
			want = "kubectl schedscope learn " + names[i+1]
		}
		if tl.Next != want {
			t.Errorf("lesson %s ends pointing to %q, want %q", n, tl.Next, want)
		}
	}
	if _, errOut, code := run(t, "learn", "nope"); code != 1 || !strings.Contains(errOut, `no lesson "nope" (the lessons are `) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("learn nope: exit %d, %q", code, errOut)
	}
	if _, errOut, code := run(t, "learn", names[0]); code != 1 || !strings.Contains(errOut, "needs a terminal") {
		t.Errorf("learn without a terminal: exit %d, %q", code, errOut)
	}
}

// TestLessonConfigLeftByAKillIsRemoved: a lesson configuration whose
// process is gone and which is older than a few minutes is removed when a
// lesson opens; one of a running process, one just written, and files not
// named as lesson configurations are, stay.
func TestLessonConfigLeftByAKillIsRemoved(t *testing.T) {
	// A process that has ended: its PID names no process (until reused,
	// which the few minutes allow for).
	ended := exec.Command(os.Args[0], "-test.run=^$")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	dead := ended.Process.Pid
	dir := t.TempDir()
	old := time.Now().Add(-10 * time.Minute)
	plant := func(name string, mod time.Time) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("kind: KubeSchedulerConfiguration\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mod, mod); err != nil {
			t.Fatal(err)
		}
		return path
	}
	stale := plant(fmt.Sprintf("%s%d-3-preemption-123.yaml", lessonConfigPrefix, dead), old)
	keep := []string{
		plant(fmt.Sprintf("%s%d-3-preemption-456.yaml", lessonConfigPrefix, os.Getpid()), old),
		plant(fmt.Sprintf("%s%d-3-preemption-789.yaml", lessonConfigPrefix, dead), time.Now()),
		plant(fmt.Sprintf("other-pid%d.yaml", dead), old),
	}
	removeStaleLessonConfigs(dir, time.Now())
	for _, n := range fixtures.LessonNames() {
		if l, err := fixtures.ReadLesson(n); err == nil && l.Config != "" {
			path, err := writeLessonConfig(l)
			if err != nil {
				t.Fatal(err)
			}
			os.Remove(path)
			if want := fmt.Sprintf("%s%d-%s-", lessonConfigPrefix, os.Getpid(), n); !strings.HasPrefix(filepath.Base(path), want) {
				t.Errorf("lesson %s's configuration is written to %s, want a name starting %s", n, filepath.Base(path), want)
			}
			break
		}
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s, left by process %d which is gone, is still there (%v)", filepath.Base(stale), dead, err)
	}
	for _, path := range keep {
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(path), err)
		}
	}
}
