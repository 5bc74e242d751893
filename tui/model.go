package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/schedscope/schedscope/recorder"
)

// Options configures a session.
type Options struct {
	Source  string       // shown in the status bar, e.g. "fixture default.yaml" or "replay run.rec (following)"
	Events  <-chan Event // header, cycles, state changes, problems, done; closed when the source ends
	Control Controller   // nil for replays (then pause/step/breakpoint keys are disabled)
}

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
	st   *Styles
	Keys KeyMap
	help help.Model

	list   CycleList
	view   CycleView
	prompt Prompt
	bp     *BreakpointsForm

	focus    focus
	showHelp bool

	header      *recorder.Header
	cycles      []*recorder.Cycle
	counts      cycleCounts
	observed    observations
	state       *EngineState
	done        bool
	problem     string
	breakpoints Breakpoints

	w, h  int
	ready bool
}

// New returns the root model for a session. It reads NO_COLOR to pick the theme.
func New(opts Options) Model {
	st := NewStyles(NoColorRequested())
	m := Model{
		opts:   opts,
		st:     &st,
		Keys:   DefaultKeyMap(),
		help:   help.New(),
		list:   NewCycleList(&st),
		view:   NewCycleView(&st),
		prompt: NewPrompt(&st),
	}
	m.help.Styles.ShortKey = st.Key
	m.help.Styles.FullKey = st.Key
	m.help.Styles.ShortDesc = st.Dim
	m.help.Styles.FullDesc = st.Dim
	m.help.Styles.ShortSeparator = st.Dim
	m.help.Styles.FullSeparator = st.Dim
	m.help.Styles.Ellipsis = st.Dim
	m.Keys.setLive(opts.Control != nil)
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

func (m Model) wide() bool { return m.w >= wideWidth }

// listWidth is the cycle list's width. Side by side, the list narrows while a
// cycle is open, so that the cycle's tables get the room.
func (m Model) listWidth() int {
	if !m.wide() {
		return m.w
	}
	if m.focus == focusCycle {
		return clamp(m.w/5, 36, 48)
	}
	return clamp(m.w*38/100, 50, 90)
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
	if m.wide() {
		lw := m.listWidth()
		m.list.SetSize(lw, bh)
		m.view.SetSize(m.w-lw-1, bh)
	} else {
		m.list.SetSize(m.w, bh)
		m.view.SetSize(m.w, bh)
	}
	m.help.SetWidth(m.w)
	m.prompt.SetWidth(m.w)
}

// Update routes a message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h, m.ready = msg.Width, msg.Height, true
		m.layout()
		return m, nil
	case eventsMsg:
		for _, ev := range msg.events {
			m.apply(ev)
		}
		m.syncView()
		if msg.closed {
			m.done = true
			return m, nil
		}
		return m, waitForEvents(m.opts.Events)
	case controlDoneMsg:
		return m, nil
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseClickMsg:
		m.handleClick(msg.Mouse())
		return m, nil
	case tea.MouseWheelMsg:
		mouse := msg.Mouse()
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
	case m.bp != nil:
		var f BreakpointsForm
		f, cmd = m.bp.Update(msg)
		m.bp = &f
	case m.prompt.Active():
		m.prompt, cmd = m.prompt.Update(msg)
	}
	return m, cmd
}

// apply takes one event from the source.
func (m *Model) apply(ev Event) {
	switch {
	case ev.Header != nil:
		m.header = ev.Header
		m.view.SetHeader(ev.Header)
	case ev.Cycle != nil:
		c := ev.Cycle
		m.cycles = append(m.cycles, c)
		m.counts.total++
		switch c.Outcome.Result {
		case recorder.ResultBound:
			m.counts.bound++
		case recorder.ResultUnschedulable:
			m.counts.unschedulable++
		default:
			m.counts.errors++
		}
		m.list.Append(c)
		if o := m.observed.of(c.Seq); o != nil {
			m.list.Observe(o)
		}
	case ev.Observed != nil:
		m.observed.add(ev.Observed)
		if ev.Observed.Seq != 0 {
			m.list.Observe(ev.Observed)
		}
	case ev.State != nil:
		s := *ev.State
		m.state = &s
	case ev.Problem != nil:
		m.problem = ev.Problem.Error()
	case ev.Done:
		m.done = true
		if ev.Err != nil {
			m.problem = ev.Err.Error()
		}
	}
}

// syncView shows the list's selected cycle in the cycle view, unless the user
// is inside a cycle (then new cycles must not pull it away).
func (m *Model) syncView() {
	i := m.list.Selected()
	if m.focus == focusCycle {
		i = m.view.index
	}
	m.showCycle(i)
}

// showCycle shows cycle index i, with the cluster's binding of its pod, in the
// cycle view.
func (m *Model) showCycle(i int) {
	if i < 0 || i >= len(m.cycles) {
		return
	}
	m.view.SetCycle(m.cycles, i)
	m.view.SetObserved(m.observed.of(m.cycles[i].Seq))
}

// open focuses the cycle view on cycle index i.
func (m *Model) open(i int) {
	if i < 0 || i >= len(m.cycles) {
		return
	}
	m.list.Select(i)
	m.list.follow = false
	m.showCycle(i)
	m.setFocus(focusCycle)
}

func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if msg.String() == "ctrl+c" {
		return m, tea.Quit
	}
	if m.bp != nil {
		f, cmd := m.bp.Update(msg)
		m.bp = &f
		if f.done {
			m.bp = nil
			if f.applied {
				m.breakpoints = f.Breakpoints()
				bp, ctl := m.breakpoints, m.opts.Control
				return m, control(func() { ctl.SetBreakpoints(bp) })
			}
		}
		return m, cmd
	}
	if m.prompt.Active() {
		return m.handlePrompt(msg)
	}
	if m.showHelp {
		switch {
		case key.Matches(msg, m.Keys.Quit):
			return m, tea.Quit
		case key.Matches(msg, m.Keys.Help, m.Keys.Back):
			m.showHelp = false
		}
		return m, nil
	}
	k := m.Keys
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
		return m, nil
	case key.Matches(msg, k.Command):
		return m, m.prompt.Open(promptCommand, "")
	case key.Matches(msg, k.Filter):
		if m.focus == focusCycle {
			return m, m.prompt.Open(promptNodeFilter, m.view.NodeFilter())
		}
		return m, m.prompt.Open(promptCycleFilter, m.list.Filter())
	case key.Matches(msg, k.Pause):
		ctl := m.opts.Control
		if m.state != nil && m.state.State == StatePaused {
			return m, control(ctl.Resume)
		}
		return m, control(ctl.Pause)
	case key.Matches(msg, k.Step):
		return m, control(m.opts.Control.Step)
	case key.Matches(msg, k.Breakpoints):
		f := NewBreakpointsForm(m.st, m.breakpoints)
		m.bp = &f
		return m, nil
	}
	if m.focus == focusCycle {
		return m.handleCycleKey(msg)
	}
	switch {
	case key.Matches(msg, m.list.Keys.Open):
		m.open(m.list.Selected())
		return m, nil
	case key.Matches(msg, k.Back):
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
	case key.Matches(msg, m.Keys.Back):
		if !m.view.Back() {
			m.setFocus(focusList)
			m.list.Select(m.view.index)
		}
		return m, nil
	case key.Matches(msg, m.view.Keys.NextFailure, m.view.Keys.PrevFailure):
		dir := 1
		if key.Matches(msg, m.view.Keys.PrevFailure) {
			dir = -1
		}
		m.list.Select(m.view.index)
		if m.list.jumpFailure(dir) {
			m.open(m.list.Selected())
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.view, cmd = m.view.Update(msg)
	return m, cmd
}

func (m Model) handlePrompt(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	mode := m.prompt.mode
	switch msg.String() {
	case "esc":
		m.setPromptValue(mode, m.prompt.prev)
		m.prompt.Close()
		return m, nil
	case "enter":
		value := m.prompt.Value()
		m.prompt.Close()
		if mode == promptCommand {
			return m.runCommand(value)
		}
		m.setPromptValue(mode, value)
		return m, nil
	}
	var cmd tea.Cmd
	m.prompt, cmd = m.prompt.Update(msg)
	if mode != promptCommand {
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
	}
}

// runCommand runs a ":" command.
func (m Model) runCommand(line string) (tea.Model, tea.Cmd) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return m, nil
	}
	arg := strings.Join(fields[1:], " ")
	switch fields[0] {
	case "q", "q!", "quit", "exit":
		return m, tea.Quit
	case "cycle", "c":
		seq, err := strconv.Atoi(arg)
		if err != nil {
			m.problem = fmt.Sprintf(":cycle wants a number, got %q", arg)
			return m, nil
		}
		for i, c := range m.cycles {
			if c.Seq == seq {
				m.open(i)
				return m, nil
			}
		}
		m.problem = fmt.Sprintf("no cycle %d", seq)
	case "phase", "p":
		for p := range numPhases {
			if strings.EqualFold(p.String(), arg) || strings.EqualFold(p.short(), arg) {
				if m.focus != focusCycle {
					m.open(m.list.Selected())
				}
				m.view.phase = p
				m.view.enterPhase()
				return m, nil
			}
		}
		m.problem = fmt.Sprintf("no phase %q", arg)
	case "sort":
		for s := range numSorts {
			if s.String() == arg {
				m.view.table.sort = s
				m.view.table.apply()
				return m, nil
			}
		}
		m.problem = fmt.Sprintf("sort by name, status, score or snapshot, not %q", arg)
	default:
		m.problem = fmt.Sprintf("unknown command %q (cycle N, phase NAME, sort KEY, q)", fields[0])
	}
	return m, nil
}

func (m *Model) handleClick(mouse tea.Mouse) {
	y := mouse.Y - 1 // below the title line
	if y < 0 || y >= m.h-rootChrome {
		return
	}
	if m.wide() && mouse.X > m.listWidth() {
		x := mouse.X - m.listWidth() - 1 // where the user saw it, before the list narrows
		if m.focus != focusCycle && len(m.cycles) > 0 {
			m.setFocus(focusCycle)
			m.list.follow = false
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
	if m.bp != nil {
		return m.bp.Keys
	}
	if m.focus == focusCycle {
		return joinedHelp{m.view.Keys, m.Keys}
	}
	return joinedHelp{m.list.Keys, m.Keys}
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
	return v
}

// Render returns the screen's text, exactly the window's size.
func (m Model) Render() string {
	bh := max(m.h-rootChrome, 1)
	lines := []string{m.titleLine()}
	var body []string
	switch {
	case m.showHelp:
		body = m.fullHelp(bh)
	case m.bp != nil:
		body = box(append([]string{""}, indent(splitLines(m.bp.View()), "  ")...), m.w, bh)
	case m.wide():
		left := splitLines(m.list.View())
		right := splitLines(m.view.View())
		sep := m.st.Border.Render("│")
		body = sideBySide(box(left, m.listWidth(), bh), box(right, m.w-m.listWidth()-1, bh), sep)
	case m.focus == focusCycle:
		body = box(splitLines(m.view.View()), m.w, bh)
	default:
		body = box(splitLines(m.list.View()), m.w, bh)
	}
	lines = append(lines, body...)
	lines = append(lines, statusBar(m.st, m.w, m.opts.Source, m.opts.Control != nil, m.state, m.done, m.counts, &m.observed, m.breakpoints, m.problem))
	if m.prompt.Active() {
		lines = append(lines, m.prompt.View())
	} else {
		lines = append(lines, m.help.View(m.helpKeys()))
	}
	return strings.Join(box(lines, m.w, m.h), "\n")
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
		left += m.st.Dim.Render(" · kube-scheduler " + m.header.KubernetesVersion)
	}
	crumb := "cycles"
	if m.list.Filter() != "" {
		crumb += " /" + m.list.Filter()
	}
	if m.focus == focusCycle && m.view.Cycle() != nil {
		crumb += fmt.Sprintf(" › cycle %d › %s", m.view.Cycle().Seq, m.view.Phase())
		if m.view.detail != nil {
			crumb += " › node " + m.view.c.NodeName(m.view.detail.node)
		}
	}
	left += "  " + crumb
	right := ""
	if n := len(m.cycles); n > 0 && m.list.Selected() >= 0 {
		right = fmt.Sprintf("%d/%d", m.list.Selected()+1, n)
	}
	return fit(left, m.w-len(right)-1) + " " + right
}

// fullHelp is the "?" screen: every key, generated from the bindings, and the glyphs.
func (m Model) fullHelp(h int) []string {
	hm := m.help
	hm.ShowAll = true
	hm.SetWidth(0)
	lines := []string{m.st.Title.Render("Keys") + m.st.Dim.Render("  (? or esc closes)"), ""}
	// Lay the key groups out in as many blocks as the width needs.
	groups := joinedHelp{m.list.Keys, m.view.Keys, m.Keys}.FullHelp()
	for len(groups) > 0 {
		n := 1
		for n < len(groups) && lipgloss.Width(hm.FullHelpView(groups[:n+1])) <= m.w {
			n++
		}
		lines = append(lines, splitLines(hm.FullHelpView(groups[:n]))...)
		lines = append(lines, "")
		groups = groups[n:]
	}
	lines = append(lines, m.st.Title.Render("Filter matrix glyphs"))
	var glyphs []string
	for k := range numCellKinds {
		glyphs = append(glyphs, m.st.glyph(k)+" "+k.label())
	}
	lines = append(lines, flow(glyphs, m.w, "   ")...)
	lines = append(lines, flow([]string{
		m.st.Title.Render("Live cluster bindings"),
		m.st.Agree.Render("=") + " as predicted",
		m.st.Agree.Render("≈ node") + " tie-break",
		m.st.Disagree.Render("≠ node") + " missed",
	}, m.w, "   ")...)
	return box(lines, m.w, h)
}
