package tui

import (
	"fmt"
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
	"github.com/schedscope/schedscope/tui/layout"
)

// A layer is a screen over the panes: the "?" screen, the problems, the
// nodes, the pods, the breakpoints form, the fixtures list. The root keeps them in a stack
// (Model.layers): the top one takes the keys and the mouse wheel, draws the
// body and names the help line's keys and the title's path, until it says
// it is closed. The session's keys are handled once: ctrl+c and the prompt
// in handleKey, help, problems and the command prompt in layerKey (not over
// the form, whose fields take every key). Each layer adapts a component
// with the same small shape: Update returning its own type, View, SetSize
// and a key map that implements help.KeyMap (checked below). The what-if
// page is not one: it routes its own screens (whatif.Model.Active).
type layer interface {
	// update takes a key or the wheel; closed says the layer is done.
	update(m *Model, msg tea.Msg) (closed bool, cmd tea.Cmd)
	view(m *Model) string
	keys(m *Model) help.KeyMap
	// crumb is the layer's path in the title line and position its place
	// there; "" keeps those of what is under it.
	crumb(m *Model) (crumb, position string)
	// close is the key that closes the layer: it goes to the layer even
	// where it is also a key of the whole session (? closes help).
	close(m *Model) key.Binding
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

// push shows l over what is shown; a layer already on top is not stacked
// twice.
func (m *Model) push(l layer) {
	if t := m.top(); t != nil && t == l {
		return
	}
	m.layers = append(m.layers, l)
}

// showing tells whether l is on top.
func (m *Model) showing(l layer) bool { return m.top() == l }

// layerKey routes a key while a layer is shown: the keys of the whole
// session (help, problems, the command prompt) first, unless the key
// closes the layer, then the layer's.
func (m *Model) layerKey(msg tea.KeyPressMsg) tea.Cmd {
	l, k := m.top(), m.Keys
	if !key.Matches(msg, l.close(m)) {
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

// toLayer hands msg to the top layer, closing it when it is done.
func (m *Model) toLayer(msg tea.Msg) tea.Cmd {
	closed, cmd := m.top().update(m, msg)
	if closed {
		m.layers = m.layers[:len(m.layers)-1]
	}
	return cmd
}

// The layers. Each is a value the stack compares by identity of kind.
type (
	helpLayer     struct{}
	problemsLayer struct{}
	nodesLayer    struct{}
)

func (helpLayer) update(m *Model, msg tea.Msg) (bool, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.helpScreen.Keys.Close) {
		return true, nil
	}
	m.helpScreen, _ = m.helpScreenNow().Update(msg)
	return false, nil
}
func (helpLayer) view(m *Model) string                { return m.helpScreenNow().View() }
func (helpLayer) keys(m *Model) help.KeyMap           { return m.helpScreen.Keys }
func (helpLayer) crumb(m *Model) (string, string)     { return "", "" }
func (problemsLayer) view(m *Model) string            { return m.problems.View() }
func (problemsLayer) keys(m *Model) help.KeyMap       { return m.problems.Keys }
func (problemsLayer) crumb(m *Model) (string, string) { return "", "" }

func (problemsLayer) update(m *Model, msg tea.Msg) (bool, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.problems.Keys.Close) {
		return true, nil
	}
	m.problems, _ = m.problems.Update(msg)
	return false, nil
}

func (nodesLayer) update(m *Model, msg tea.Msg) (bool, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, m.nodes.Keys.Close):
			return true, nil
		case key.Matches(k, m.nodes.Keys.Open):
			// The node's detail in the cycle the view shows.
			name, ok := m.nodes.Selected()
			if i := m.nodesOf; ok && i >= 0 && i < len(m.cycles) {
				m.open(i)
				if m.view.Cycle() == m.cycles[i] {
					m.view.OpenNode(name)
				}
				return true, nil
			}
			return false, nil
		}
	}
	m.nodes, _ = m.nodes.Update(msg)
	return false, nil
}
func (nodesLayer) view(m *Model) string      { return m.nodes.View() }
func (nodesLayer) keys(m *Model) help.KeyMap { return m.nodes.Keys }
func (nodesLayer) crumb(m *Model) (string, string) {
	return m.nodes.Crumb(), m.nodes.Position()
}

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
	c := m.cycles[i]
	m.nodes.SetCycle(c, m.usageAt(i))
	m.nodesOf = i
	m.nodes.SetFilter(filter)
	m.push(nodesLayer{})
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

func (helpLayer) close(m *Model) key.Binding     { return m.helpScreen.Keys.Close }
func (problemsLayer) close(m *Model) key.Binding { return m.problems.Keys.Close }
func (nodesLayer) close(m *Model) key.Binding    { return m.nodes.Keys.Close }

// formLayer is the breakpoints form (b): it takes every key, the session's
// included, as a form's text fields must; done, it applies or drops what
// was edited. m.bp is the form while it is shown.
type formLayer struct{}

func (formLayer) update(m *Model, msg tea.Msg) (bool, tea.Cmd) {
	f, cmd := m.bp.Update(msg)
	m.bp = &f
	done, applied := f.Done()
	if !done {
		return false, cmd
	}
	m.bp = nil
	if applied {
		m.breakpoints = source.Breakpoints(f.Values())
		bp, ctl := m.breakpoints, m.opts.Control
		return true, control(func() { ctl.SetBreakpoints(bp) })
	}
	return true, cmd
}
func (formLayer) view(m *Model) string {
	return strings.Join(append([]string{""}, indent(layout.SplitLines(m.bp.View()), "  ")...), "\n")
}
func (formLayer) keys(m *Model) help.KeyMap       { return m.bp.Keys }
func (formLayer) crumb(m *Model) (string, string) { return "", "" }
func (formLayer) close(m *Model) key.Binding      { return key.NewBinding() }

// fixturesLayer lists the embedded fixtures and what each teaches (the
// session cannot switch fixture: the list says how to open one).
type fixturesLayer struct{}

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
	m.fixtures.SetLines(lines)
	m.fixtures.Top()
	m.push(fixturesLayer{})
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

func (fixturesLayer) update(m *Model, msg tea.Msg) (bool, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, fixturesClose) {
		return true, nil
	}
	m.fixtures, _ = m.fixtures.Update(msg)
	return false, nil
}
func (fixturesLayer) view(m *Model) string {
	head := m.st.Title.Render(fmt.Sprintf("Embedded fixtures (%d)", len(m.opts.Fixtures))) +
		m.st.Dim.Render(" · open one with: kubectl schedscope sim -f NAME")
	return layout.Fit(head, m.w) + "\n\n" + m.fixtures.View()
}
func (fixturesLayer) keys(m *Model) help.KeyMap       { return fixturesKeys{m.fixtures.Keys} }
func (fixturesLayer) crumb(m *Model) (string, string) { return "fixtures", "" }
func (fixturesLayer) close(m *Model) key.Binding      { return fixturesClose }
