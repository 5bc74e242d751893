// Package groupwhatif is the what-if of a pod group: the menu w opens on
// the pod-group page (minCount, a member's requests, a copy of a node, an
// eviction, a weight, a plugin, any whole-run change as whatif's flags),
// the group's pod-group cycle before and after the change side by side,
// and suggest's list (S), each suggestion confirmed by a run and with the
// command line that shows it. It runs the session's fixture again through
// a Source (cmd/), as whatif --pod-group and suggest --pod-group do.
//
// Model is the session's group what-if: the run under way and what it
// asks of the session. Its screens (screens.go) are pages on the root's
// stack; what a screen needs (a run, a search) it asks for (Ask), and the
// root hands that to Do. The root calls Start when w or S is pressed on
// the pod-group page (Here is what that page shows, as plain data: a page
// does not import another page), and Update with the page's own messages
// (Owns). What the page needs of the session (a status message, a screen
// to show) it leaves in its outbox (TakeOut).
package groupwhatif

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/components/helpscreen"
	"github.com/schedscope/schedscope/tui/components/problems"
	"github.com/schedscope/schedscope/tui/components/whatifscreen"
	"github.com/schedscope/schedscope/tui/theme"
)

// NoSource says why the keys do nothing in a session without a Source,
// when the session does not say (Options.Why).
const NoSource = "a pod group's what-if runs the fixture again: run sim"

// Here is what the pod-group page shows when w or S is pressed.
type Here struct {
	// Cycle is the pod-group cycle shown.
	Cycle *recorder.PodGroupCycle
	// Member is the selected member's name; Requests its requests as its
	// cycle recorded them ("cpu=1200m"), "" when not known.
	Member, Requests string
	// Nodes are the nodes the members saw.
	Nodes []string
}

// target is what the menu acts on.
type target struct {
	group recorder.PodGroupRef
	// cycle is the pod-group cycle shown when the menu opened.
	cycle *recorder.PodGroupCycle
	// base are the changes of the before/after the menu opened from: a
	// new change adds to them.
	base             []recorder.Change
	member, requests string
	nodes            []string
}

// The page's messages: the results of the commands it starts.
type (
	runMsg struct {
		res *Result
		// flag and value are the prompt's, to show it again with a change
		// that could not be read or made.
		flag, value string
		target      target
		err         error
	}
	suggestMsg struct {
		res    *SuggestResult
		target target
		err    error
	}
)

func (runMsg) groupWhatIf()     {}
func (suggestMsg) groupWhatIf() {}

// Owns tells whether msg is one of the page's messages, which Update takes.
func Owns(msg tea.Msg) bool {
	_, ok := msg.(interface{ groupWhatIf() })
	return ok
}

// Out is what the page asks of the session after a call.
type Out struct {
	Say string
	// Show is a screen to show in place of any group what-if screen.
	Show Screen
}

// Options configure the page: why it has no Source, how text from the
// source is made safe to draw.
type Options = whatifscreen.Options

// Model is the session's group what-if.
type Model struct {
	src  Source
	opts Options
	st   *theme.Styles
	Keys KeyMap
	out  Out
	// busy words the run under way, "" when none.
	busy string
	w, h int
}

// New returns the page over src, nil for a session without a fixture.
func New(src Source, st *theme.Styles, opts Options) Model {
	p := Model{src: src, opts: opts, st: st, Keys: DefaultKeyMap()}
	p.Keys.setAvailable(src != nil)
	return p
}

// SetSize sets the size of the body the screens fill.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// TakeOut returns the page with its outbox emptied, and what it held.
func (p Model) TakeOut() (Model, Out) {
	out := p.out
	p.out = Out{}
	return p, out
}

func (p *Model) say(format string, a ...any) { p.out.Say = fmt.Sprintf(format, a...) }

func (p Model) base() base { return base{st: p.st, keys: p.Keys, w: p.w, h: p.h} }

// Status is the status bar's message: msg, else the run under way.
func (p Model) Status(msg problems.Note) problems.Note {
	return whatifscreen.Status(msg, p.busy)
}

// Opens tells whether the key opens the page (w, S), which Start takes.
func (p Model) Opens(msg tea.KeyPressMsg) bool {
	k := DefaultKeyMap()
	return key.Matches(msg, k.Open, k.Suggest)
}

// Start opens the menu (w) or starts suggest (S) on the group h shows.
func (p Model) Start(msg tea.KeyPressMsg, h Here) (Model, tea.Cmd) {
	switch {
	case p.src == nil:
		p.say("%s", p.opts.WhyNot(NoSource))
		return p, nil
	case p.busy != "":
		p.say("wait: %s", p.busy)
		return p, nil
	case h.Cycle == nil:
		p.say("no pod-group cycle shown")
		return p, nil
	}
	t := target{group: h.Cycle.Group, cycle: h.Cycle, member: h.Member, requests: h.Requests, nodes: h.Nodes}
	if key.Matches(msg, p.Keys.Suggest) {
		return p, p.startSuggest(t)
	}
	p.out.Show = Menu{base: p.base(), target: t}
	return p, nil
}

// Do does what a screen asked.
func (p Model) Do(a Ask) (Model, tea.Cmd) {
	switch {
	case a.Say != "":
		p.say("%s", a.Say)
	case a.Suggest:
		return p, p.startSuggest(a.Target)
	case a.Run:
		return p, p.startRun(a.Target, a.Flag, a.Value, a.Change)
	}
	return p, nil
}

// startRun reads the change (flag and value, or ch when set) and runs the
// fixture as it is and with the target's changes and it.
func (p *Model) startRun(t target, flag, value string, ch recorder.Change) tea.Cmd {
	if p.busy != "" {
		p.say("wait: %s", p.busy)
		return nil
	}
	src := p.src
	p.busy = fmt.Sprintf("running the fixture as it is and changed, for pod group %s…", t.group.Key())
	return func() tea.Msg {
		if ch == nil {
			var err error
			if ch, err = src.Change(flag, value); err != nil {
				return runMsg{flag: flag, value: value, target: t, err: err}
			}
		}
		res, err := src.Run(t.group, recorder.WithChange(t.base, ch))
		return runMsg{res: res, flag: flag, value: value, target: t, err: err}
	}
}

// startSuggest searches changes that let the target's group bind.
func (p *Model) startSuggest(t target) tea.Cmd {
	if t.cycle != nil && t.cycle.Outcome.Result == recorder.ResultBound && len(t.base) == 0 {
		p.say("pod group %s bound in pod-group cycle %d: suggest is for a group that did not", t.group.Key(), t.cycle.Seq)
		return nil
	}
	src := p.src
	p.busy = fmt.Sprintf("searching changes for pod group %s (each is confirmed by a run of the fixture)…", t.group.Key())
	return func() tea.Msg {
		res, err := src.Suggest(t.group)
		return suggestMsg{res: res, target: t, err: err}
	}
}

// Update takes the page's own messages.
func (p Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case runMsg:
		p.busy = ""
		if msg.err != nil {
			if msg.flag != "" || msg.value != "" {
				// Back to the prompt, its text kept, with why.
				in := newInput(p.base(), msg.target, msg.flag, msg.value)
				in.err = p.opts.OneLine(msg.err)
				p.out.Show = in
				return p, in.input.Focus()
			}
			p.say("what-if: %s", p.opts.OneLine(msg.err))
			return p, nil
		}
		p.out.Show = newCompare(p.base(), msg.res, msg.target)
	case suggestMsg:
		p.busy = ""
		if msg.err != nil {
			p.say("suggest: %s", p.opts.OneLine(msg.err))
			return p, nil
		}
		p.out.Show = Suggest{base: p.base(), res: msg.res, target: msg.target}
	}
	return p, nil
}

// BarKeys are the keys the pod-group page's key bar offers over g:
// suggest only for a group that did not bind.
func (p Model) BarKeys(g *recorder.PodGroupCycle) KeyMap {
	k := p.Keys
	if g != nil && g.Outcome.Result == recorder.ResultBound {
		k.Suggest.SetEnabled(false)
	}
	return k
}

// HelpSections are the "?" screen's blocks of a group's what-if keys: those
// of the pod-group page, and those of the menu w opens there.
func (p Model) HelpSections() []helpscreen.Section {
	k := DefaultKeyMap()
	open := helpscreen.Section{Title: "On the pod-group page (t)", Keys: []key.Binding{k.Open, k.Suggest}}
	if p.src == nil {
		open.Note = p.opts.WhyNot(NoSource)
	}
	menu := helpscreen.Section{Title: "In a group's what-if menu (after " + k.Open.Help().Key + " there)", Keys: k.menu()[:len(k.menu())-1]}
	return []helpscreen.Section{open, menu}
}
