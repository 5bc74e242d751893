package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// A Lesson is a guided walk through the session's cycles (kubectl
// schedscope learn): its steps show in a panel under the cycles. A step says where to look; once the learner is there it says what
// is there and asks a question answered by looking (a reveals the
// answer). Reaching the next step's cycle and phase, once the current
// step's was reached, moves on to it; > and < move by hand.
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
	// reached says the learner has been at the step's cycle and phase
	// while it was shown: only then does arriving at the next step's move
	// on to it (":cycle N" may open on a later step's phase first).
	reached bool
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
			m.lessonTo(s.step + 1)
		} else {
			m.say("%s", s.l.end())
		}
	case key.Matches(msg, lessonKeyMap.Prev):
		if s.step > -1 {
			m.lessonTo(s.step - 1)
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

// lessonTo shows step k (by > or <), reached when the learner is at it.
func (m *Model) lessonTo(k int) {
	s := m.lesson
	s.step, s.answered = k, false
	seq, p, ok := m.where()
	s.reached = k < 0 || ok && s.at(k, seq, p)
}

// at tells whether step k is cycle seq on phase p.
func (s *lessonState) at(k, seq int, p cyclepage.Phase) bool {
	return k >= 0 && k < len(s.l.Steps) && s.l.Steps[k].Cycle == seq && s.l.Steps[k].Phase == p
}

// where is the cycle and phase on screen, ok false outside a cycle.
func (m *Model) where() (seq int, p cyclepage.Phase, ok bool) {
	if m.focus != focusCycle || m.top() != nil && !m.showing(whatifLayer{}) {
		return 0, 0, false
	}
	i := m.view.Index()
	if i < 0 || i >= len(m.list.Entries()) {
		return 0, 0, false
	}
	return m.list.Entry(i).Seq, m.view.Phase(), true
}

// followLesson shows the step whose cycle and phase the learner has
// reached: the current one if it is there, else the next step once the
// current one was reached, else an earlier one (the learner went back). A
// step is not skipped: the lesson goes in order, and a move that passes
// over the current step's place on its way (":cycle N" opening on a later
// phase) leaves the current step shown, saying where to go.
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
	if s.at(s.step, seq, p) {
		s.reached = true
		return
	}
	// The next step only once this one was seen: the introduction is seen
	// as soon as it shows.
	if (s.reached || s.step < 0) && s.at(s.step+1, seq, p) {
		s.step, s.answered, s.reached = s.step+1, false, true
		return
	}
	for k := s.step - 1; k >= 0; k-- {
		if s.at(k, seq, p) {
			s.step, s.answered, s.reached = k, false, true
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
// and its keys; at most half the body, unless the question would not fit
// beside what the step says (then the panes keep minPanes lines), and once
// answered what the step says gives way to the answer.
func (m *Model) lessonPanel() []string {
	s, w := m.lesson, m.w
	rule := m.st.Border.Render(strings.Repeat("─", w))
	// at is where the learner is in the lesson: the title gives way first.
	var at string
	var where, say, qa []string
	keys := "> next step · < back · ? help"
	if s.step < 0 {
		at = " · introduction"
		say = layout.Wrap("  "+s.l.Intro, w, "  ")
		keys = "> starts the lesson"
	} else {
		st := s.l.Steps[s.step]
		at = fmt.Sprintf(" · step %d of %d", s.step+1, len(s.l.Steps))
		if seq, p, ok := m.where(); ok && seq == st.Cycle && p == st.Phase {
			where = append(where, m.st.Dim.Render(fmt.Sprintf("  ✓ here: cycle %d, %s", st.Cycle, st.Phase.Short())))
		} else {
			where = append(where, layout.Wrap(fmt.Sprintf("  → open cycle %d on %s (:cycle %d, then ←/→ or :phase %s)",
				st.Cycle, st.Phase, st.Cycle, strings.ToLower(st.Phase.Short())), w, "    ")...)
		}
		say = layout.Wrap("  "+st.Say, w, "  ")
		if st.Ask != "" {
			if s.answered {
				qa = layout.Wrap("  ? "+st.Ask+" — "+st.Answer, w, "    ")
			} else {
				qa = layout.Wrap("  ? "+st.Ask, w, "    ")
				keys = "a shows the answer · " + keys
			}
		}
		if s.step == len(s.l.Steps)-1 {
			keys = strings.Replace(keys, "> next step", "> what next", 1)
			if s.l.Next != "" {
				qa = append(qa, layout.Wrap("  the last step; the next lesson: "+s.l.Next, w, "    ")...)
			}
		}
	}
	title := "lesson: " + s.l.Title + at
	if ansi.StringWidth(title) > w {
		title = layout.Fit("lesson: "+s.l.Title, max(w-ansi.StringWidth(at), 0)) + at
	}
	fixed := 3 + len(where) + len(qa) // rule, title, keys
	// At most half the body; when the question and its answer would not
	// fit, what the step says gives way first once answered (it was read),
	// else the panel grows, leaving the panes a few lines.
	room := m.bodyHeight() / 2
	if fixed+len(say) > room && !s.answered {
		room = max(room, min(fixed+len(say), m.bodyHeight()-minPanes))
	}
	if over := fixed + len(say) - room; over > 0 && len(say) > 0 {
		keep := max(len(say)-over, 1)
		if s.answered {
			keep = max(len(say)-over, 0)
		}
		if keep < len(say) {
			say = say[:keep]
			if keep > 0 {
				say[keep-1] = ansi.Truncate(say[keep-1], w-1, "") + "…"
			}
		}
	}
	lines := append(append(where, say...), qa...)
	panel := []string{rule, m.st.Title.Render(layout.Fit(title, w))}
	for _, l := range lines {
		panel = append(panel, layout.Fit(l, w))
	}
	panel = append(panel, m.st.Dim.Render(layout.Fit("  "+keys, w)))
	if most := max(room, m.bodyHeight()/2); len(panel) > most {
		panel = append(panel[:max(most-1, 1)], panel[len(panel)-1])
	}
	return panel
}

// minPanes is how many lines a lesson's panel leaves the panes above it at
// least.
const minPanes = 8
