package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/components/cyclelist"
	"github.com/schedscope/schedscope/tui/components/explain"
	"github.com/schedscope/schedscope/tui/components/helpscreen"
	"github.com/schedscope/schedscope/tui/components/nodephase"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
	"github.com/schedscope/schedscope/tui/pages/podgroup"
)

// KeyMap holds the keys that work everywhere outside text inputs.
type KeyMap struct {
	Quit        key.Binding
	Help        key.Binding
	Command     key.Binding
	Filter      key.Binding
	Back        key.Binding
	Problems    key.Binding
	Pause       key.Binding
	Step        key.Binding
	StepPhase   key.Binding
	Breakpoints key.Binding
	Mark        key.Binding
	Export      key.Binding
}

// DefaultKeyMap returns the global keys, k9s style.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Quit:        key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Command:     key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Problems:    key.NewBinding(key.WithKeys("!"), key.WithHelp("!", "problems")),
		Pause:       key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "pause/resume")),
		Step:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "step one cycle")),
		StepPhase:   key.NewBinding(key.WithKeys("."), key.WithHelp(".", "step one phase")),
		Breakpoints: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "breakpoints")),
		Mark:        key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mark cycle with a note")),
		Export:      key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "write cycle as Markdown and HTML")),
	}
}

// ShortHelp implements help.KeyMap. Help and quit come first: the key bar
// is cut at the window's edge, and a newcomer must always see those two.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.Quit, k.Pause, k.Step, k.Filter, k.Problems}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Help, k.Command, k.Filter, k.Problems, k.Back, k.Quit}, {k.Pause, k.Step, k.StepPhase, k.Breakpoints, k.Mark, k.Export}}
}

// setLive enables the engine controls only when there is an engine to control:
// not in a replay, and no longer once the run has finished.
func (k *KeyMap) setLive(live bool) {
	k.Pause.SetEnabled(live)
	k.Step.SetEnabled(live)
	k.StepPhase.SetEnabled(live)
	k.Breakpoints.SetEnabled(live)
}

// engineKey tells whether msg is one of the engine controls, whether or not
// they are enabled, and says what it would have done.
func (k KeyMap) engineKey(msg tea.KeyPressMsg) string {
	for _, b := range []struct {
		binding key.Binding
		what    string
	}{{k.Pause, "nothing to pause"}, {k.Step, "nothing to step"}, {k.StepPhase, "nothing to step"}, {k.Breakpoints, "nothing to break on"}} {
		b.binding.SetEnabled(true)
		if key.Matches(msg, b.binding) {
			return b.what
		}
	}
	return ""
}

// engineKeys are the engine controls first in the help line while the
// engine is paused: what a newcomer stopped at a breakpoint needs next.
type engineKeys struct{ KeyMap }

// ShortHelp implements help.KeyMap.
func (k engineKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Pause, k.Step, k.StepPhase}
}

// FullHelp implements help.KeyMap.
func (k engineKeys) FullHelp() [][]key.Binding { return nil }

// joinedHelp combines several key maps into one for the help view.
type joinedHelp []interface {
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// ShortHelp implements help.KeyMap: a key two maps name is listed once,
// where it comes first.
func (j joinedHelp) ShortHelp() []key.Binding {
	var out []key.Binding
	seen := map[key.Help]bool{}
	for _, k := range j {
		for _, b := range k.ShortHelp() {
			if !seen[b.Help()] {
				seen[b.Help()] = true
				out = append(out, b)
			}
		}
	}
	return out
}

// FullHelp implements help.KeyMap.
func (j joinedHelp) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, k := range j {
		out = append(out, k.FullHelp()...)
	}
	return out
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
		{Title: "Cycles", Keys: []key.Binding{l.Open, l.NextFailure, l.PrevFailure, l.Pods, podgroup.OpenKey(), g.Mark, g.Export}},
	}
	engine := helpscreen.Section{Title: "Engine", Keys: []key.Binding{g.Pause, g.Step, g.StepPhase, g.Breakpoints}}
	switch {
	case m.opts.Control == nil:
		engine.Note = "replay: no engine"
	case m.done:
		engine.Note = "the run has finished"
	}
	return append(sections, engine,
		helpscreen.Section{Title: "Inside a cycle", Keys: []key.Binding{c.PrevPhase, c.NextPhase, np.NextColumn, np.PrevColumn, c.Detail, np.Diagnostic, np.Sort, np.Show, explain.DefaultKeyMap().Toggle}},
		m.wi.HelpSections()[0], m.wi.HelpSections()[1],
		m.gwi.HelpSections()[0], m.gwi.HelpSections()[1],
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
			{":group [NAME]", "a pod group's cycle: members × nodes, minCount, reverted (key: " + podgroup.OpenKey().Help().Key + " from a member)"},
			{":marked", "the cycles marked with m"},
			{":problems", "list problems (key: " + g.Problems.Help().Key + ")"},
			{":help", "this screen"},
			{":q", "quit"},
		}},
	)
}
