package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/components/diffview"
	"github.com/schedscope/schedscope/tui/components/helpscreen"
	"github.com/schedscope/schedscope/tui/components/problems"
	"github.com/schedscope/schedscope/tui/components/prompt"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
	"github.com/schedscope/schedscope/tui/theme"
)

// noWhatIf says why the what-if keys do nothing in a session without a
// WhatIf (a replay or a live cluster).
const noWhatIf = "what-if needs the fixture: run sim"

// noWhatIf says why this session has no what-if: the source's reason, or
// noWhatIf.
func (m Model) noWhatIf() string {
	if m.opts.NoWhatIf != "" {
		return m.opts.NoWhatIf
	}
	return noWhatIf
}

// wiScreen is which part of the what-if mode has the keys.
type wiScreen uint8

const (
	wiNone wiScreen = iota
	wiMenu
	wiInput     // a weight or a plugin to disable
	wiPickPod   // which pod of the node to evict
	wiEditError // an edit the scheduler refused: edit again or cancel
	wiDiff
	wiSuggest
)

// whatIfRun is one re-run the session holds, listed beside the cycle it changed.
type whatIfRun struct {
	res     *WhatIfResult
	changes []WhatIfChange
	// orig is the cycle changed, as listed; cycle is the re-run as listed
	// (numbered as orig, marked by label).
	orig, cycle *recorder.Cycle
	label       string
	// podYAML and nodeYAML are the manifests the changes edited, so that a
	// further edit starts from them.
	podYAML  []byte
	nodeYAML map[string][]byte
}

// whatIfRuns is the session's register of re-runs. Models are values; the
// register is shared by their copies, as a cache is, and only grows.
type whatIfRuns struct {
	byCycle map[*recorder.Cycle]*whatIfRun
	perSeq  map[int]int
}

func newWhatIfRuns() *whatIfRuns {
	return &whatIfRuns{byCycle: map[*recorder.Cycle]*whatIfRun{}, perSeq: map[int]int{}}
}

// of returns the re-run c is, or nil when c is a recorded cycle.
func (r *whatIfRuns) of(c *recorder.Cycle) *whatIfRun {
	if r == nil || c == nil {
		return nil
	}
	return r.byCycle[c]
}

// Label names c when it is a re-run, ok false for a recorded cycle.
func (r *whatIfRuns) Label(c *recorder.Cycle) (string, bool) {
	if run := r.of(c); run != nil {
		return run.label, true
	}
	return "", false
}

// Any reports whether there is a re-run at all.
func (r *whatIfRuns) Any() bool { return r != nil && len(r.byCycle) > 0 }

// label names the n-th re-run of cycle seq: 3', 3”, 3”', then 3'4.
func wiLabel(seq, n int) string {
	if n <= 3 {
		return strconv.Itoa(seq) + strings.Repeat("'", n)
	}
	return fmt.Sprintf("%d'%d", seq, n)
}

// wiTarget is what the menu acts on: the cycle shown when it opened, and
// what was selected in it.
type wiTarget struct {
	seq   int
	cycle *recorder.Cycle
	// base are the changes of the re-run the menu opened on: a new change
	// adds to them.
	base []WhatIfChange
	prev *whatIfRun
	// node is the node selected in a node phase or node detail; pods are
	// the pods on it as the cycle saw them.
	node string
	pods []recorder.PodRef
	// plugin is the plugin column selected; point its extension point.
	plugin string
	point  string
	weight int64
}

// original is the recorded cycle the target's changes apply to.
func (t wiTarget) original() *recorder.Cycle {
	if t.prev != nil {
		return t.prev.orig
	}
	return t.cycle
}

// editSession is one $EDITOR round: the file, what it held, what it edits.
type editSession struct {
	kind   ChangeKind
	node   string
	path   string
	orig   []byte
	target wiTarget
}

// The what-if messages.
type (
	wiEditReadyMsg struct {
		edit *editSession
		err  error
	}
	wiEditedMsg struct {
		edit *editSession
		err  error
	}
	wiRunMsg struct {
		res     *WhatIfResult
		changes []WhatIfChange
		target  wiTarget
		edit    *editSession
		yaml    []byte
		err     error
	}
	wiSuggestMsg struct {
		res    *SuggestResult
		target wiTarget
		err    error
	}
	wiCleanedMsg struct{}
)

// whatIfMode is the what-if part of the session: the menu, the prompts, the
// diff and suggest screens, and the runs under way.
type whatIfMode struct {
	src  WhatIf
	st   *theme.Styles
	Keys WhatIfKeyMap
	runs *whatIfRuns
	// edits is where the manifests for $EDITOR are written; Run removes it.
	edits *editDir

	screen wiScreen
	target wiTarget
	// input is the weight or plugin prompt; inputKind what it sets.
	input     textinput.Model
	inputKind ChangeKind
	inputErr  string
	// pick is the pod cursor of the evict picker.
	pick int
	// edit is the edit the scheduler refused, editErr why; editing is the
	// one $EDITOR has.
	edit    *editSession
	editErr string
	editing *editSession

	diff diffview.Model
	// diffRun is the run the diff shows.
	diffRun *whatIfRun
	suggest SuggestView
	// busy words the run under way, "" when none.
	busy string

	w, h int
}

// showDiff shows run r against the cycle it changed.
func (wi *whatIfMode) showDiff(r *whatIfRun) {
	res := r.res
	wi.diffRun, wi.screen = r, wiDiff
	wi.diff.SetRun(diffview.Run{Label: r.label, Seq: res.Seq, Before: res.Before, After: res.After, Later: res.Later,
		Diff: res.Diff, Changes: res.Changes, Landing: res.Landing, Note: res.Note})
}

func newWhatIfMode(src WhatIf, st *theme.Styles) whatIfMode {
	m := whatIfMode{src: src, st: st, Keys: DefaultWhatIfKeyMap(), runs: newWhatIfRuns(), edits: &editDir{},
		input: prompt.NewTextInput(st), diff: diffview.New(st), suggest: NewSuggestView(st)}
	m.Keys.setAvailable(src != nil)
	return m
}

// SetSize sets the size of the body the screens fill.
func (wi *whatIfMode) SetSize(w, h int) {
	wi.w, wi.h = w, h
	wi.diff.SetSize(w, h)
	wi.suggest.SetSize(w, h)
	wi.input.SetWidth(max(w-len(wi.input.Prompt)-2, 10))
}

// fullScreen tells whether a what-if screen covers the panes.
func (wi whatIfMode) fullScreen() bool {
	return wi.screen == wiDiff || wi.screen == wiSuggest || wi.screen == wiPickPod
}

// crumb is the what-if screen's part of the title line's path, empty when
// none is shown.
func (wi whatIfMode) crumb() string {
	switch wi.screen {
	case wiNone:
		return ""
	case wiDiff:
		if wi.diffRun != nil {
			return "what-if " + wi.diffRun.label
		}
	case wiSuggest:
		return "suggest"
	case wiPickPod:
		return "what-if › evict"
	}
	return "what-if"
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

// whatIfTarget gathers what the menu acts on from what is on screen.
func (m Model) whatIfTarget() (wiTarget, bool) {
	c := m.shownCycle()
	if c == nil {
		return wiTarget{}, false
	}
	t := wiTarget{seq: c.Seq, cycle: c}
	if r := m.wi.runs.of(c); r != nil {
		t.seq, t.base, t.prev = r.res.Seq, r.changes, r
	}
	if m.focus != focusCycle || m.view.Cycle() != c {
		return t, true
	}
	v := &m.view
	if node, ok := v.Selected(); ok {
		t.node = c.NodeName(node)
		if u, ok := recorder.UsageAt(v.UsageCycles()).Node(t.node); ok {
			t.pods = u.Pods
		}
	}
	switch v.Phase() {
	case cyclepage.Filter:
		t.plugin, t.point = v.SelectedPlugin(), "filter"
	case cyclepage.Score, cyclepage.Normalize, cyclepage.Weighted:
		t.plugin, t.point = v.SelectedPlugin(), "score"
		if s := c.Score; s != nil && v.Column() < len(s.Plugins) {
			t.weight = s.Plugins[v.Column()].Weight
		}
	}
	return t, true
}

// whatIfKey handles a key for the what-if mode and reports whether it took it.
func (m Model) whatIfKey(msg tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	wi := &m.wi
	k := wi.Keys
	if wi.screen == wiNone {
		open, sug := k.Open, k.Suggest
		open.SetEnabled(true)
		sug.SetEnabled(true)
		if !key.Matches(msg, open, sug) {
			return m, nil, false
		}
		if wi.src == nil {
			m.say("%s", m.noWhatIf())
			return m, nil, true
		}
		if wi.busy != "" {
			m.say("wait: %s", wi.busy)
			return m, nil, true
		}
		t, ok := m.whatIfTarget()
		if !ok {
			m.say("no cycle selected")
			return m, nil, true
		}
		if key.Matches(msg, sug) {
			cmd := m.startSuggest(t)
			return m, cmd, true
		}
		wi.target, wi.screen = t, wiMenu
		return m, nil, true
	}
	switch wi.screen {
	case wiMenu:
		return m.menuKey(msg)
	case wiInput:
		return m.inputKey(msg)
	case wiPickPod:
		switch {
		case key.Matches(msg, k.Cancel):
			wi.screen = wiMenu
		case key.Matches(msg, k.Up):
			wi.pick = max(wi.pick-1, 0)
		case key.Matches(msg, k.Down):
			wi.pick = min(wi.pick+1, len(wi.target.pods)-1)
		case key.Matches(msg, k.Choose):
			if wi.pick >= 0 && wi.pick < len(wi.target.pods) {
				ch := WhatIfChange{Kind: ChangeEvict, Target: wi.target.pods[wi.pick].Key()}
				wi.screen = wiNone
				return m, m.startRun(wi.target, ch, nil, nil), true
			}
		}
		return m, nil, true
	case wiEditError:
		switch {
		case key.Matches(msg, k.Retry):
			e := wi.edit
			wi.screen, wi.edit, wi.editErr, wi.editing = wiNone, nil, "", e
			return m, runEditor(wi.edits, e), true
		case key.Matches(msg, k.Cancel):
			e := wi.edit
			wi.screen, wi.edit, wi.editErr = wiNone, nil, ""
			m.say("edit cancelled")
			return m, removeFile(e.path), true
		}
		return m, nil, true
	case wiDiff:
		return m.diffKey(msg)
	case wiSuggest:
		switch {
		case key.Matches(msg, k.Cancel):
			wi.screen = wiNone
		case key.Matches(msg, k.Choose):
			if s, ok := wi.suggest.Selected(); ok {
				wi.screen = wiNone
				return m, m.startRun(wi.suggest.Target(), s.Change, nil, nil), true
			}
		default:
			wi.suggest, _ = wi.suggest.Update(msg)
		}
		return m, nil, true
	}
	return m, nil, false
}

// menuKey runs the menu's actions.
func (m Model) menuKey(msg tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	wi := &m.wi
	k, t := wi.Keys, wi.target
	switch {
	case key.Matches(msg, k.Cancel), key.Matches(msg, k.Open):
		wi.screen = wiNone
	case key.Matches(msg, k.EditPod):
		wi.screen = wiNone
		var yaml []byte
		if t.prev != nil {
			yaml = t.prev.podYAML
		}
		return m, m.startEdit(&editSession{kind: ChangePod, target: t}, yaml), true
	case key.Matches(msg, k.EditNode):
		if t.node == "" {
			m.say("select a node first: in the filter or score table, or open its detail")
			return m, nil, true
		}
		wi.screen = wiNone
		var yaml []byte
		if t.prev != nil {
			yaml = t.prev.nodeYAML[t.node]
		}
		return m, m.startEdit(&editSession{kind: ChangeNode, node: t.node, target: t}, yaml), true
	case key.Matches(msg, k.Evict):
		switch {
		case t.node == "":
			m.say("select a node first: its pods are the ones to evict")
		case len(t.pods) == 0:
			m.say("no pod is recorded on %s as this cycle saw it", t.node)
		default:
			wi.screen, wi.pick = wiPickPod, 0
		}
	case key.Matches(msg, k.Weight):
		v := ""
		if t.point == "score" && t.plugin != "" {
			v = t.plugin + "="
		}
		m.openInput(ChangeWeight, v)
		return m, m.wi.input.Focus(), true
	case key.Matches(msg, k.Disable):
		v := ""
		if t.plugin != "" {
			v = t.plugin + ":" + t.point
		}
		m.openInput(ChangeDisable, v)
		return m, m.wi.input.Focus(), true
	case key.Matches(msg, k.Suggest):
		wi.screen = wiNone
		return m, m.startSuggest(t), true
	case key.Matches(msg, k.Diff):
		if t.prev == nil {
			m.say("cycle %d is not a what-if: nothing to compare it with", t.seq)
			return m, nil, true
		}
		wi.showDiff(t.prev)
	}
	return m, nil, true
}

func (m *Model) openInput(kind ChangeKind, value string) {
	wi := &m.wi
	wi.screen, wi.inputKind, wi.inputErr = wiInput, kind, ""
	wi.input.Prompt = "weight PLUGIN=N: "
	wi.input.Placeholder = "e.g. NodeResourcesBalancedAllocation=5"
	if kind == ChangeDisable {
		wi.input.Prompt = "disable PLUGIN[:POINT]: "
		wi.input.Placeholder = "e.g. NodeResourcesFit:score (no point: everywhere)"
	}
	wi.input.SetWidth(max(wi.w-len(wi.input.Prompt)-2, 10))
	wi.input.SetValue(value)
	wi.input.CursorEnd()
}

// inputKey edits the weight or plugin prompt; enter parses and re-runs.
func (m Model) inputKey(msg tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	wi := &m.wi
	switch msg.String() {
	case "esc":
		wi.screen = wiMenu
		wi.input.Blur()
		return m, nil, true
	case "enter":
		ch, err := parseInput(wi.inputKind, wi.input.Value())
		if err != nil {
			wi.inputErr = err.Error()
			return m, nil, true
		}
		wi.screen = wiNone
		wi.input.Blur()
		return m, m.startRun(wi.target, ch, nil, nil), true
	}
	wi.inputErr = ""
	var cmd tea.Cmd
	wi.input, cmd = wi.input.Update(msg)
	return m, cmd, true
}

// parseInput reads "PLUGIN=N" (a weight) or "PLUGIN[:POINT]" (a plugin to disable).
func parseInput(kind ChangeKind, s string) (WhatIfChange, error) {
	s = strings.TrimSpace(s)
	if kind == ChangeWeight {
		name, val, ok := strings.Cut(s, "=")
		w, err := strconv.ParseInt(strings.TrimSpace(val), 10, 32)
		if !ok || strings.TrimSpace(name) == "" || err != nil {
			return WhatIfChange{}, fmt.Errorf("want PLUGIN=N, e.g. NodeResourcesFit=5")
		}
		return WhatIfChange{Kind: ChangeWeight, Target: strings.TrimSpace(name), Weight: int32(w)}, nil
	}
	name, point, _ := strings.Cut(s, ":")
	if strings.TrimSpace(name) == "" {
		return WhatIfChange{}, fmt.Errorf("want PLUGIN or PLUGIN:POINT, e.g. NodeResourcesFit:score")
	}
	return WhatIfChange{Kind: ChangeDisable, Target: strings.TrimSpace(name), Point: strings.TrimSpace(point)}, nil
}

// diffKey handles the diff view's keys.
func (m Model) diffKey(msg tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	wi := &m.wi
	k := wi.Keys
	r := wi.diffRun
	switch {
	case key.Matches(msg, k.Cancel):
		wi.screen = wiNone
	case key.Matches(msg, k.Choose):
		wi.screen = wiNone
		m.openCycle(r.cycle)
	case key.Matches(msg, k.Before):
		wi.screen = wiNone
		m.openCycle(r.orig)
	case key.Matches(msg, k.Open):
		wi.screen = wiNone
		m.openCycle(r.cycle)
		if t, ok := m.whatIfTarget(); ok {
			wi.target, wi.screen = t, wiMenu
		}
	default:
		wi.diff, _ = wi.diff.Update(msg)
	}
	return m, nil, true
}

// openCycle opens cycle c (by identity) in the cycle view.
func (m *Model) openCycle(c *recorder.Cycle) {
	for i, x := range m.cycles {
		if x == c {
			m.open(i)
			return
		}
	}
}

// startEdit writes the manifest to a file of the session's edit directory
// for $EDITOR: yaml when set (what an earlier what-if edited), else what
// the scheduler read of it, as the source gives it.
func (m *Model) startEdit(e *editSession, yaml []byte) tea.Cmd {
	src, edits := m.wi.src, m.wi.edits
	what := "the pod"
	if e.kind == ChangeNode {
		what = "node " + e.node
	}
	m.wi.busy = fmt.Sprintf("getting %s as cycle %d saw it…", what, e.target.seq)
	return func() tea.Msg {
		data := yaml
		if data == nil {
			var err error
			if e.kind == ChangeNode {
				data, err = src.NodeYAML(e.target.original(), e.node)
			} else {
				data, err = src.PodYAML(e.target.original())
			}
			if err != nil {
				return wiEditReadyMsg{edit: e, err: err}
			}
		}
		path, err := edits.write(data, e)
		e.path, e.orig = path, data
		return wiEditReadyMsg{edit: e, err: err}
	}
}

// startRun re-runs the target's cycle with its base changes and ch.
func (m *Model) startRun(t wiTarget, ch WhatIfChange, e *editSession, yaml []byte) tea.Cmd {
	src := m.wi.src
	m.wi.busy = fmt.Sprintf("re-running cycle %d with %s…", t.seq, ch)
	return func() tea.Msg { return runWhatIf(src, t, ch, e, yaml) }
}

// runWhatIf re-runs the target's cycle with its base changes and ch; it is
// the body of a tea.Cmd.
func runWhatIf(src WhatIf, t wiTarget, ch WhatIfChange, e *editSession, yaml []byte) tea.Msg {
	changes := withChange(t.base, ch)
	res, err := src.Run(t.original(), changes)
	return wiRunMsg{res: res, changes: changes, target: t, edit: e, yaml: yaml, err: err}
}

// withChange adds ch to the changes a re-run made. A second edit of the pod
// (or of one node), or a second weight of one plugin, replaces the first;
// disabling a plugin the re-run disabled enables it again (a toggle).
func withChange(base []WhatIfChange, ch WhatIfChange) []WhatIfChange {
	var out []WhatIfChange
	toggled := false
	for _, b := range base {
		switch {
		case ch.Kind == ChangeDisable && b.Kind == ChangeDisable && b.Target == ch.Target && b.Point == ch.Point:
			toggled = true
			continue
		case (ch.Kind == ChangePod || ch.Kind == ChangeNode || ch.Kind == ChangeWeight) && b.Kind == ch.Kind && b.Target == ch.Target:
			continue
		}
		out = append(out, b)
	}
	if toggled {
		return out
	}
	return append(out, ch)
}

// disabled tells whether the target's changes disable plugin at point.
func (t wiTarget) disabled(plugin, point string) bool {
	for _, b := range t.base {
		if b.Kind == ChangeDisable && b.Target == plugin && b.Point == point {
			return true
		}
	}
	return false
}

// startSuggest searches changes for the target's cycle.
func (m *Model) startSuggest(t wiTarget) tea.Cmd {
	if c := t.original(); c.Outcome.Result == recorder.ResultBound {
		m.say("cycle %d bound its pod to %s: suggest is for a pod that did not fit", c.Seq, c.Outcome.Node)
		return nil
	}
	src := m.wi.src
	m.wi.busy = fmt.Sprintf("searching changes for cycle %d (each is verified by a re-run)…", t.seq)
	return func() tea.Msg {
		res, err := src.Suggest(t.original())
		return wiSuggestMsg{res: res, target: t, err: err}
	}
}

// updateWhatIf takes the what-if messages and reports whether msg was one.
func (m Model) updateWhatIf(msg tea.Msg) (Model, tea.Cmd, bool) {
	wi := &m.wi
	switch msg := msg.(type) {
	case wiEditReadyMsg:
		wi.busy = ""
		if msg.err != nil {
			m.say("what-if: %s", oneLine(msg.err))
			return m, nil, true
		}
		wi.editing = msg.edit
		return m, runEditor(wi.edits, msg.edit), true
	case wiEditedMsg:
		e := msg.edit
		wi.editing = nil
		if msg.err != nil {
			m.say("$EDITOR: %s", oneLine(msg.err))
			return m, removeFile(e.path), true
		}
		wi.busy = fmt.Sprintf("re-running cycle %d with the edit…", e.target.seq)
		src := wi.src
		return m, func() tea.Msg {
			data, err := readTemp(e.path)
			if err != nil {
				return wiRunMsg{edit: e, err: err, target: e.target}
			}
			if string(data) == string(e.orig) {
				return wiRunMsg{edit: e, target: e.target, err: errUnchanged}
			}
			return runWhatIf(src, e.target, WhatIfChange{Kind: e.kind, Target: e.node, YAML: data}, e, data)
		}, true
	case wiRunMsg:
		wi.busy = ""
		if msg.err != nil {
			if msg.err == errUnchanged {
				m.say("the file was not changed: nothing re-run")
				return m, removeFile(msg.edit.path), true
			}
			if msg.edit != nil {
				wi.edit, wi.editErr, wi.screen = msg.edit, oneLine(msg.err), wiEditError
				return m, nil, true
			}
			m.say("what-if: %s", oneLine(msg.err))
			return m, nil, true
		}
		r := m.addWhatIf(msg)
		wi.showDiff(r)
		m.say("cycle %s: %s", r.label, summaryLine(r.res))
		if msg.edit != nil {
			return m, removeFile(msg.edit.path), true
		}
		return m, nil, true
	case wiSuggestMsg:
		wi.busy = ""
		if msg.err != nil {
			m.say("suggest: %s", oneLine(msg.err))
			return m, nil, true
		}
		wi.suggest.SetResult(msg.res, msg.target)
		wi.screen = wiSuggest
		return m, nil, true
	case wiCleanedMsg:
		return m, nil, true
	case tea.MouseClickMsg:
		// A what-if screen is over the panes: a click must not reach them.
		return m, nil, wi.screen != wiNone
	case tea.MouseWheelMsg:
		if wi.screen == wiNone {
			return m, nil, false
		}
		k := wi.Keys.Down
		if msg.Button == tea.MouseWheelUp {
			k = wi.Keys.Up
		}
		press := tea.KeyPressMsg{Code: []rune(k.Keys()[0])[0], Text: k.Keys()[0]}
		switch wi.screen {
		case wiDiff:
			wi.diff, _ = wi.diff.Update(press)
		case wiSuggest:
			wi.suggest, _ = wi.suggest.Update(press)
		}
		return m, nil, true
	}
	return m, nil, false
}

// summaryLine says where the re-run put the pod.
func summaryLine(r *WhatIfResult) string {
	switch {
	case r.After.Outcome.Result == recorder.ResultBound:
		return "the pod would bind to " + r.After.Outcome.Node
	case r.Landing != "":
		return "the pod would preempt and land on " + r.Landing
	}
	return "the pod would still be " + r.After.Outcome.Result
}

// addWhatIf lists a re-run beside the cycle it changed.
func (m *Model) addWhatIf(msg wiRunMsg) *whatIfRun {
	t := msg.target
	orig := t.cycle
	if t.prev != nil {
		orig = t.prev.orig
	}
	m.wi.runs.perSeq[t.seq]++
	after := *msg.res.After
	after.Seq = t.seq
	r := &whatIfRun{res: msg.res, changes: msg.changes, orig: orig, cycle: &after,
		label: wiLabel(t.seq, m.wi.runs.perSeq[t.seq]), nodeYAML: map[string][]byte{}}
	if t.prev != nil {
		r.podYAML = t.prev.podYAML
		for k, v := range t.prev.nodeYAML {
			r.nodeYAML[k] = v
		}
	}
	if e := msg.edit; e != nil {
		if e.kind == ChangePod {
			r.podYAML = msg.yaml
		} else {
			r.nodeYAML[e.node] = msg.yaml
		}
	}
	m.wi.runs.byCycle[r.cycle] = r
	at := -1
	for i, c := range m.cycles {
		if c == orig {
			at = i
		}
	}
	m.cycles = append(m.cycles, r.cycle)
	what := strings.Join(msg.res.Changes, "; ")
	if what == "" {
		what = joinChanges(msg.changes)
	}
	m.list.AppendAfter(r.cycle, at, r.label, what)
	return r
}

// whatIfHelp is the key map of the what-if screen that has the keys, or nil.
func (m Model) whatIfHelp() help.KeyMap {
	k := m.wi.Keys
	switch m.wi.screen {
	case wiMenu:
		return menuKeys{k}
	case wiInput:
		return inputKeys{k}
	case wiPickPod:
		return listKeys{k, "evict it"}
	case wiEditError:
		return errorKeys{k}
	case wiDiff:
		return diffKeys{k, m.wi.diff.Keys}
	case wiSuggest:
		if _, ok := m.wi.suggest.Selected(); !ok {
			return errorKeys{k}.cancelOnly()
		}
		return listKeys{k, "open as what-if"}
	}
	return nil
}

// whatIfBarKeys are the what-if keys the key bar offers for the shown cycle.
func (m Model) whatIfBarKeys() WhatIfKeyMap {
	k := m.wi.Keys
	c := m.shownCycle()
	if r := m.wi.runs.of(c); r != nil {
		c = r.orig
	}
	if c == nil {
		k.setAvailable(false)
	} else if c.Outcome.Result == recorder.ResultBound {
		k.Suggest.SetEnabled(false)
	}
	return k
}

// whatIfBody is the body a full what-if screen shows.
func (m Model) whatIfBody(h int) []string {
	switch m.wi.screen {
	case wiDiff:
		return layout.Box(layout.SplitLines(m.wi.diff.View()), m.w, h)
	case wiSuggest:
		return layout.Box(layout.SplitLines(m.wi.suggest.View()), m.w, h)
	case wiPickPod:
		return layout.Box(m.pickLines(), m.w, h)
	}
	return nil
}

func (m Model) pickLines() []string {
	st, t := m.st, m.wi.target
	lines := []string{st.Title.Render("evict a pod from "+t.node) + st.Dim.Render(fmt.Sprintf(" · then re-run cycle %d", t.seq)), ""}
	for i, p := range t.pods {
		row := fmt.Sprintf("%s (priority %d)", p.Key(), p.Priority)
		if i == m.wi.pick {
			lines = append(lines, st.Selected.Render("▸ "+layout.Fit(row, m.w-2)))
			continue
		}
		lines = append(lines, "  "+row)
	}
	return lines
}

// whatIfOverlay draws the menu, the prompt or the edit error over the
// bottom of the body, as a completion menu would.
func (m Model) whatIfOverlay(body []string) []string {
	var panel []string
	st, t, k := m.st, m.wi.target, m.wi.Keys
	w := m.w
	rule := st.Border.Render(strings.Repeat("─", w))
	switch m.wi.screen {
	case wiMenu:
		title := fmt.Sprintf("what-if on cycle %d", t.seq)
		if t.prev != nil {
			title = fmt.Sprintf("what-if on %s (adds to: %s)", t.prev.label, joinChanges(t.base))
		}
		panel = []string{rule, st.Title.Render(layout.Fit(title, w))}
		item := func(b key.Binding, text string, ok bool) {
			line := "  " + st.Key.Render(layout.Fit(b.Help().Key, 4)) + " " + text
			if !ok {
				line = "  " + st.Dim.Render(layout.Fit(b.Help().Key, 4)+" "+text)
			}
			panel = append(panel, layout.Fit(line, w))
		}
		node, pick := "node "+t.node, ""
		if t.node == "" {
			node, pick = "a node", " (select a node first)"
		}
		item(k.EditPod, "edit the pod in $EDITOR, as the scheduler saw it", true)
		item(k.EditNode, "edit "+node+" in $EDITOR"+pick, t.node != "")
		pods := "none there"
		if len(t.pods) > 0 {
			pods = fmt.Sprintf("%d there", len(t.pods))
		}
		evict := fmt.Sprintf("evict a pod of %s (%s)", node, pods)
		if t.node == "" {
			evict = "evict a pod of a node" + pick
		}
		item(k.Evict, evict, len(t.pods) > 0)
		wt := "set a score plugin's weight"
		if t.point == "score" && t.plugin != "" {
			wt += fmt.Sprintf(" (%s is %d)", t.plugin, t.weight)
		}
		item(k.Weight, wt, true)
		dis := "disable a plugin"
		switch {
		case t.plugin != "" && t.disabled(t.plugin, t.point):
			dis = fmt.Sprintf("enable %s at %s again (%s then %s)", t.plugin, t.point, k.Disable.Help().Key, k.Choose.Help().Key)
		case t.plugin != "":
			dis += fmt.Sprintf(" (%s at %s)", t.plugin, t.point)
		}
		item(k.Disable, dis, true)
		item(k.Suggest, "suggest changes that make the pod schedulable", t.original().Outcome.Result != recorder.ResultBound)
		if t.prev != nil {
			item(k.Diff, "diff with cycle "+strconv.Itoa(t.seq), true)
		}
	case wiInput:
		panel = []string{rule, st.Title.Render(fmt.Sprintf("what-if on cycle %d", t.seq)), m.wi.input.View()}
		if m.wi.inputErr != "" {
			panel = append(panel, st.Problem.Render(layout.Fit(m.wi.inputErr, w)))
		}
	case wiEditError:
		panel = []string{rule, st.Problem.Render(layout.Fit("the edit could not be applied:", w))}
		for _, l := range layout.Wrap(m.wi.editErr, w-2, "  ") {
			panel = append(panel, "  "+l)
		}
		panel = append(panel, st.Dim.Render("  "+m.wi.Keys.Retry.Help().Key+" edits the file again (your text is kept) · "+m.wi.Keys.Cancel.Help().Key+" cancels"))
	default:
		return body
	}
	if len(panel) >= len(body) {
		panel = panel[len(panel)-len(body):]
	}
	return append(body[:len(body)-len(panel)], panel...)
}

func joinChanges(cs []WhatIfChange) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return strings.Join(out, ", ")
}

// oneLine keeps the first line of an error.
func oneLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return printable(s)
}

// cycleCrumb names a cycle in the title line: "cycle 3", or "cycle 3' what-if".
func (m Model) cycleCrumb(c *recorder.Cycle) string {
	if r := m.wi.runs.of(c); r != nil {
		return "cycle " + r.label + " what-if"
	}
	return fmt.Sprintf("cycle %d", c.Seq)
}

// status is the status bar's message: the last one, else the run under way.
func (wi whatIfMode) status(msg problems.Note) problems.Note {
	if msg.Text == "" && wi.busy != "" {
		return problems.Note{Kind: problems.Message, Text: wi.busy}
	}
	return msg
}

// whatIfHelpSections are the "?" screen's blocks of what-if keys: those
// that work in a cycle, and those of the menu w opens (d there is not the
// Filter phase's d).
func (m Model) whatIfHelpSections() []helpscreen.Section {
	k := DefaultWhatIfKeyMap()
	open := helpscreen.Section{Title: "What-if", Keys: []key.Binding{k.Open, k.Suggest}}
	menu := helpscreen.Section{Title: "In the what-if menu (after " + k.Open.Help().Key + ")", Keys: []key.Binding{k.EditPod, k.EditNode, k.Evict, k.Weight, k.Disable, k.Diff}}
	if m.wi.src == nil {
		open.Note = m.noWhatIf()
	}
	return []helpscreen.Section{open, menu}
}
