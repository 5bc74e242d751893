package tui

import (
	"strings"
	"testing"

	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// TestLessonPanel: a lesson opens on its introduction; > starts it; the
// panel says where to go until the learner is there; a shows the answer;
// reaching the next step's cycle and phase moves on to it, and going back
// to an earlier step's shows that one again.
func TestLessonPanel(t *testing.T) {
	rec := loadRecording(t, "preemption")
	l := &Lesson{Title: "Preemption", Intro: "When no node fits a pod, PostFilter runs.", Steps: []LessonStep{
		{Cycle: 1, Phase: cyclepage.Filter, Say: "Both nodes are full.", Ask: "Could any node take it?", Answer: "No."},
		{Cycle: 1, Phase: cyclepage.PostFilter, Say: "DefaultPreemption nominates node-1."},
	}, Next: "kubectl schedscope learn 4-resources"}
	// On a first run too: the hint would cover the introduction, and >
	// would both close it and start the lesson.
	m := newSessionWith(rec, Options{Source: "fixture preemption", Lesson: l, FirstRun: func() {}}, 80, 24)
	if s := screen(m); !strings.Contains(s, "lesson: Preemption · introduction") || !strings.Contains(s, "When no node fits a pod") || strings.Contains(s, "new here?") {
		t.Fatalf("no introduction, or the first-run hint covers it:\n%s", s)
	}
	m = keys(m, ">")
	if s := screen(m); !strings.Contains(s, "step 1 of 2") || !strings.Contains(s, "→ open cycle 1 on Filter") || strings.Contains(s, "No.") {
		t.Fatalf("step 1 does not say where to go:\n%s", s)
	}
	// :cycle 1 opens the cycle on its decisive phase, PostFilter, step 2's
	// place: step 1 is not skipped, the panel still says where it is.
	m = keys(m, ":", "text:cycle 1", "enter")
	if s := screen(m); m.view.Phase() != cyclepage.PostFilter || !strings.Contains(s, "step 1 of 2") || !strings.Contains(s, "→ open cycle 1 on Filter") {
		t.Fatalf(":cycle 1 on %s skipped step 1:\n%s", m.view.Phase(), s)
	}
	m = keys(m, ":", "text:phase filter", "enter")
	golden(t, "lesson-80x24", screen(m))
	if s := screen(m); strings.Contains(s, "→ open cycle") || !strings.Contains(s, "Could any node take it?") {
		t.Errorf("at cycle 1's Filter the panel still says where to go:\n%s", s)
	}
	m = keys(m, "a")
	if s := screen(m); !strings.Contains(s, "Could any node take it? — No.") {
		t.Errorf("a did not show the answer:\n%s", s)
	}
	m = keys(m, "l")
	if m.view.Phase() != cyclepage.PostFilter || !strings.Contains(screen(m), "step 2 of 2") {
		t.Errorf("reaching PostFilter did not move on to step 2:\n%s", screen(m))
	}
	m = keys(m, "h")
	if !strings.Contains(screen(m), "step 1 of 2") {
		t.Errorf("going back to Filter did not show step 1 again:\n%s", screen(m))
	}
	m = keys(m, ">")
	if s := screen(m); !strings.Contains(s, "the next lesson: kubectl schedscope learn 4-resources") {
		t.Errorf("the last step does not name the next lesson:\n%s", s)
	}
	m = keys(m, ">")
	if s := screen(m); !strings.Contains(m.message.Text, "the last step") || !strings.Contains(s, "the next lesson: kubectl schedscope learn 4-resources") || strings.Contains(s, ":fixtures") {
		t.Errorf("> past the last step: %q\n%s", m.message.Text, s)
	}
	l.Next = ""
	m = keys(m, ">")
	if !strings.Contains(m.message.Text, "the last lesson") {
		t.Errorf("> past the last lesson's last step: %q", m.message.Text)
	}
}

// TestLessonHereNamesThePhaseAsTheWayThere: once the learner reaches a
// step's phase, the panel names it as the line that sent them there did
// (and as the title does): "Weighted sum", not its short "Sum".
func TestLessonHereNamesThePhaseAsTheWayThere(t *testing.T) {
	rec := loadRecording(t, "default")
	l := &Lesson{Title: "Scores", Steps: []LessonStep{
		{Cycle: 1, Phase: cyclepage.Weighted, Say: "Look at the sums."},
	}}
	m := keys(newSessionWith(rec, Options{Source: "fixture default", Lesson: l}, 80, 24), ">")
	if s := screen(m); !strings.Contains(s, "→ open cycle 1 on Weighted sum") {
		t.Fatalf("step 1 does not say where to go:\n%s", s)
	}
	m = keys(m, ":", "text:cycle 1", "enter", ":", "text:phase sum", "enter")
	if s := screen(m); !strings.Contains(s, "✓ here: cycle 1, Weighted sum") {
		t.Errorf("the panel does not name the phase reached as it named it:\n%s", s)
	}
}
