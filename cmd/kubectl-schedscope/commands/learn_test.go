package commands

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/pflag"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui"
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

// TestLessonsFollowedLiterally runs every lesson in the debugger at 80×24
// and follows what its panel prints, keys and all: > to start and to go on,
// then the step's own ":cycle N" and ":phase P". Each step must be the one
// shown when the learner arrives (never one ahead: ":cycle N" may land on
// a later step's phase), with its question on screen, and, after a, its
// answer. The first-run hint does not cover the introduction, and the last
// step names the next lesson.
func TestLessonsFollowedLiterally(t *testing.T) {
	where := regexp.MustCompile(`→ open cycle (\d+) on .* \(:cycle (\d+), then ←/→ or :phase (\S+)\)`)
	names := fixtures.LessonNames()
	for li, name := range names {
		t.Run(name, func(t *testing.T) {
			l, err := fixtures.ReadLesson(name)
			if err != nil {
				t.Fatal(err)
			}
			tl, err := tuiLesson(l)
			if err != nil {
				t.Fatal(err)
			}
			m := lessonSession(t, l, tl)
			s := lessonScreen(m)
			if !strings.Contains(s, "· introduction") || !strings.Contains(flat(s), flat(firstWords(l.Intro, 8))) || strings.Contains(s, "new here?") {
				t.Fatalf("the introduction is not shown, or the first-run hint covers it:\n%s", s)
			}
			for k, st := range l.Steps {
				m = pressKeys(m, ">")
				s = lessonScreen(m)
				head := fmt.Sprintf("step %d of %d", k+1, len(l.Steps))
				if !strings.Contains(s, head) {
					t.Fatalf("step %d: > does not show it:\n%s", k+1, s)
				}
				if !strings.Contains(s, "✓ here:") {
					g := where.FindStringSubmatch(s)
					if g == nil || g[1] != strconv.Itoa(st.Cycle) || g[2] != g[1] {
						t.Fatalf("step %d: no whole instruction to reach cycle %d on %s:\n%s", k+1, st.Cycle, st.Phase, s)
					}
					m = pressKeys(m, ":", "text:cycle "+g[2], "enter")
					if s = lessonScreen(m); !strings.Contains(s, head) {
						t.Fatalf("step %d: :cycle %s went past the step:\n%s", k+1, g[2], s)
					}
					m = pressKeys(m, ":", "text:phase "+g[3], "enter")
					s = lessonScreen(m)
				}
				if !strings.Contains(s, head) || !strings.Contains(s, "✓ here:") {
					t.Fatalf("step %d: following its instructions does not reach it:\n%s", k+1, s)
				}
				if st.Ask == "" {
					if !strings.Contains(flat(s), flat(st.Say)) {
						t.Errorf("step %d: what it says is not whole on screen:\n%s", k+1, s)
					}
					continue
				}
				if !strings.Contains(flat(s), flat("? "+st.Ask)) {
					t.Errorf("step %d: its question is not whole on screen:\n%s", k+1, s)
				}
				m = pressKeys(m, "a")
				if s = lessonScreen(m); !strings.Contains(flat(s), flat(st.Ask+" — "+st.Answer)) {
					t.Errorf("step %d: a does not show the whole answer:\n%s", k+1, s)
				}
			}
			if li+1 < len(names) && !strings.Contains(flat(s), "the next lesson: kubectl schedscope learn "+names[li+1]) {
				t.Errorf("the last step does not name the next lesson:\n%s", s)
			}
		})
	}
}

// lessonSession is lesson l's run in the debugger, 80×24, every event
// given, on a first run (the hint would show).
func lessonSession(t *testing.T, l *fixtures.Lesson, tl *tui.Lesson) tea.Model {
	t.Helper()
	o := &SimOptions{}
	o.addFlags(pflag.NewFlagSet("sim", pflag.ContinueOnError)) // the flags' defaults
	o.Fixture = l.Fixture
	t.Cleanup(func() { _ = featuregates.Reset() })
	if err := lessonGates(&o.simOptions, l); err != nil {
		t.Fatal(err)
	}
	if l.Config != "" {
		path, err := writeLessonConfig(l)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Remove(path) })
		o.Config = path
	}
	var evs []source.Event
	src := &fixtureSource{o: &o.simOptions}
	if err := src.Run(context.Background(), func(ev source.Event) bool { evs = append(evs, ev); return true }); err != nil {
		t.Fatal(err)
	}
	ch := make(chan source.Event, len(evs))
	for _, ev := range evs {
		ch <- ev
	}
	close(ch)
	var m tea.Model = tui.New(tui.Options{Source: "fixture " + l.Fixture, Events: ch, Lesson: tl, FirstRun: func() {}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	// Read the events as the program would: each read is re-armed.
	for cmd := m.Init(); cmd != nil; {
		msg := cmd()
		cmd = nil
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				if c != nil {
					m, cmd = m.Update(c())
				}
			}
			continue
		}
		if msg != nil {
			m, cmd = m.Update(msg)
		}
	}
	return m
}

// pressKeys presses keys in order ("text:abc" types abc; "enter"), as the
// learner would; what they start is not run.
func pressKeys(m tea.Model, keys ...string) tea.Model {
	for _, k := range keys {
		if s, ok := strings.CutPrefix(k, "text:"); ok {
			for _, r := range s {
				m, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			continue
		}
		if k == "enter" {
			m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
			continue
		}
		m, _ = m.Update(tea.KeyPressMsg{Code: []rune(k)[0], Text: k})
	}
	return m
}

func lessonScreen(m tea.Model) string { return ansi.Strip(m.(tui.Model).Render()) }

// flat is s with its lines' indents and line ends made single spaces, so
// that wrapped text is found as one sentence.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// TestLearnListAt80Columns: at 80 columns the list wraps between words,
// under the titles, and fits a 24-line screen with its last line.
func TestLearnListAt80Columns(t *testing.T) {
	var out bytes.Buffer
	o := &LearnOptions{SimOptions: SimOptions{simOptions: newSimOptions(genericiooptions.IOStreams{Out: &out, ErrOut: &out})}}
	if err := o.listWidth(80); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) > 23 {
		t.Errorf("%d lines: the first lessons scroll off a 24-line screen:\n%s", len(lines), out.String())
	}
	words := map[string]bool{}
	for _, n := range fixtures.LessonNames() {
		l, err := fixtures.ReadLesson(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range strings.Fields(fmt.Sprintf("%s %s (fixture %s, its own profile, %d steps) (%d steps)", n, l.Title, l.Fixture, len(l.Steps), len(l.Steps))) {
			words[w] = true
		}
	}
	for _, line := range lines {
		if len(line) > 80 {
			t.Errorf("%d columns: %q", len(line), line)
		}
		for _, w := range strings.Fields(line) {
			if !words[w] && !strings.HasPrefix(line, "open one with") {
				t.Errorf("%q: a word cut in two, in %q", w, line)
			}
		}
	}
}
