package tui

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/components/breakpoints"
	"github.com/schedscope/schedscope/tui/components/cyclelist"
	"github.com/schedscope/schedscope/tui/components/explain"
	"github.com/schedscope/schedscope/tui/components/helpscreen"
	"github.com/schedscope/schedscope/tui/components/nodephase"
	"github.com/schedscope/schedscope/tui/components/pods"
	"github.com/schedscope/schedscope/tui/components/problems"
	"github.com/schedscope/schedscope/tui/components/prompt"
	"github.com/schedscope/schedscope/tui/components/queuephase"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
	"github.com/schedscope/schedscope/tui/pages/whatif"
	"github.com/schedscope/schedscope/tui/theme"
)

// Options configures a session.
type Options struct {
	Source  string              // shown in the status bar, e.g. "fixture default.yaml" or "replay run.rec (following)"
	Events  <-chan source.Event // what the source sends, closed when it ends; Run sets it from its Source
	Control source.Controller   // nil for replays (then pause/step/breakpoint keys are disabled)
	// WhatIf re-runs cycles with changes; nil where the session cannot be
	// forked (a replay): then the what-if keys say so.
	WhatIf whatif.Source
	// NoWhatIf, when WhatIf is nil, says why (a replay whose fixture has
	// changed since it was recorded).
	NoWhatIf string
	// Recording, for a replay that sends index entries (Event.Entries)
	// instead of cycles, reads a cycle when it is shown; only a few are kept.
	Recording source.Recording
	// Trace, when set, notes when the frames a benchmark measures were drawn.
	Trace *Trace
	// Fixtures are the embedded fixtures, for :fixtures.
	Fixtures []Fixture
	// Lesson, when set, is a guided walk through the session's cycles,
	// shown in a panel (lesson.go).
	Lesson *Lesson
	// Export writes a cycle to share (X): cmd writes it as Markdown and
	// HTML and says where; nil where nothing can be written.
	Export func(h recorder.Header, c *recorder.Cycle) (where string, err error)
	// Marks keeps the marks of a replay's recording, beside it; nil where
	// the session has no recording to mark (m then says so).
	Marks MarkStore
	// FirstRun, when set, shows the first-run hint (firstrun.go) until a key
	// is pressed, and is then called, once, to remember it was seen.
	FirstRun func()
}

// Fixture is an embedded fixture and what it teaches.
type Fixture struct{ Name, Teaches string }

// focus says which pane takes the keys.
type focus uint8

const (
	focusList focus = iota
	focusCycle
)

// wideWidth is the width from which the list and the cycle sit side by side.
const wideWidth = 150

// Model is the root model: it owns the session's data (header, cycles, engine
// state) and routes messages to the cycle list, the cycle view and the prompts,
// laying them out on the screen.
type Model struct {
	opts Options
	st   *theme.Styles
	Keys KeyMap
	help help.Model

	list   cyclelist.Model
	view   cyclepage.Model
	prompt prompt.Model
	// promptFor is what the prompt is open for.
	promptFor promptMode
	// fromStory says the cycle view shows a cycle opened from a pod's
	// story in the Pods view: esc goes back to the story (on the shelf).
	fromStory bool
	wi        whatif.Model
	// printable cleans every event before the model keeps anything from it.
	printable *sanitizer

	focus focus
	// layers are the screens over the panes, the top one shown; shelf
	// the closed ones, to open again as they were left (layers.go).
	layers, shelf []layer
	// firstRun shows the first-run hint over the bottom of the body until a
	// key is pressed (Options.FirstRun).
	firstRun bool
	// marking is the cycle the note prompt is open for (marks.go).
	marking recorder.CycleEntry
	// lesson is where the learner is in Options.Lesson, nil without one;
	// lessonRows how many lines its panel took when the panes were last
	// laid out.
	lesson     *lessonState
	lessonRows int

	header *recorder.Header
	// cycles holds the listed cycles by index, aligned with the list's
	// entries. A replay read through an index sets only those it keeps
	// (open): the others are read again when shown.
	cycles []*recorder.Cycle
	window openCycles
	// want is the index of the cycle the view waits for (-1 for none),
	// wantOpen whether it opens on its decisive phase; reading is the index
	// being read and usageFor the index whose node use is (-1 for none).
	want, reading, usageFor int
	wantOpen                bool
	// unreadable says why cycles could not be read, by index.
	unreadable map[int]string
	progress   *source.Progress
	counts     cycleCounts
	observed   observations
	// never are the pods the source said never got a cycle; neverKnown
	// whether it said (only a fixture's run does).
	never      []recorder.PodState
	neverKnown bool
	// cluster is what a fixture run's controllers left, once it ended.
	cluster *recorder.ClusterState
	// queue holds the scheduling queue's events, in order; queueOf the
	// same by pod (namespace/name), for the Queue phase of each cycle shown.
	queue       []*recorder.QueueEvent
	queueOf     map[string][]*recorder.QueueEvent
	state       *source.EngineState
	done        bool
	breakpoints source.Breakpoints
	// phaseStep says . let one cycle run: it opens at its first phase.
	phaseStep bool
	// notes logs every problem the source reported and every message given to
	// the user, for the problems view; nProblems counts the problems.
	notes     []problems.Note
	nProblems int
	// message is the status bar's word on the last thing that happened (a
	// problem, or the answer to a key); the next key press clears it.
	message problems.Note

	// quitting is set while quit asks whether to lose the what-ifs.
	quitting bool

	w, h  int
	ready bool
}

// quit ends the session, asking first when it would lose what-if re-runs
// (ctrl+c and :q! do not ask).
func (m Model) quit() (tea.Model, tea.Cmd) {
	n := m.wi.Runs().Len()
	if n == 0 {
		return m, tea.Quit
	}
	m.quitting = true
	runs := "the what-if"
	if n > 1 {
		runs = fmt.Sprintf("%d what-ifs", n)
	}
	// Short enough for the status bar at 80 columns.
	m.say("quit, losing %s? %s quits, other keys stay", runs, m.Keys.Quit.Help().Key)
	return m, nil
}

// New returns the root model for a session. It reads NO_COLOR to pick the theme.
func New(opts Options) Model {
	st := theme.New(theme.NoColorRequested())
	m := Model{
		opts:   opts,
		st:     &st,
		Keys:   DefaultKeyMap(),
		help:   help.New(),
		list:   cyclelist.New(&st),
		view:   cyclepage.New(&st),
		prompt: prompt.New(&st),
		wi:     whatif.New(opts.WhatIf, &st, whatif.Options{Why: opts.NoWhatIf, Clean: printable}),

		printable: newSanitizer(),

		want: -1, reading: -1, usageFor: -1,
		unreadable: map[int]string{},
		queueOf:    map[string][]*recorder.QueueEvent{},
	}
	if opts.Recording != nil {
		// A replay shows its first cycle at once and stays there while the
		// rest is indexed; G goes to the last and follows it.
		m.list.SetFollow(false)
		m.view.SetIndexed(true)
	}
	m.help.Styles.ShortKey = st.Key
	m.help.Styles.FullKey = st.Key
	m.help.Styles.ShortDesc = st.Dim
	m.help.Styles.FullDesc = st.Dim
	m.help.Styles.ShortSeparator = st.Dim
	m.help.Styles.FullSeparator = st.Dim
	m.help.Styles.Ellipsis = st.Dim
	m.Keys.setLive(opts.Control != nil)
	// A lesson is its own guide: the first-run hint would cover its
	// introduction, and the key that closes it would start the lesson.
	// It shows on the next session that is not a lesson.
	m.firstRun = opts.FirstRun != nil && opts.Lesson == nil
	if opts.Lesson != nil {
		m.lesson = &lessonState{l: opts.Lesson, step: -1}
	}
	if opts.Marks != nil && opts.Marks.Err() != nil {
		m.problem(opts.Marks.Err().Error())
	}
	m.view.SetRuns(m.wi.Runs())
	if strings.HasPrefix(opts.Source, "fixture ") {
		// A snapshot of a large cluster takes seconds to load.
		m.list.SetWaiting("starting: loading the fixture into the scheduler…")
	}
	return m
}

// controllable tells whether there is an engine the controls can still reach.
func (m Model) controllable() bool { return m.opts.Control != nil && !m.done }

// problem logs a problem the source reported and shows it in the status bar.
func (m *Model) problem(text string) {
	text = printable(text) // errors quote what they read
	m.notes = append(m.notes, problems.Note{Kind: problems.Problem, Text: text})
	m.nProblems++
	m.message = problems.Note{Kind: problems.Problem, Text: text}
	m.refreshProblems()
}

// refreshProblems shows the notes so far in the problems view, if it is
// open: a problem that arrives while it is open is listed at once (the
// status bar counted it while the view still said nothing went wrong).
func (m *Model) refreshProblems() {
	change(m, func(l *problemsLayer) { l.p.SetNotes(m.notes) })
}

// say answers the user in the status bar, and logs the answer for the
// problems view, where it shows whole.
func (m *Model) say(format string, a ...any) {
	text := fmt.Sprintf(format, a...)
	m.notes = append(m.notes, problems.Note{Kind: problems.Message, Text: text})
	m.message = problems.Note{Kind: problems.Message, Text: text}
	m.refreshProblems()
}

// finish marks the source as ended: the engine controls have nothing left to
// control.
func (m *Model) finish() {
	m.done = true
	m.Keys.setLive(false)
	// . still walks the phases of the last cycle it let run.
	m.Keys.StepPhase.SetEnabled(m.opts.Control != nil)
}

// Init starts reading the event stream.
func (m Model) Init() tea.Cmd {
	if m.opts.Events == nil {
		return nil
	}
	return waitForEvents(m.opts.Events)
}

// Cycles returns the cycles received so far.
func (m Model) Cycles() []*recorder.Cycle { return m.cycles }

func (m Model) wide() bool { return m.w >= wideWidth }

// listWidth is the cycle list's width. Side by side, the list narrows while a
// cycle is open, so that the cycle's tables get the room.
func (m Model) listWidth() int {
	if !m.wide() {
		return m.w
	}
	if m.focus == focusCycle {
		return layout.Clamp(m.w/5, 36, 48)
	}
	return layout.Clamp(m.w*38/100, 50, 90)
}

// setFocus moves the keys to pane f and lays the panes out for it.
func (m *Model) setFocus(f focus) {
	if m.focus != f {
		m.focus = f
		m.layout()
	}
}

// chrome is the title line, the status bar and the help line.
const rootChrome = 3

func (m *Model) layout() {
	bh := max(m.h-rootChrome, 1)
	m.lessonRows = m.lessonRowsNow()
	ph := max(bh-m.lessonRows, 1) // the panes, above the lesson's panel
	if m.wide() {
		lw := m.listWidth()
		m.list.SetSize(lw, ph)
		m.view.SetSize(m.w-lw-1, ph)
	} else {
		m.list.SetSize(m.w, ph)
		m.view.SetSize(m.w, ph)
	}
	m.help.SetWidth(m.w)
	m.prompt.SetWidth(m.w)
	m.layers = slices.Clone(m.layers)
	for i, l := range m.layers {
		m.layers[i] = l.resize(m.w, bh)
	}
	m.wi.SetSize(m.w, bh)
}

// Update routes a message, then starts reading what the view waits for.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	nm := next.(Model)
	nm.followLesson()
	if nm.lessonRowsNow() != nm.lessonRows {
		nm.layout()
	}
	if read := nm.reads(); read != nil {
		cmd = tea.Batch(cmd, read)
	}
	return nm, cmd
}

// reads returns the Cmds that read the cycle the view waits for and the node
// use an open node detail waits for, one of each at a time.
func (m *Model) reads() tea.Cmd {
	r := m.opts.Recording
	if r == nil {
		return nil
	}
	var cmds []tea.Cmd
	if i := m.want; i >= 0 && m.reading < 0 && m.cycles[i] == nil && m.unreadable[i] == "" {
		m.reading = i
		cmds = append(cmds, openCycle(r, i, m.list.Entry(i)))
	}
	if m.view.WaitsForUsage() && m.usageFor < 0 {
		i := m.view.Index()
		m.usageFor = i
		// A copy: the list may still change an entry (recount).
		cmds = append(cmds, readUsage(r, slices.Clone(m.list.Entries()[:i+1])))
	}
	return tea.Batch(cmds...)
}

// opened takes a cycle read for the view.
func (m *Model) opened(msg cycleOpenedMsg) {
	m.reading = -1
	i := msg.index
	if i < 0 || i >= len(m.cycles) {
		return
	}
	if msg.cycle == nil {
		reason := "it is not in the recording"
		if msg.err != nil {
			reason = msg.err.Error()
		}
		m.unreadable[i] = reason
		m.problem(fmt.Sprintf("cycle %d could not be read: %s", m.list.Entry(i).Seq, reason))
		m.recount(i, resultUnreadable)
		if m.want == i {
			m.view.Await(i, m.pendingText(i))
		}
		return
	}
	// A missing node set comes with the cycle; the index reported it.
	m.cycles[i] = m.printable.event(source.Event{Cycle: msg.cycle}).Cycle
	if evict := m.window.use(i); evict >= 0 {
		m.cycles[evict] = nil
	}
	if m.want == i {
		m.present(i, m.wantOpen)
	}
}

// recount lists cycle index i with result r instead of the one its entry
// had: a cycle that could not be read is not counted as bound.
func (m *Model) recount(i int, r string) {
	for _, c := range []struct {
		result string
		n      int
	}{{m.list.Entry(i).Result, -1}, {r, 1}} {
		switch c.result {
		case recorder.ResultBound:
			m.counts.bound += c.n
		case recorder.ResultUnschedulable:
			m.counts.unschedulable += c.n
		default:
			m.counts.errors += c.n
		}
	}
	m.list.SetResult(i, r)
}

// pendingText is what the cycle view says while cycle index i is not there.
func (m *Model) pendingText(i int) string {
	seq := m.list.Entry(i).Seq
	if reason := m.unreadable[i]; reason != "" {
		return fmt.Sprintf("cycle %d could not be read: %s", seq, reason)
	}
	return fmt.Sprintf("reading cycle %d…", seq)
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if whatif.Owns(msg) {
		return m, m.toWhatIf(msg)
	}
	switch msg := msg.(type) {
	case exportedMsg:
		m.exported(msg)
		return m, nil
	case cycleOpenedMsg:
		m.opened(msg)
		return m, nil
	case usageReadMsg:
		m.usageFor = -1
		u := msg.usage
		if msg.err != nil {
			m.problem(msg.err.Error())
			u = recorder.NewUsage()
		}
		m.view.SetUsage(msg.index, u)
		return m, nil
	case tea.WindowSizeMsg:
		m.w, m.h, m.ready = msg.Width, msg.Height, true
		m.layout()
		return m, nil
	case eventsMsg:
		for _, ev := range msg.events {
			m.apply(m.printable.event(ev))
		}
		m.syncView()
		if m.showing(podsLayer{}) {
			m.refreshPods()
		}
		if msg.closed {
			m.finish()
			return m, nil
		}
		return m, waitForEvents(m.opts.Events)
	case controlDoneMsg:
		return m, nil
	case pods.OpenCycleMsg:
		m.openFromStory(msg.Index)
		return m, nil
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseClickMsg:
		m.handleClick(msg.Mouse())
		return m, nil
	case tea.MouseWheelMsg:
		mouse := msg.Mouse()
		if m.top() != nil {
			return m, m.toLayer(msg)
		}
		if m.wide() && mouse.X > m.listWidth() || !m.wide() && m.focus == focusCycle {
			m.view, _ = m.view.Update(msg)
		} else {
			m.list, _ = m.list.Update(msg)
			m.syncView()
		}
		return m, nil
	}
	// Anything else (cursor blinks) goes to the active input.
	var cmd tea.Cmd
	switch {
	case m.top() != nil && m.top().whole():
		cmd = m.toLayer(msg)
	case m.prompt.Active():
		m.prompt, cmd = m.prompt.Update(msg)
	}
	return m, cmd
}

// apply takes one event from the source.
func (m *Model) apply(ev source.Event) {
	switch {
	case ev.Header != nil:
		m.header = ev.Header
		m.list.SetWaiting("")
		m.view.SetHeader(ev.Header)
	case ev.Cycle != nil:
		m.cycles = append(m.cycles, ev.Cycle)
		m.addEntry(recorder.EntryOf(ev.Cycle))
		if m.phaseStep {
			// The cycle . let run: shown from its first phase.
			m.phaseStep = false
			m.open(len(m.cycles) - 1)
			m.view.SetPhase(cyclepage.Queue)
		}
	case ev.Entries != nil:
		for _, e := range m.printable.entries(ev.Entries) {
			m.cycles = append(m.cycles, nil)
			m.addEntry(e)
		}
	case ev.Progress != nil:
		p := *ev.Progress
		m.progress = &p
	case ev.Queue != nil:
		m.queue = append(m.queue, ev.Queue)
		k := ev.Queue.Pod.Key()
		m.queueOf[k] = append(m.queueOf[k], ev.Queue)
	case ev.Observed != nil:
		m.observed.add(ev.Observed)
		if ev.Observed.Seq != 0 {
			m.list.Observe(ev.Observed)
		}
	case ev.State != nil:
		s := *ev.State
		m.state = &s
	case ev.NeverAttempted != nil:
		m.never, m.neverKnown = ev.NeverAttempted, true
	case ev.Cluster != nil:
		m.cluster = ev.Cluster
	case ev.Problem != nil:
		m.problem(ev.Problem.Error())
	case ev.Done:
		m.finish()
		if ev.Err != nil {
			m.problem(ev.Err.Error())
			m.list.SetWaiting("stopped on an error (! shows it)")
		} else {
			m.list.SetWaiting("no cycle: nothing was scheduled")
		}
	}
}

// stepPhase is the . key: on the newest cycle, the next phase it ran;
// past its last one (or from anywhere else), one more cycle is let run,
// then shown from its first phase. The engine runs a cycle whole (a
// scheduling cycle held half-way would hold the cluster's other work); the
// recording has every phase, so the view steps through them afterwards.
func (m *Model) stepPhase() tea.Cmd {
	newest := len(m.cycles) - 1
	if m.focus == focusCycle && newest >= 0 && m.view.Index() == newest && m.view.Cycle() != nil {
		if m.view.NextRanPhase() {
			m.say(". steps on")
			return nil
		}
	}
	if m.done {
		m.phaseStep = false
		m.say("the run has finished; nothing to step")
		return nil
	}
	if m.phaseStep {
		m.say("waiting for the cycle . let run")
		return nil
	}
	m.phaseStep = true
	if m.state == nil || m.state.State != source.StatePaused {
		m.say("pausing after one cycle · . steps its phases")
	}
	return control(m.opts.Control.Step)
}

// addEntry lists a cycle and counts its outcome.
func (m *Model) addEntry(e recorder.CycleEntry) {
	m.counts.total++
	switch e.Result {
	case recorder.ResultBound:
		m.counts.bound++
	case recorder.ResultUnschedulable:
		m.counts.unschedulable++
	default:
		m.counts.errors++
	}
	m.markEntry(e)
	m.list.Append(e)
	if o := m.observed.of(e.Seq); o != nil {
		m.list.Observe(o)
	}
}

// syncView shows the list's selected cycle in the cycle view, unless the user
// is inside a cycle (then new cycles must not pull it away).
func (m *Model) syncView() {
	i := m.list.Selected()
	if m.focus == focusCycle {
		i = m.view.Index()
	}
	m.showCycle(i)
}

// showCycle shows cycle index i, with the cluster's binding of its pod, in the
// cycle view.
func (m *Model) showCycle(i int) { m.present(i, false) }

// present shows cycle index i in the cycle view, on its decisive phase when
// decisive is set; a cycle not read yet is asked for (reads) and the view
// says so until it comes.
func (m *Model) present(i int, decisive bool) {
	if i < 0 || i >= len(m.cycles) {
		return
	}
	c := m.cycles[i]
	if c == nil {
		if m.want != i || decisive {
			m.want, m.wantOpen = i, decisive
		}
		m.view.Await(i, m.pendingText(i))
		return
	}
	m.want = -1
	if m.opts.Recording != nil {
		if evict := m.window.use(i); evict >= 0 {
			m.cycles[evict] = nil
		}
	}
	if decisive {
		m.view.OpenCycle(m.cycles, i)
	} else {
		m.view.SetCycle(m.cycles, i)
	}
	m.view.SetObserved(m.observed.of(c.Seq))
	note := ""
	if m.list.Tags()[i] == "" {
		note, _ = m.list.Mark(c.Seq)
	}
	m.view.SetMark(note)
	m.view.SetQueueMoves(queuephase.Moves(m.queueOf[c.Pod.Key()], c))
}

// open focuses the cycle view on cycle index i, on the phase that decided its
// outcome.
func (m *Model) open(i int) {
	if i < 0 || i >= len(m.cycles) {
		return
	}
	m.list.Select(i)
	m.list.SetFollow(false)
	m.present(i, true)
	m.setFocus(focusCycle)
}

// step focuses the cycle view on cycle index i, keeping the phase when it ran
// there too (for ]/[ from inside a cycle).
func (m *Model) step(i int) {
	if i < 0 || i >= len(m.cycles) {
		return
	}
	m.list.Select(i)
	m.list.SetFollow(false)
	m.showCycle(i)
	m.setFocus(focusCycle)
}

func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if msg.String() == "ctrl+c" {
		return m, tea.Quit
	}
	if m.firstRun {
		// The first key closes the hint; esc does nothing else, any other
		// key does what it does.
		m.firstRun = false
		seen := func() tea.Msg { m.opts.FirstRun(); return nil }
		if msg.String() == "esc" {
			return m, seen
		}
		next, cmd := m.handleKey(msg)
		return next, tea.Batch(seen, cmd)
	}
	// A message stays until the next key: then it has been read (and the
	// problems view keeps it).
	m.message = problems.Note{}
	if m.quitting {
		// The question quit asked: q again (or y) quits; any other key
		// stays, and does nothing else.
		m.quitting = false
		if msg.String() == "y" || key.Matches(msg, m.Keys.Quit) {
			return m, tea.Quit
		}
		return m, nil
	}
	if m.prompt.Active() {
		return m.handlePrompt(msg)
	}
	if m.top() != nil {
		return m, m.layerKey(msg)
	}
	if m.wi.Opens(msg) {
		var cmd tea.Cmd
		m.wi, cmd = m.wi.Start(msg, m.here())
		m.showWhatIf(m.takeOut())
		return m, cmd
	}
	if m.lessonKey(msg) {
		return m, nil
	}
	k := m.Keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.openHelp()
		return m, nil
	case key.Matches(msg, k.Problems):
		m.openProblems()
		return m, nil
	case key.Matches(msg, k.Command):
		return m, m.openPrompt(promptCommand, "")
	case m.focus == focusCycle && key.Matches(msg, m.view.Keys.Filter):
		return m, m.openPrompt(promptNodeFilter, m.view.NodeFilter())
	case key.Matches(msg, k.Filter):
		return m, m.openPrompt(promptCycleFilter, m.list.Filter())
	case key.Matches(msg, k.Pause):
		ctl := m.opts.Control
		if m.state != nil && m.state.State == source.StatePaused {
			return m, control(ctl.Resume)
		}
		return m, control(ctl.Pause)
	case key.Matches(msg, k.Step):
		return m, control(m.opts.Control.Step)
	case key.Matches(msg, k.StepPhase):
		return m, m.stepPhase()
	case key.Matches(msg, k.Breakpoints):
		m.push(formLayer{breakpoints.New(m.st, breakpoints.Values(m.breakpoints))})
		return m, nil
	case key.Matches(msg, k.Mark):
		return m, m.startMark()
	case key.Matches(msg, k.Export):
		return m, m.exportCycle()
	}
	if what := k.engineKey(msg); what != "" {
		// The controls are off (and out of the help): say why instead of
		// doing nothing.
		if m.opts.Control == nil {
			m.say("a recording: %s", what)
		} else {
			m.say("the run has finished; %s", what)
		}
		return m, nil
	}
	if m.focus == focusCycle {
		return m.handleCycleKey(msg)
	}
	switch {
	case key.Matches(msg, m.list.Keys.Open):
		m.open(m.list.Selected())
		return m, nil
	case key.Matches(msg, m.list.Keys.Pods):
		m.openPods()
		return m, nil
	case key.Matches(msg, m.list.Keys.Back):
		if m.list.Filter() != "" {
			m.list.SetFilter("")
			m.syncView()
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.list, cmd = m.list.Update(msg)
	m.syncView()
	return m, cmd
}

func (m Model) handleCycleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.view.Keys.Back):
		if !m.view.Back() && !m.backToStory() {
			m.setFocus(focusList)
			m.list.Select(m.view.Index())
		}
		return m, nil
	case key.Matches(msg, m.view.Keys.NextFailure, m.view.Keys.PrevFailure):
		dir := 1
		if key.Matches(msg, m.view.Keys.PrevFailure) {
			dir = -1
		}
		m.list.Select(m.view.Index())
		if m.list.JumpFailure(dir) {
			m.step(m.list.Selected())
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.view, cmd = m.view.Update(msg)
	return m, cmd
}

func (m Model) handlePrompt(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	mode := m.promptFor
	switch {
	case key.Matches(msg, m.prompt.Keys.Cancel):
		m.setPromptValue(mode, m.prompt.Original())
		m.prompt.Close()
		return m, nil
	case key.Matches(msg, m.prompt.Keys.Accept):
		value := m.prompt.Value()
		m.prompt.Close()
		switch mode {
		case promptCommand:
			return m.runCommand(value)
		case promptMark:
			m.saveMark(value)
			return m, nil
		}
		m.setPromptValue(mode, value)
		return m, nil
	}
	var cmd tea.Cmd
	m.prompt, cmd = m.prompt.Update(msg)
	if mode != promptCommand && mode != promptMark {
		m.setPromptValue(mode, m.prompt.Value()) // filter as you type
	}
	return m, cmd
}

func (m *Model) setPromptValue(mode promptMode, v string) {
	switch mode {
	case promptCycleFilter:
		m.list.SetFilter(v)
		m.syncView()
	case promptNodeFilter:
		m.view.SetNodeFilter(v)
	case promptPodFilter:
		change(m, func(l *podsLayer) { l.p.SetFilter(v) })
	}
}

// openProblems shows the problems view over the panes.
func (m *Model) openProblems() {
	l := reopen(m, problemsLayer{p: problems.New(m.st)})
	l.p.SetNotes(m.notes)
	m.push(l)
}

func (m *Model) handleClick(mouse tea.Mouse) {
	y := mouse.Y - 1 // below the title line
	if y < 0 || y >= m.h-rootChrome || m.top() != nil {
		return
	}
	if m.wide() && mouse.X > m.listWidth() {
		x := mouse.X - m.listWidth() - 1 // where the user saw it, before the list narrows
		if m.focus != focusCycle && len(m.cycles) > 0 {
			m.setFocus(focusCycle)
			m.list.SetFollow(false)
		}
		m.view.Click(x, y)
		return
	}
	if m.wide() || m.focus == focusList {
		if m.wide() {
			m.setFocus(focusList)
		}
		m.list.Click(y)
		m.syncView()
		return
	}
	m.view.Click(mouse.X, y)
}

// helpKeys is the key map whose help the bottom line shows.
func (m Model) helpKeys() help.KeyMap {
	if l := m.top(); l != nil {
		return l.keys(&m)
	}
	if m.focus == focusCycle {
		return joinedHelp{m.wi.BarKeys(m.shownCycle()), m.view, m.Keys}
	}
	return joinedHelp{m.list.Keys, m.Keys, m.wi.BarKeys(m.shownCycle())}
}

// View lays out the title, the panes, the status bar and the help line.
func (m Model) View() tea.View {
	v := tea.NewView("")
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	if !m.ready || m.w <= 0 || m.h <= 0 {
		return v
	}
	v.SetContent(m.Render())
	m.opts.Trace.frame(&m)
	return v
}

func (m Model) bodyHeight() int { return max(m.h-rootChrome, 1) }

// Render returns the screen's text, exactly the window's size.
func (m Model) Render() string {
	bh := m.bodyHeight()
	ph := max(bh-m.lessonRows, 1) // the panes, above the lesson's panel
	lines := []string{m.titleLine()}
	status := layout.SplitLines(m.status().render(m.st, m.w))
	var body []string
	switch {
	case m.top() != nil:
		body = layout.Box(layout.SplitLines(m.top().view(&m)), m.w, bh)
	default:
		body = m.panes(ph)
		if m.lessonRows > 0 {
			// A long message's lines cover the body's last lines (below):
			// the panes', not the lesson's.
			cover := min(len(status)-1, len(body))
			body = append(body[:len(body)-cover], m.lessonPanel()...)
			body = append(body, make([]string, cover)...)
		}
		body = layout.Box(body, m.w, bh)
	}
	if m.firstRun {
		body = m.firstRunOverlay(body)
	}
	bottom := []string{m.help.View(m.helpKeys())}
	if m.prompt.Active() {
		bottom = layout.SplitLines(m.prompt.View())
	}
	// Lines the prompt needs beyond its own cover the bottom of the body, as
	// a completion menu would, and so do a long message's lines over the
	// status bar while it shows.
	if extra := min(len(bottom)-1+len(status)-1, len(body)); extra > 0 {
		body = body[:len(body)-extra]
	}
	lines = append(lines, body...)
	lines = append(lines, status...)
	lines = append(lines, bottom...)
	return strings.Join(layout.Box(lines, m.w, m.h), "\n")
}

// panes draws the cycle list and the cycle view, h lines high: side by
// side on a wide screen, else the one with the keys.
func (m Model) panes(h int) []string {
	switch {
	case m.wide():
		left := layout.SplitLines(m.list.View())
		right := layout.SplitLines(m.view.View())
		sep := m.st.Border.Render("│")
		return layout.SideBySide(layout.Box(left, m.listWidth(), h), layout.Box(right, m.w-m.listWidth()-1, h), sep)
	case m.focus == focusCycle:
		return layout.Box(layout.SplitLines(m.view.View()), m.w, h)
	}
	return layout.Box(layout.SplitLines(m.list.View()), m.w, h)
}

func indent(lines []string, pre string) []string {
	for i := range lines {
		lines[i] = pre + lines[i]
	}
	return lines
}

func (m Model) titleLine() string {
	left := m.st.Title.Render("schedscope")
	if m.header != nil && m.header.KubernetesVersion != "" {
		left += m.st.Dim.Render(" · kube-scheduler " + m.header.KubernetesVersion + gatesNote(m.header.FeatureGates))
	}
	crumb := "cycles"
	if m.list.Filter() != "" {
		crumb += " /" + m.list.Filter()
	}
	if l, ok := shelved[podsLayer](&m); ok && m.fromStory {
		crumb = l.p.Crumb()
	}
	if m.focus == focusCycle && m.view.Pending() && m.list.Selected() >= 0 {
		crumb += fmt.Sprintf(" › cycle %d", m.list.Entry(m.list.Selected()).Seq)
	} else if m.focus == focusCycle && m.view.Cycle() != nil {
		crumb += fmt.Sprintf(" › %s › %s", m.wi.CycleCrumb(m.view.Cycle()), m.view.Phase())
		if node, ok := m.view.DetailNode(); ok {
			crumb += " › node " + node
		}
	}
	right := m.list.Position()
	if l := m.top(); l != nil {
		crumb, right = l.crumb(&m, crumb, right)
	}
	left += "  " + crumb
	return layout.Fit(left, m.w-len(right)-1) + " " + right
}

// helpSections lists every key once, by where it works. The keys of the
// panes are listed whatever the pane's state (a node key works once a node
// phase is shown); the engine controls only when there is an engine to control.
func (m Model) helpSections() []helpscreen.Section {
	l, c, np, g := cyclelist.DefaultKeyMap(), cyclepage.DefaultKeyMap(), nodephase.DefaultKeyMap(), m.Keys
	top := l.Top
	top.SetHelp("g", "first")
	bottom := l.Bottom
	bottom.SetHelp("G", "last")
	sections := []helpscreen.Section{
		{Title: "Moving", Keys: []key.Binding{l.Up, l.Down, top, bottom, l.PageUp, l.PageDown}},
		{Title: "Cycles", Keys: []key.Binding{l.Open, l.NextFailure, l.PrevFailure, l.Pods}},
	}
	engine := helpscreen.Section{Title: "Engine", Keys: []key.Binding{g.Pause, g.Step, g.Breakpoints}}
	switch {
	case m.opts.Control == nil:
		engine.Note = "replay: no engine"
	case m.done:
		engine.Note = "the run has finished"
	}
	return append(sections, engine,
		helpscreen.Section{Title: "Inside a cycle", Keys: []key.Binding{c.PrevPhase, c.NextPhase, np.NextColumn, np.PrevColumn, c.Detail, np.Diagnostic, np.Sort, np.Show, explain.DefaultKeyMap().Toggle}},
		m.wi.HelpSections()[0], m.wi.HelpSections()[1],
		podsHelpSection(),
		helpscreen.Section{Title: "Everywhere", Keys: []key.Binding{g.Help, g.Command, g.Filter, g.Problems, g.Back, g.Quit}},
		helpscreen.Section{Title: "Commands (after :)", Commands: [][2]string{
			{":cycle N", "open cycle N"},
			{":cycle POD", "open a pod's last cycle (shop/web-…, deploy/web#2)"},
			{":phase NAME", "go to a phase (sel = select)"},
			{":filter TEXT", "filter (key: " + g.Filter.Help().Key + ")"},
			{":sort KEY", "name status score snapshot"},
			{":pods [TEXT]", "list pods (key: " + l.Pods.Help().Key + ")"},
			{":pods active", "the pods the status bar counts in activeQ"},
			{":pods backoff", "… in backoffQ (and :pods queue:unschedulable)"},
			{":nodes [TEXT]", "every node as the cycle saw it: free, taints, verdict"},
			{":fixtures", "the embedded fixtures and what each teaches"},
			{":problems", "list problems (key: " + g.Problems.Help().Key + ")"},
			{":help", "this screen"},
			{":q", "quit"},
		}},
	)
}

// openHelp shows the "?" screen from its top.
func (m *Model) openHelp() {
	l := reopen(m, helpLayer{hs: helpscreen.New(m.st)})
	l.hs.Top()
	m.push(l)
}

// shownCycle is the cycle the keys act on: the open one, or the one selected
// in the list.
func (m Model) shownCycle() *recorder.Cycle {
	if m.focus == focusCycle {
		return m.view.Cycle()
	}
	if i := m.list.Selected(); i >= 0 && i < len(m.cycles) {
		return m.cycles[i]
	}
	return nil
}

// gatesNote names the feature gates a run had other than their defaults,
// as --feature-gates takes them; empty when all were default.
func gatesNote(gates map[string]bool) string {
	if len(gates) == 0 {
		return ""
	}
	pairs := make([]string, 0, len(gates))
	for _, k := range slices.Sorted(maps.Keys(gates)) {
		pairs = append(pairs, k+"="+strconv.FormatBool(gates[k]))
	}
	return " --feature-gates=" + strings.Join(pairs, ",")
}
