package tui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/components/breakpoints"
	"github.com/schedscope/schedscope/tui/components/helpscreen"
	"github.com/schedscope/schedscope/tui/components/nodes"
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/components/pods"
	"github.com/schedscope/schedscope/tui/components/problems"
	"github.com/schedscope/schedscope/tui/components/whatifscreen"
	"github.com/schedscope/schedscope/tui/layout"
)

// A layer is a screen over the panes: the "?" screen, the problems, the
// nodes, the pods, the breakpoints form, the fixtures list. Each holds its
// own state (the component it adapts); the root keeps them in a stack
// (Model.layers): the top one takes the keys and the mouse wheel, draws the
// body and names the help line's keys and the title's path, until it says
// it is closed. A closed layer is kept on a shelf (Model.shelf) and opens
// again as it was left (the Pods view keeps its filter and its story).
// The session's keys are handled once: ctrl+c and the prompt in handleKey,
// help, problems and the command prompt in layerKey (not over a layer that
// takes every key, as the form's fields do). Each layer adapts a component
// with the same small shape: Update returning its own type, View, SetSize
// and a key map that implements help.KeyMap (checked below). Layers are
// values, as the root model is: an update returns the layer as it is now.
type layer interface {
	// update takes a key or the wheel and returns the layer as it is now;
	// closed says the layer is done.
	update(m *Model, msg tea.Msg) (next layer, closed bool, cmd tea.Cmd)
	view(m *Model) string
	keys(m *Model) help.KeyMap
	// crumb is the title line's path and position with the layer shown,
	// given those of what is under it.
	crumb(m *Model, path, position string) (string, string)
	// close is the key that closes the layer: it goes to the layer even
	// where it is also a key of the whole session (? closes help).
	close(m *Model) key.Binding
	// resize fits the layer to the body's size.
	resize(w, h int) layer
	// whole says the layer takes every key, the session's included.
	whole() bool
}

// component is the shape of the components the layers adapt.
type component[T any] interface {
	Update(tea.Msg) (T, tea.Cmd)
	View() string
	SetSize(w, h int)
}

var (
	_ component[helpscreen.Model] = (*helpscreen.Model)(nil)
	_ component[problems.Model]   = (*problems.Model)(nil)
	_ component[nodes.Model]      = (*nodes.Model)(nil)
	_ component[pods.Model]       = (*pods.Model)(nil)
	_ help.KeyMap                 = helpscreen.KeyMap{}
	_ help.KeyMap                 = problems.KeyMap{}
	_ help.KeyMap                 = nodes.KeyMap{}
	_ help.KeyMap                 = pods.KeyMap{}
	_ help.KeyMap                 = breakpoints.KeyMap{}
)

// top is the layer on top, nil when the panes show.
func (m *Model) top() layer {
	if len(m.layers) == 0 {
		return nil
	}
	return m.layers[len(m.layers)-1]
}

// sameKind tells whether a and b are layers of one kind.
func sameKind(a, b layer) bool {
	return a != nil && b != nil && reflect.TypeOf(a) == reflect.TypeOf(b)
}

// push shows l over what is shown; l replaces a layer of its kind on top
// rather than stacking twice. The stack is copied, not changed in place:
// the model is a value, and its copies must not share a stack.
func (m *Model) push(l layer) {
	if sameKind(m.top(), l) {
		m.layers = slices.Clone(m.layers)
		m.layers[len(m.layers)-1] = l
		return
	}
	m.layers = append(slices.Clip(m.layers), l)
}

// pop takes the top layer off, onto the shelf.
func (m *Model) pop() {
	n := len(m.layers) - 1
	m.putOnShelf(m.layers[n])
	m.layers = slices.Clip(m.layers[:n])
}

// closeAll takes every layer off, onto the shelf: a command that acts on
// the panes (:cycle, :phase, :filter, :sort, :marked) typed over a screen
// shows what it did.
func (m *Model) closeAll() {
	for m.top() != nil {
		m.pop()
	}
}

// putOnShelf keeps l to open it again as it is.
func (m *Model) putOnShelf(l layer) {
	shelf := slices.DeleteFunc(slices.Clone(m.shelf), func(x layer) bool { return sameKind(x, l) })
	m.shelf = append(shelf, l)
}

// reopen is the layer of L's kind on top, else as it was closed, else
// fresh, sized to the body: what push shows next.
func reopen[L layer](m *Model, fresh L) L {
	l, ok := m.top().(L)
	if !ok {
		l, ok = shelved[L](m)
	}
	if !ok {
		l = fresh
	}
	return l.resize(m.w, m.bodyHeight()).(L)
}

// shelved is the layer of L's kind on the shelf, ok false when none is.
func shelved[L layer](m *Model) (L, bool) {
	for _, x := range m.shelf {
		if s, ok := x.(L); ok {
			return s, true
		}
	}
	var zero L
	return zero, false
}

// showing tells whether a layer of l's kind is on top.
func (m *Model) showing(l layer) bool { return sameKind(m.top(), l) }

// change applies f to the topmost layer of L's kind in the stack, and
// reports whether there was one.
func change[L layer](m *Model, f func(*L)) bool {
	for i := len(m.layers) - 1; i >= 0; i-- {
		if l, ok := m.layers[i].(L); ok {
			f(&l)
			m.layers = slices.Clone(m.layers)
			m.layers[i] = l
			return true
		}
	}
	return false
}

// layerKey routes a key while a layer is shown: the keys of the whole
// session (help, problems, the command prompt) first, unless the key
// closes the layer or the layer takes every key, then the layer's.
func (m *Model) layerKey(msg tea.KeyPressMsg) tea.Cmd {
	l, k := m.top(), m.Keys
	if !l.whole() && !key.Matches(msg, l.close(m)) {
		switch {
		case key.Matches(msg, k.Help):
			m.openHelp()
			return nil
		case key.Matches(msg, k.Problems):
			m.openProblems()
			return nil
		case key.Matches(msg, k.Command):
			return m.openPrompt(promptCommand, "")
		}
	}
	return m.toLayer(msg)
}

// toLayer hands msg to the top layer, and takes it off when it is done.
func (m *Model) toLayer(msg tea.Msg) tea.Cmd {
	n := len(m.layers) - 1
	l := m.layers[n]
	next, closed, cmd := l.update(m, msg)
	if n >= len(m.layers) || !sameKind(m.layers[n], l) {
		return cmd // it took itself off (the what-if page's screen closed)
	}
	m.layers = slices.Clone(m.layers)
	m.layers[n] = next
	if closed {
		m.pop()
	}
	return cmd
}

// The layers.
type (
	helpLayer     struct{ hs helpscreen.Model }
	problemsLayer struct{ p problems.Model }
	// nodesLayer shows the nodes as cycle index of saw them.
	nodesLayer struct {
		n  nodes.Model
		of int
	}
)

func (l helpLayer) update(m *Model, msg tea.Msg) (layer, bool, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, l.hs.Keys.Close) {
		return l, true, nil
	}
	l.hs, _ = l.now(m).Update(msg)
	return l, false, nil
}

// now is the "?" screen as of now: its sections say what the session's
// state allows (the engine keys end with the run).
func (l helpLayer) now(m *Model) helpscreen.Model {
	hs := l.hs
	hs.SetSections(m.helpSections())
	hs.SetSize(m.w, m.bodyHeight())
	return hs
}
func (l helpLayer) view(m *Model) string      { return l.now(m).View() }
func (l helpLayer) keys(m *Model) help.KeyMap { return l.now(m).Bar() }
func (l helpLayer) crumb(m *Model, c, p string) (string, string) {
	return c + " › help", p
}
func (l helpLayer) resize(w, h int) layer { l.hs.SetSize(w, h); return l }
func (helpLayer) whole() bool             { return false }

func (l problemsLayer) view(m *Model) string      { return l.p.View() }
func (l problemsLayer) keys(m *Model) help.KeyMap { return l.p.Keys }
func (l problemsLayer) crumb(m *Model, c, p string) (string, string) {
	return c + " › problems", p
}
func (l problemsLayer) resize(w, h int) layer { l.p.SetSize(w, h); return l }
func (problemsLayer) whole() bool             { return false }

func (l problemsLayer) update(m *Model, msg tea.Msg) (layer, bool, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, l.p.Keys.Close) {
		return l, true, nil
	}
	l.p, _ = l.p.Update(msg)
	return l, false, nil
}

func (l nodesLayer) update(m *Model, msg tea.Msg) (layer, bool, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, l.n.Keys.Close):
			return l, true, nil
		case key.Matches(k, l.n.Keys.Filter):
			return l, false, m.openPrompt(promptNodesFilter, l.n.Filter())
		case key.Matches(k, l.n.Keys.Open):
			// The node's detail in the cycle the view shows.
			name, ok := l.n.Selected()
			if i := l.of; ok && i >= 0 && i < len(m.cycles) {
				m.open(i)
				if m.view.Cycle() == m.cycles[i] {
					m.view.OpenNode(name)
				}
				return l, true, nil
			}
			return l, false, nil
		}
	}
	l.n, _ = l.n.Update(msg)
	return l, false, nil
}
func (l nodesLayer) view(m *Model) string      { return l.n.View() }
func (l nodesLayer) keys(m *Model) help.KeyMap { return l.n.Keys }
func (l nodesLayer) crumb(m *Model, c, p string) (string, string) {
	return l.n.Crumb(), l.n.Position()
}
func (l nodesLayer) resize(w, h int) layer { l.n.SetSize(w, h); return l }
func (nodesLayer) whole() bool             { return false }

// openNodes shows the nodes as the cycle shown (else the last) saw them,
// filtered by filter.
func (m *Model) openNodes(filter string) {
	i := m.list.Selected()
	if c := m.shownCycle(); c != nil {
		i = slices.Index(m.cycles, c)
	}
	if i < 0 || i >= len(m.cycles) || m.cycles[i] == nil {
		m.say("no cycle to show the nodes of: the nodes are known from the cycles (open one first)")
		return
	}
	l := reopen(m, nodesLayer{n: nodes.New(m.st)})
	l.n.SetCycle(m.cycles[i], m.usageAt(i))
	l.of = i
	l.n.SetFilter(filter)
	m.push(l)
}

// usageAt is what was placed on each node as cycle index i saw it, from the
// recorded cycles before it (a what-if re-run's own placements left out);
// nil when a replay has not read them all.
func (m *Model) usageAt(i int) *recorder.Usage {
	c := m.cycles[i]
	orig := m.wi.Runs().Original(c)
	var seen []*recorder.Cycle
	for _, x := range m.cycles {
		if x == nil {
			return nil
		}
		if _, rerun := m.wi.Runs().Label(x); rerun {
			continue
		}
		seen = append(seen, x)
		if x == orig {
			break
		}
	}
	if c != orig {
		// The re-run saw what its original saw.
		seen = append(seen[:len(seen)-1], c)
	}
	return recorder.UsageAt(seen, len(seen)-1)
}

func (l helpLayer) close(m *Model) key.Binding     { return l.hs.Keys.Close }
func (l problemsLayer) close(m *Model) key.Binding { return l.p.Keys.Close }
func (l nodesLayer) close(m *Model) key.Binding    { return l.n.Keys.Close }

// formLayer is the breakpoints form (b): it takes every key, the session's
// included, as a form's text fields must; done, it applies or drops what
// was edited.
type formLayer struct{ f breakpoints.Model }

func (l formLayer) update(m *Model, msg tea.Msg) (layer, bool, tea.Cmd) {
	var cmd tea.Cmd
	l.f, cmd = l.f.Update(msg)
	done, applied := l.f.Done()
	if !done {
		return l, false, cmd
	}
	if applied {
		m.breakpoints = source.Breakpoints(l.f.Values())
		bp, ctl := m.breakpoints, m.opts.Control
		return l, true, control(func() { ctl.SetBreakpoints(bp) })
	}
	return l, true, cmd
}
func (l formLayer) view(m *Model) string {
	return strings.Join(append([]string{""}, indent(layout.SplitLines(l.f.View()), "  ")...), "\n")
}
func (l formLayer) keys(m *Model) help.KeyMap { return l.f.Keys }
func (formLayer) crumb(m *Model, c, p string) (string, string) {
	return c + " › breakpoints", p
}
func (formLayer) close(m *Model) key.Binding { return key.NewBinding() }
func (l formLayer) resize(w, h int) layer    { return l }
func (formLayer) whole() bool                { return true }

// fixturesLayer lists the embedded fixtures and what each teaches (the
// session cannot switch fixture: the list says how to open one).
type fixturesLayer struct{ p pager.Model }

// openFixtures shows the embedded fixtures.
func (m *Model) openFixtures() {
	if len(m.opts.Fixtures) == 0 {
		m.say("this session was given no list of fixtures")
		return
	}
	w := max(m.w-4, 20)
	var lines []string
	for _, f := range m.opts.Fixtures {
		lines = append(lines, "  "+m.st.Key.Render(f.Name))
		for _, l := range layout.Wrap(f.Teaches, w, "") {
			lines = append(lines, "    "+l)
		}
	}
	l := reopen(m, fixturesLayer{p: pager.New()})
	l.p.SetLines(lines)
	l.p.Top()
	m.push(l)
}

// fixturesClose leaves the fixtures list.
var fixturesClose = key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "back"))

// fixturesKeys are the list's keys: the pager's, and back.
type fixturesKeys struct{ pager.KeyMap }

func (k fixturesKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageDown, fixturesClose}
}
func (k fixturesKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, fixturesClose}}
}

func (l fixturesLayer) update(m *Model, msg tea.Msg) (layer, bool, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, fixturesClose) {
		return l, true, nil
	}
	l.p, _ = l.p.Update(msg)
	return l, false, nil
}
func (l fixturesLayer) view(m *Model) string {
	head := m.st.Title.Render(fmt.Sprintf("Embedded fixtures (%d)", len(m.opts.Fixtures))) +
		m.st.Dim.Render(" · open one with: kubectl schedscope sim -f NAME")
	return layout.Fit(head, m.w) + "\n\n" + l.p.View()
}
func (l fixturesLayer) keys(m *Model) help.KeyMap { return fixturesKeys{l.p.Keys} }
func (fixturesLayer) crumb(m *Model, c, p string) (string, string) {
	return "fixtures", ""
}
func (fixturesLayer) close(m *Model) key.Binding { return fixturesClose }
func (l fixturesLayer) resize(w, h int) layer    { l.p.SetHeight(max(h-2, 1)); return l }
func (fixturesLayer) whole() bool                { return false }

// openHelp shows the "?" screen from its top.
func (m *Model) openHelp() {
	l := reopen(m, helpLayer{hs: helpscreen.New(m.st)})
	l.hs.Top()
	m.push(l)
}

// openProblems shows the problems view over the panes.
func (m *Model) openProblems() {
	l := reopen(m, problemsLayer{p: problems.New(m.st)})
	l.p.SetNotes(m.notes)
	m.push(l)
}

// screenLayer shows a what-if screen (components/whatifscreen) of the page
// P stands for: a screen that fills the body, or a panel drawn over the
// bottom of what is under it (P's under). It takes every key, as a
// what-if's prompts must (":" and "?" are text there). What the screen
// asks goes to P's page, and a screen that page shows next takes its place.
type screenLayer[A any, P screenPage[A]] struct{ s whatifscreen.Screen[A] }

// screenPage is the root's side of a what-if page.
type screenPage[A any] interface {
	// do hands what a screen asked to the page, does what the page asks
	// of the session in turn, and returns the screen it shows, nil when
	// none.
	do(m *Model, ask A) (whatifscreen.Screen[A], tea.Cmd)
	// under is what a panel is drawn over.
	under(m *Model) []string
}

// showScreen shows what-if screen s on top of the stack, in place of a
// screen of its what-if shown, if any; nil shows none.
func showScreen[A any, P screenPage[A]](m *Model, s whatifscreen.Screen[A]) {
	if s == nil {
		return
	}
	m.layers = slices.DeleteFunc(slices.Clone(m.layers), func(l layer) bool { return sameKind(l, screenLayer[A, P]{}) })
	m.push(screenLayer[A, P]{s.SetSize(m.w, m.bodyHeight())})
}

func (l screenLayer[A, P]) update(m *Model, msg tea.Msg) (layer, bool, tea.Cmd) {
	next, ask, cmd := l.s.Update(msg)
	var p P
	s, did := p.do(m, ask)
	if s != nil {
		next = s.SetSize(m.w, m.bodyHeight())
	}
	return screenLayer[A, P]{next}, next == nil, tea.Batch(cmd, did)
}
func (l screenLayer[A, P]) view(m *Model) string {
	if !l.s.Over() {
		return l.s.View()
	}
	var p P
	return whatifscreen.Over(layout.Box(p.under(m), m.w, m.bodyHeight()), layout.SplitLines(l.s.View()))
}
func (l screenLayer[A, P]) keys(m *Model) help.KeyMap { return l.s.Keys() }
func (l screenLayer[A, P]) crumb(m *Model, c, p string) (string, string) {
	return c + " › " + l.s.Crumb(), p
}
func (screenLayer[A, P]) close(m *Model) key.Binding { return key.NewBinding() }
func (l screenLayer[A, P]) resize(w, h int) layer    { return screenLayer[A, P]{l.s.SetSize(w, h)} }
func (screenLayer[A, P]) whole() bool                { return true }
