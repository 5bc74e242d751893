// Package whatif is the what-if page: the menu w opens over a cycle, the
// weight and plugin prompts, the evict picker, $EDITOR edits of the pod or
// a node, the diff of a re-run against the cycle it changed, and suggest's
// list. It re-runs cycles through a Source (cmd/ forks the session's
// fixture or live mirror) and keeps the session's re-runs (Runs).
//
// Model is the session's what-if: the re-runs it holds, the runs under way
// and $EDITOR's files. Its screens (screens.go) are pages on the root's
// stack, each with its own state; what a screen needs of the session it
// asks for (Ask), and the root hands that to Do. The root routes to Model:
// Start when w, S or y is pressed over a cycle (Here says what is on
// screen), Update for its own messages (Owns: the results of what it
// started). What it needs of the session (a status message, a re-run to
// list beside its cycle, a cycle to open, a screen to show) it leaves in
// its outbox, which the root empties after each call (TakeOut).
package whatif

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/components/helpscreen"
	"github.com/schedscope/schedscope/tui/components/problems"
	"github.com/schedscope/schedscope/tui/components/whatifscreen"
	"github.com/schedscope/schedscope/tui/theme"
)

// NoSource says why the what-if keys do nothing in a session without a
// Source, when the session does not say (Options.Why).
const NoSource = "what-if needs the fixture: run sim"

// run is one re-run the session holds, listed beside the cycle it changed.
type run struct {
	res     *Result
	changes []recorder.Change
	// orig is the cycle changed, as listed; cycle is the re-run as listed
	// (numbered as orig, marked by label).
	orig, cycle *recorder.Cycle
	label       string
	// podYAML and nodeYAML are the manifests the changes edited, so that a
	// further edit starts from them.
	podYAML  []byte
	nodeYAML map[string][]byte
}

// Runs is the session's register of re-runs. Models are values; the
// register is shared by their copies, as a cache is, and only grows.
type Runs struct {
	byCycle map[*recorder.Cycle]*run
	perSeq  map[int]int
}

func newRuns() *Runs {
	return &Runs{byCycle: map[*recorder.Cycle]*run{}, perSeq: map[int]int{}}
}

// of returns the re-run c is, or nil when c is a recorded cycle.
func (r *Runs) of(c *recorder.Cycle) *run {
	if r == nil || c == nil {
		return nil
	}
	return r.byCycle[c]
}

// Label names c when it is a re-run, ok false for a recorded cycle.
func (r *Runs) Label(c *recorder.Cycle) (string, bool) {
	if run := r.of(c); run != nil {
		return run.label, true
	}
	return "", false
}

// Any reports whether there is a re-run at all.
func (r *Runs) Any() bool { return r != nil && len(r.byCycle) > 0 }

// Len is how many re-runs there are.
func (r *Runs) Len() int {
	if r == nil {
		return 0
	}
	return len(r.byCycle)
}

// Original is the recorded cycle c re-ran, or c itself.
func (r *Runs) Original(c *recorder.Cycle) *recorder.Cycle {
	if run := r.of(c); run != nil {
		return run.orig
	}
	return c
}

// label names the n-th re-run of cycle seq: 3', 3”, 3”', then 3'4.
func label(seq, n int) string {
	if n <= 3 {
		return strconv.Itoa(seq) + strings.Repeat("'", n)
	}
	return fmt.Sprintf("%d'%d", seq, n)
}

// Here is what the screen shows when w, S or y is pressed: the cycle the
// keys act on and, when that cycle is open in the cycle view, what is
// selected there (the menu's defaults). It is plain data the root fills
// from the cycle view: a page does not reach into another page.
type Here struct {
	Cycle *recorder.Cycle
	// Node is the index of the node selected in a node phase or the node
	// detail, when HasNode; Usage what the shown cycle's nodes held.
	Node    int
	HasNode bool
	Usage   *recorder.Usage
	// Plugin is the plugin column selected and Point its extension point
	// ("filter" or "score"), "" outside the Filter and Score phases;
	// Weight is the score plugin's weight.
	Plugin, Point string
	Weight        int64
}

// target is what the menu acts on: the cycle shown when it opened, and
// what was selected in it.
type target struct {
	seq   int
	cycle *recorder.Cycle
	// base are the changes of the re-run the menu opened on: a new change
	// adds to them.
	base []recorder.Change
	prev *run
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
func (t target) original() *recorder.Cycle {
	if t.prev != nil {
		return t.prev.orig
	}
	return t.cycle
}

// disabled tells whether the target's changes disable plugin at point.
func (t target) disabled(plugin, point string) bool {
	for _, b := range t.base {
		if d, ok := b.(recorder.Disable); ok && d.Plugin == plugin && d.Point == point {
			return true
		}
	}
	return false
}

// targetAt gathers what the menu acts on from what is on screen.
func (p Model) targetAt(h Here) (target, bool) {
	c := h.Cycle
	if c == nil {
		return target{}, false
	}
	t := target{seq: c.Seq, cycle: c}
	if r := p.runs.of(c); r != nil {
		t.seq, t.base, t.prev = r.res.Seq, r.changes, r
	}
	if h.HasNode {
		t.node = c.NodeName(h.Node)
		// As the node detail has it: a replay reads the node use for the
		// shown cycle, not every cycle before it (some may be unread).
		if h.Usage != nil {
			if u, ok := h.Usage.Node(t.node); ok {
				t.pods = u.Pods
			}
		}
	}
	t.plugin, t.point, t.weight = h.Plugin, h.Point, h.Weight
	return t, true
}

// editSession is one $EDITOR round: the file, what it held, what it edits.
type editSession struct {
	// node is the node edited, "" for the pod.
	node string
	path string
	// orig is the manifest written to the file; shown the one the
	// scheduler saw, which the edit applies to (orig, unless orig is an
	// earlier what-if's edit).
	orig, shown []byte
	target      target
}

// change is the edit of data as a change.
func (e *editSession) change(data []byte) recorder.Change {
	if e.node != "" {
		return recorder.EditNode{Node: e.node, Shown: e.shown, Edited: data, Source: "the edited node " + e.node}
	}
	return recorder.EditPod{Shown: e.shown, Edited: data, Source: "the edited pod"}
}

// The page's messages: the results of the commands it starts.
type (
	editReadyMsg struct {
		edit *editSession
		err  error
	}
	editedMsg struct {
		edit *editSession
		err  error
	}
	runMsg struct {
		res     *Result
		changes []recorder.Change
		target  target
		edit    *editSession
		yaml    []byte
		err     error
	}
	suggestMsg struct {
		res    *SuggestResult
		target target
		err    error
	}
	yamlMsg struct {
		title string
		data  []byte
		err   error
	}
	cleanedMsg struct{}
)

func (editReadyMsg) whatIf() {}
func (editedMsg) whatIf()    {}
func (runMsg) whatIf()       {}
func (suggestMsg) whatIf()   {}
func (yamlMsg) whatIf()      {}
func (cleanedMsg) whatIf()   {}

// Owns tells whether msg is one of the page's messages, which Update takes.
func Owns(msg tea.Msg) bool {
	_, ok := msg.(interface{ whatIf() })
	return ok
}

// Out is what the page asks of the session after a call: a status message
// to give, a re-run to list beside its cycle, a cycle to open (then the menu
// on it: Menu), a screen to show.
type Out struct {
	Say string
	// Show is a screen to show in place of any what-if screen shown.
	Show Screen
	// Added is a new re-run to list.
	Added *Added
	// Open is a cycle to open in the cycle view; ThenMenu opens the menu
	// on it.
	Open     *recorder.Cycle
	ThenMenu bool
}

// Added is a new re-run: Cycle re-ran Orig, numbered Label; What says
// what it changed.
type Added struct {
	Orig, Cycle *recorder.Cycle
	Label, What string
}

// Options configure the page: why it has no Source, how text from the
// source is made safe to draw.
type Options = whatifscreen.Options

// Model is the session's what-if: its re-runs and the runs under way.
type Model struct {
	src  Source
	opts Options
	st   *theme.Styles
	Keys KeyMap
	runs *Runs
	// edits is where the manifests for $EDITOR are written; Close removes it.
	edits *EditDir
	out   Out

	// editing is the edit $EDITOR has.
	editing *editSession
	// busy words the run under way, "" when none.
	busy string
	// words says the next diff opens on its words, as the last one was
	// left.
	words bool

	// w and h are the body's size, which new screens fill.
	w, h int
}

// New returns the page over src, nil for a session that cannot be forked.
func New(src Source, st *theme.Styles, opts Options) Model {
	p := Model{src: src, opts: opts, st: st, Keys: DefaultKeyMap(), runs: newRuns(), edits: &EditDir{}}
	p.Keys.setAvailable(src != nil)
	return p
}

// Runs is the session's register of re-runs (the cycle view and the list
// ask it which cycles are re-runs).
func (p Model) Runs() *Runs { return p.runs }

// Edits is the session's directory of files for $EDITOR, which the program
// closes when it ends.
func (p Model) Edits() *EditDir { return p.edits }

// Editing is the file $EDITOR has open, "" when none.
func (p Model) Editing() string {
	if p.editing == nil {
		return ""
	}
	return p.editing.path
}

// Edited is the message the end of $EDITOR on Editing's file sends, err
// how it ended: what a program that runs the editor itself (a test) sends.
func (p Model) Edited(err error) tea.Msg { return editedMsg{edit: p.editing, err: err} }

// TakeOut returns the page with its outbox emptied, and what it held.
func (p Model) TakeOut() (Model, Out) {
	out := p.out
	p.out = Out{}
	return p, out
}

func (p *Model) say(format string, a ...any) {
	p.out.Say = fmt.Sprintf(format, a...)
}

// base is what a new screen draws with.
func (p Model) base() base {
	return base{st: p.st, keys: p.Keys, w: p.w, h: p.h, words: p.words}
}

// SetSize sets the size of the body the screens fill.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// CycleCrumb names a cycle in the title line: "cycle 3", or "cycle 3'
// what-if".
func (p Model) CycleCrumb(c *recorder.Cycle) string {
	if r := p.runs.of(c); r != nil {
		return "cycle " + r.label + " what-if"
	}
	return fmt.Sprintf("cycle %d", c.Seq)
}

// Status is the status bar's message: msg, else the run under way.
func (p Model) Status(msg problems.Note) problems.Note {
	return whatifscreen.Status(msg, p.busy)
}

// Opens tells whether the key opens the page (w, S, y), which Start takes.
func (p Model) Opens(msg tea.KeyPressMsg) bool {
	k := DefaultKeyMap()
	return key.Matches(msg, k.Open, k.Suggest, k.YAML)
}

// Start opens the menu (w), starts suggest (S) or shows the YAML of the
// selected node, else of the pod (y), over what is on screen.
func (p Model) Start(msg tea.KeyPressMsg, h Here) (Model, tea.Cmd) {
	switch {
	case p.src == nil:
		p.say("%s", p.opts.WhyNot(NoSource))
		return p, nil
	case p.busy != "":
		p.say("wait: %s", p.busy)
		return p, nil
	}
	t, ok := p.targetAt(h)
	if !ok {
		p.say("no cycle selected")
		return p, nil
	}
	switch {
	case key.Matches(msg, p.Keys.Suggest):
		cmd := p.startSuggest(t)
		return p, cmd
	case key.Matches(msg, p.Keys.YAML):
		cmd := p.startYAML(t)
		return p, cmd
	}
	p.out.Show = Menu{base: p.base(), target: t}
	return p, nil
}

// startYAML gets the manifest of the target's node, or of its pod, as its
// cycle saw it (as a re-run's edits left it), for the YAML view.
func (p *Model) startYAML(t target) tea.Cmd {
	src := p.src
	what := "the pod"
	if t.node != "" {
		what = "node " + t.node
	}
	title := fmt.Sprintf("%s as cycle %d saw it", what, t.seq)
	if t.prev != nil {
		title = fmt.Sprintf("%s as what-if %s changed it", what, t.prev.label)
	}
	p.busy = "getting " + title + "…"
	return func() tea.Msg {
		var data []byte
		var err error
		switch {
		case t.node != "" && t.prev != nil && t.prev.nodeYAML[t.node] != nil:
			data = t.prev.nodeYAML[t.node]
		case t.node != "":
			data, err = src.NodeYAML(t.original(), t.node)
		case t.prev != nil && t.prev.podYAML != nil:
			data = t.prev.podYAML
		default:
			data, err = src.PodYAML(t.original())
		}
		return yamlMsg{title: title, data: data, err: err}
	}
}

// Menu is the menu over what is on screen (after the diff's w opened
// the re-run), nil when no cycle is.
func (p Model) Menu(h Here) Screen {
	if t, ok := p.targetAt(h); ok {
		return Menu{base: p.base(), target: t}
	}
	return nil
}

// Do does what a screen asked.
func (p Model) Do(a Ask) (Model, tea.Cmd) {
	switch {
	case a.Words != nil:
		p.words = *a.Words
	case a.Say != "":
		p.say("%s", a.Say)
	case a.Open != nil:
		p.out.Open, p.out.ThenMenu = a.Open, a.ThenMenu
	case a.Run:
		return p, p.startRun(a.Target, a.Change, nil, nil)
	case a.Edit != nil:
		return p, p.startEdit(a.Edit, a.YAML)
	case a.Suggest:
		return p, p.startSuggest(a.Target)
	case a.Retry != nil:
		p.editing = a.Retry
		return p, runEditor(p.edits, a.Retry)
	case a.Cancel != nil:
		p.say("edit cancelled")
		return p, removeFile(a.Cancel.path)
	}
	return p, nil
}

// Update takes the page's own messages: the results of what it started.
func (p Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case editReadyMsg:
		p.busy = ""
		if msg.err != nil {
			p.say("what-if: %s", p.opts.OneLine(msg.err))
			return p, nil
		}
		p.editing = msg.edit
		return p, runEditor(p.edits, msg.edit)
	case editedMsg:
		e := msg.edit
		p.editing = nil
		if msg.err != nil {
			p.say("$EDITOR: %s", p.opts.OneLine(msg.err))
			return p, removeFile(e.path)
		}
		p.busy = fmt.Sprintf("re-running cycle %d with the edit…", e.target.seq)
		src := p.src
		return p, func() tea.Msg {
			data, err := readTemp(e.path)
			if err != nil {
				return runMsg{edit: e, err: err, target: e.target}
			}
			if string(data) == string(e.orig) {
				return runMsg{edit: e, target: e.target, err: errUnchanged}
			}
			return runWhatIf(src, e.target, e.change(data), e, data)
		}
	case runMsg:
		p.busy = ""
		if msg.err != nil {
			if msg.err == errUnchanged {
				p.say("the file was not changed: nothing re-run")
				return p, removeFile(msg.edit.path)
			}
			if msg.edit != nil {
				p.out.Show = EditError{base: p.base(), edit: msg.edit, err: p.opts.OneLine(msg.err)}
				return p, nil
			}
			p.say("what-if: %s", p.opts.OneLine(msg.err))
			return p, nil
		}
		r := p.add(msg)
		p.out.Show = newDiff(p.base(), r, p.words)
		p.say("cycle %s: %s", r.label, summaryLine(r.res))
		if msg.edit != nil {
			return p, removeFile(msg.edit.path)
		}
		return p, nil
	case yamlMsg:
		p.busy = ""
		if msg.err != nil {
			p.say("YAML: %s", p.opts.OneLine(msg.err))
			return p, nil
		}
		lines := strings.Split(strings.TrimRight(string(msg.data), "\n"), "\n")
		for i, l := range lines {
			lines[i] = p.opts.Safe(l)
		}
		p.out.Show = newYAML(p.base(), msg.title, lines)
		return p, nil
	case suggestMsg:
		p.busy = ""
		if msg.err != nil {
			p.say("suggest: %s", p.opts.OneLine(msg.err))
			return p, nil
		}
		v := NewSuggestView(p.st)
		v.SetSize(p.w, p.h)
		v.SetResult(msg.res, msg.target)
		p.out.Show = Suggest{base: p.base(), view: v}
		return p, nil
	}
	return p, nil
}

// startEdit writes the manifest to a file of the session's edit directory
// for $EDITOR: yaml when set (what an earlier what-if edited), else what
// the scheduler read of it, as the source gives it.
func (p *Model) startEdit(e *editSession, yaml []byte) tea.Cmd {
	src, edits := p.src, p.edits
	what := "the pod"
	if e.node != "" {
		what = "node " + e.node
	}
	p.busy = fmt.Sprintf("getting %s as cycle %d saw it…", what, e.target.seq)
	return func() tea.Msg {
		data := yaml
		if data == nil || e.shown == nil {
			var err error
			if e.node != "" {
				e.shown, err = src.NodeYAML(e.target.original(), e.node)
			} else {
				e.shown, err = src.PodYAML(e.target.original())
			}
			if err != nil {
				return editReadyMsg{edit: e, err: err}
			}
		}
		if data == nil {
			data = e.shown
		}
		path, err := edits.write(data, e)
		e.path, e.orig = path, data
		return editReadyMsg{edit: e, err: err}
	}
}

// startRun re-runs the target's cycle with its base changes and ch.
func (p *Model) startRun(t target, ch recorder.Change, e *editSession, yaml []byte) tea.Cmd {
	src := p.src
	p.busy = fmt.Sprintf("re-running cycle %d with %s…", t.seq, narrate.Change(ch))
	return func() tea.Msg { return runWhatIf(src, t, ch, e, yaml) }
}

// runWhatIf re-runs the target's cycle with its base changes and ch; it is
// the body of a tea.Cmd.
func runWhatIf(src Source, t target, ch recorder.Change, e *editSession, yaml []byte) tea.Msg {
	changes := recorder.WithChange(t.base, ch)
	res, err := src.Run(t.original(), changes)
	return runMsg{res: res, changes: changes, target: t, edit: e, yaml: yaml, err: err}
}

// startSuggest searches changes for the target's cycle.
func (p *Model) startSuggest(t target) tea.Cmd {
	if c := t.original(); c.Outcome.Result == recorder.ResultBound {
		p.say("cycle %d bound its pod to %s: suggest is for a pod that did not fit", c.Seq, c.Outcome.Node)
		return nil
	}
	src := p.src
	p.busy = fmt.Sprintf("searching changes for cycle %d (each is verified by a re-run)…", t.seq)
	return func() tea.Msg {
		res, err := src.Suggest(t.original())
		return suggestMsg{res: res, target: t, err: err}
	}
}

// summaryLine says where the re-run put the pod.
func summaryLine(r *Result) string {
	switch {
	case r.After.Outcome.Result == recorder.ResultBound:
		return "the pod would bind to " + r.After.Outcome.Node
	case r.Landing != "":
		return "the pod would preempt and land on " + r.Landing
	}
	return "the pod would still be " + r.After.Outcome.Result
}

// add registers a re-run and asks the session to list it beside the cycle
// it changed.
func (p *Model) add(msg runMsg) *run {
	t := msg.target
	orig := t.original()
	p.runs.perSeq[t.seq]++
	after := *msg.res.After
	after.Seq = t.seq
	r := &run{res: msg.res, changes: msg.changes, orig: orig, cycle: &after,
		label: label(t.seq, p.runs.perSeq[t.seq]), nodeYAML: map[string][]byte{}}
	if t.prev != nil {
		r.podYAML = t.prev.podYAML
		for k, v := range t.prev.nodeYAML {
			r.nodeYAML[k] = v
		}
	}
	if e := msg.edit; e != nil {
		if e.node == "" {
			r.podYAML = msg.yaml
		} else {
			r.nodeYAML[e.node] = msg.yaml
		}
	}
	p.runs.byCycle[r.cycle] = r
	what := strings.Join(msg.res.Changes, "; ")
	if what == "" {
		what = joinChanges(msg.changes)
	}
	p.out.Added = &Added{Orig: orig, Cycle: r.cycle, Label: r.label, What: what}
	return r
}

// BarKeys are the keys the key bar offers over cycle c (nil when none is
// shown): suggest only for a pod that did not fit.
func (p Model) BarKeys(c *recorder.Cycle) KeyMap {
	k := p.Keys
	c = p.runs.Original(c)
	if c == nil {
		k.setAvailable(false)
	} else if c.Outcome.Result == recorder.ResultBound {
		k.Suggest.SetEnabled(false)
	}
	return k
}

func joinChanges(cs []recorder.Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, narrate.Change(c))
	}
	return strings.Join(out, ", ")
}

// HelpSections are the "?" screen's blocks of what-if keys: those that work
// in a cycle, and those of the menu w opens (d there is not the Filter
// phase's d).
func (p Model) HelpSections() []helpscreen.Section {
	k := DefaultKeyMap()
	open := helpscreen.Section{Title: "What-if", Keys: []key.Binding{k.Open, k.Suggest, k.YAML}}
	menu := helpscreen.Section{Title: "In the what-if menu (after " + k.Open.Help().Key + ")", Keys: []key.Binding{k.EditPod, k.EditNode, k.Evict, k.Weight, k.Disable, k.Diff}}
	if p.src == nil {
		open.Note = p.opts.WhyNot(NoSource)
	}
	return []helpscreen.Section{open, menu}
}
