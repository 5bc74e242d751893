package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// A Lesson is a guided walk through the session's cycles (kubectl
// schedscope learn): its steps show in a panel under the cycles. A step says where to look; once the learner is there it says what
// is there and asks a question answered by looking (a reveals the
// answer). Reaching the next step's cycle and phase moves on to it; > and
// < move by hand.
type Lesson struct {
	Title, Intro string
	Steps        []LessonStep
	// Next is what opens the next lesson ("kubectl schedscope learn
	// 4-resources"), said at the end of this one; "" after the last.
	Next string
}

// LessonStep is one step: where (cycle Seq on phase Phase) and what.
type LessonStep struct {
	Cycle            int
	Phase            cyclepage.Phase
	Say, Ask, Answer string
}

// lessonKeys are the lesson panel's keys.
type lessonKeys struct{ Next, Prev, Answer key.Binding }

var lessonKeyMap = lessonKeys{
	Next:   key.NewBinding(key.WithKeys(">"), key.WithHelp(">", "next step")),
	Prev:   key.NewBinding(key.WithKeys("<"), key.WithHelp("<", "previous step")),
	Answer: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "answer")),
}

// lessonState is where the learner is in the lesson: step -1 is the intro.
type lessonState struct {
	l        *Lesson
	step     int
	answered bool
	// seen is where the learner was when the lesson last looked: it
	// follows a move, never undoes > or <.
	seen struct {
		seq int
		p   cyclepage.Phase
		ok  bool
	}
}

// lessonKey handles the lesson's keys; ok false leaves msg to the session.
func (m *Model) lessonKey(msg tea.KeyPressMsg) bool {
	s := m.lesson
	if s == nil {
		return false
	}
	switch {
	case key.Matches(msg, lessonKeyMap.Next):
		if s.step < len(s.l.Steps)-1 {
			s.step, s.answered = s.step+1, false
		} else {
			m.say("%s", s.l.end())
		}
	case key.Matches(msg, lessonKeyMap.Prev):
		if s.step > -1 {
			s.step, s.answered = s.step-1, false
		}
	case key.Matches(msg, lessonKeyMap.Answer):
		if s.step >= 0 && s.l.Steps[s.step].Answer != "" {
			s.answered = true
		} else {
			return false
		}
	default:
		return false
	}
	return true
}

// end is what the lesson says past its last step: the next lesson.
func (l *Lesson) end() string {
	if l.Next == "" {
		return fmt.Sprintf("that was the last step of %q, and the last lesson; :fixtures lists more to explore", l.Title)
	}
	return fmt.Sprintf("that was the last step of %q; the next lesson: %s", l.Title, l.Next)
}

// where is the cycle and phase on screen, ok false outside a cycle.
func (m *Model) where() (seq int, p cyclepage.Phase, ok bool) {
	if m.focus != focusCycle || m.top() != nil {
		return 0, 0, false
	}
	i := m.view.Index()
	if i < 0 || i >= len(m.list.Entries()) {
		return 0, 0, false
	}
	return m.list.Entry(i).Seq, m.view.Phase(), true
}

// followLesson shows the step whose cycle and phase the learner has
// reached: the current one if it is there, else the next step, else an
// earlier one (the learner went back). A later step is not skipped to: the
// lesson goes in order.
func (m *Model) followLesson() {
	s := m.lesson
	if s == nil {
		return
	}
	seq, p, ok := m.where()
	if seen := s.seen; seen.seq == seq && seen.p == p && seen.ok == ok {
		return // the learner has not moved
	}
	s.seen.seq, s.seen.p, s.seen.ok = seq, p, ok
	if !ok {
		return
	}
	at := func(k int) bool { return k >= 0 && s.l.Steps[k].Cycle == seq && s.l.Steps[k].Phase == p }
	if at(s.step) {
		return
	}
	if s.step+1 < len(s.l.Steps) && at(s.step+1) {
		s.step, s.answered = s.step+1, false
		return
	}
	for k := s.step - 1; k >= 0; k-- {
		if at(k) {
			s.step, s.answered = k, false
			return
		}
	}
}

// lessonRowsNow is how many lines of the body the lesson's panel takes: the
// cycle list and the cycle view are laid out above it, so that a phase's
// own last lines (its summary, its legend) stay in sight. None while the
// first-run hint shows.
func (m *Model) lessonRowsNow() int {
	if m.lesson == nil || m.firstRun {
		return 0
	}
	return len(m.lessonPanel())
}

// lessonPanel is the lesson's panel: a rule, the title, where to go (or
// that the learner is there: the line is always there, so that the panel
// keeps its height while the learner moves), what the step says and asks,
// and its keys; at most half the body.
func (m *Model) lessonPanel() []string {
	s, w := m.lesson, m.w
	rule := m.st.Border.Render(strings.Repeat("─", w))
	title := fmt.Sprintf("lesson: %s", s.l.Title)
	var lines []string
	keys := "> next step · < back · ? help"
	if s.step < 0 {
		title += " · introduction"
		lines = layout.Wrap("  "+s.l.Intro, w, "  ")
		keys = "> starts the lesson"
	} else {
		st := s.l.Steps[s.step]
		title += fmt.Sprintf(" · step %d of %d", s.step+1, len(s.l.Steps))
		if seq, p, ok := m.where(); ok && seq == st.Cycle && p == st.Phase {
			lines = append(lines, m.st.Dim.Render(layout.Fit(fmt.Sprintf("  ✓ here: cycle %d, %s", st.Cycle, st.Phase.Short()), w)))
		} else {
			lines = append(lines, layout.Fit(fmt.Sprintf("  → open cycle %d on %s (:cycle %d, then ←/→ or :phase %s)",
				st.Cycle, st.Phase, st.Cycle, strings.ToLower(st.Phase.Short())), w))
		}
		lines = append(lines, layout.Wrap("  "+st.Say, w, "  ")...)
		if st.Ask != "" {
			if s.answered {
				lines = append(lines, layout.Wrap("  ? "+st.Ask+" — "+st.Answer, w, "    ")...)
			} else {
				lines = append(lines, layout.Wrap("  ? "+st.Ask, w, "    ")...)
				keys = "a shows the answer · " + keys
			}
		}
		if s.step == len(s.l.Steps)-1 {
			keys = strings.Replace(keys, "> next step", "> what next", 1)
			if s.l.Next != "" {
				lines = append(lines, layout.Wrap("  the last step; the next lesson: "+s.l.Next, w, "    ")...)
			}
		}
	}
	panel := []string{rule, m.st.Title.Render(layout.Fit(title, w))}
	for _, l := range lines {
		panel = append(panel, layout.Fit(l, w))
	}
	panel = append(panel, m.st.Dim.Render(layout.Fit("  "+keys, w)))
	if most := m.bodyHeight() / 2; len(panel) > most {
		panel = append(panel[:max(most-1, 1)], panel[len(panel)-1])
	}
	return panel
}
