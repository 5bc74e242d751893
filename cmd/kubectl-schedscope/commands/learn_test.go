package commands

import (
	"strings"
	"testing"

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
	for _, n := range names {
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
	}
	if _, errOut, code := run(t, "learn", "nope"); code != 1 || !strings.Contains(errOut, `no lesson "nope" (the lessons are `) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("learn nope: exit %d, %q", code, errOut)
	}
	if _, errOut, code := run(t, "learn", names[0]); code != 1 || !strings.Contains(errOut, "needs a terminal") {
		t.Errorf("learn without a terminal: exit %d, %q", code, errOut)
	}
}
