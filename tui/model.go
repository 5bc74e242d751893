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
	"charm.land/lipgloss/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/components/breakpoints"
	"github.com/schedscope/schedscope/tui/components/cyclelist"
	"github.com/schedscope/schedscope/tui/components/pods"
	"github.com/schedscope/schedscope/tui/components/problems"
	"github.com/schedscope/schedscope/tui/components/prompt"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
	"github.com/schedscope/schedscope/tui/pages/groupwhatif"
	"github.com/schedscope/schedscope/tui/pages/podgroup"
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
	// GroupWhatIf runs the session's fixture again to question a pod
	// group (w and S on the pod-group page); nil where the session has no
	// fixture, and NoGroupWhatIf says why.
	GroupWhatIf   groupwhatif.Source
	NoGroupWhatIf string
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
	// gwi is a pod group's what-if, opened from the pod-group page.
	gwi groupwhatif.Model
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
	// grp holds the pod-group cycles and their page's members (podgroup.go).
	grp groupState

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
		gwi:    groupwhatif.New(opts.GroupWhatIf, &st, groupwhatif.Options{Why: opts.NoGroupWhatIf, Clean: printable}),

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

// Init starts reading the event stream.
func (m Model) Init() tea.Cmd {
	if m.opts.Events == nil {
		return nil
	}
	return waitForEvents(m.opts.Events)
}

// Cycles returns the cycles received so far.
func (m Model) Cycles() []*recorder.Cycle { return m.cycles }

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
	m.gwi.SetSize(m.w, bh)
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

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if whatif.Owns(msg) {
		return m, m.toWhatIf(msg)
	}
	if groupwhatif.Owns(msg) {
		return m, m.toGroupWhatIf(msg)
	}
	switch msg := msg.(type) {
	case exportedMsg:
		m.exported(msg)
		return m, nil
	case cycleOpenedMsg:
		m.opened(msg)
		return m, nil
	case groupMembersMsg:
		m.membersRead(msg)
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
	case key.Matches(msg, podgroup.OpenKey()):
		return m, m.openGroupOfShown()
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
	case promptNodesFilter:
		change(m, func(l *nodesLayer) { l.n.SetFilter(v) })
	}
}

// helpKeys is the key map whose help the bottom line shows.
func (m Model) helpKeys() help.KeyMap {
	if l := m.top(); l != nil {
		return l.keys(&m)
	}
	var first joinedHelp
	if !m.done && m.opts.Control != nil && m.state != nil && m.state.State == source.StatePaused {
		first = joinedHelp{engineKeys{m.Keys}}
	}
	if m.focus == focusCycle {
		return append(first, m.groupHint(), m.wi.BarKeys(m.shownCycle()), m.view, m.Keys)
	}
	return append(first, m.list.Keys, m.groupHint(), m.Keys, m.wi.BarKeys(m.shownCycle()))
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

func indent(lines []string, pre string) []string {
	for i := range lines {
		lines[i] = pre + lines[i]
	}
	return lines
}

func (m Model) titleLine() string {
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
	// Each screen names itself after the path of what is under it (help
	// over the Pods view: pods › help).
	for _, l := range m.layers {
		crumb, right = l.crumb(&m, crumb, right)
	}
	// What the run was (the scheduler's version, its feature gates) gives
	// way to where the user is: the gates are left out first, then the
	// version, before the crumb is cut.
	room := m.w - lipgloss.Width(right) - 1
	left := m.st.Title.Render("schedscope")
	if m.header != nil && m.header.KubernetesVersion != "" {
		version := " · kube-scheduler " + m.header.KubernetesVersion
		for _, info := range []string{version + gatesNote(m.header.FeatureGates), version, ""} {
			if lipgloss.Width("schedscope"+info+"  "+crumb) <= room || info == "" {
				left += m.st.Dim.Render(info)
				break
			}
		}
	}
	left += "  " + crumb
	return layout.Fit(left, room) + " " + right
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
