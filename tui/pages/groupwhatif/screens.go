package groupwhatif

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/components/prompt"
	"github.com/schedscope/schedscope/tui/components/whatifscreen"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// Screen is one screen of a group's what-if as the root's stack holds it
// (the menu, a prompt, the before/after, suggest's list), asking the
// session for an Ask.
type Screen = whatifscreen.Screen[Ask]

var (
	_ Screen = Menu{}
	_ Screen = Input{}
	_ Screen = Compare{}
	_ Screen = Suggest{}
)

// Ask is what a screen asks of the session after a key: at most one
// thing is set.
type Ask struct {
	// Run runs the fixture with Target's changes and one more: Change,
	// or the one Flag and Value make (Source.Change).
	Run         bool
	Target      target
	Flag, Value string
	Change      recorder.Change
	// Suggest searches changes for Target's group.
	Suggest bool
	Say     string
}

// base holds what every screen draws with.
type base struct {
	st   *theme.Styles
	keys KeyMap
	w, h int
}

func (b base) rule() string { return b.st.Border.Render(strings.Repeat("─", max(b.w, 0))) }

// title names the what-if: its group, and the changes it adds to.
func (t target) title() string {
	s := "what-if on pod group " + t.group.Key()
	if len(t.base) > 0 {
		s += " (adds to: " + joinChanges(t.base) + ")"
	}
	return s
}

// Menu is the menu w opens on the pod-group page.
type Menu struct {
	base
	target target
}

// Update runs the menu's actions: each opens its prompt.
func (p Menu) Update(msg tea.Msg) (Screen, Ask, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, Ask{}, nil
	}
	k, t := p.keys, p.target
	open := func(flag, value string) (Screen, Ask, tea.Cmd) {
		in := newInput(p.base, t, flag, value)
		return in, Ask{}, in.input.Focus()
	}
	switch {
	case key.Matches(km, k.Cancel), key.Matches(km, k.Open):
		return nil, Ask{}, nil
	case key.Matches(km, k.MinCount):
		if t.cycle.Policy != recorder.PolicyGang {
			return p, Ask{Say: "pod group " + t.group.Key() + " is not a gang: it has no minCount"}, nil
		}
		return open("min-count", fmt.Sprint(lowerMinCount(t.cycle)))
	case key.Matches(km, k.Requests):
		v := t.member
		if t.requests != "" {
			v += " " + t.requests
		}
		return open("requests", v)
	case key.Matches(km, k.CopyNode):
		return open("copy-node", firstNode(t))
	case key.Matches(km, k.Evict):
		return open("evict", "")
	case key.Matches(km, k.Weight):
		return open("set-weight", "")
	case key.Matches(km, k.Disable):
		return open("disable", "")
	case key.Matches(km, k.Flags):
		return open("", "--")
	case key.Matches(km, k.Suggest):
		return nil, Ask{Suggest: true, Target: t}, nil
	}
	return p, Ask{}, nil
}

// lowerMinCount is the minCount the prompt offers: the members the cycle
// placed, when fewer than minCount, else one less.
func lowerMinCount(g *recorder.PodGroupCycle) int32 {
	if n := int32(g.Placed()); n > 0 && n < g.MinCount {
		return n
	}
	return max(g.MinCount-1, 1)
}

// firstNode is the node the copy prompt offers: one a member was placed
// on, else the first the members saw.
func firstNode(t target) string {
	for _, m := range t.cycle.Members {
		if m.Node != "" {
			return m.Node
		}
	}
	if len(t.nodes) > 0 {
		return t.nodes[0]
	}
	return ""
}

// View draws the menu's panel.
func (p Menu) View() string {
	st, t, k, w := p.st, p.target, p.keys, p.w
	panel := []string{p.rule(), st.Title.Render(layout.Fit(t.title(), w))}
	item := func(b key.Binding, text string, ok bool) {
		line := "  " + st.Key.Render(layout.Fit(b.Help().Key, 4)) + " " + text
		if !ok {
			line = "  " + st.Dim.Render(layout.Fit(b.Help().Key, 4)+" "+text)
		}
		panel = append(panel, layout.Fit(line, w))
	}
	g := t.cycle
	mc := "set the gang's minCount"
	if g.Policy == recorder.PolicyGang {
		mc += fmt.Sprintf(" (now %d; its cycle placed %d)", g.MinCount, g.Placed())
	} else {
		mc += " (not a gang)"
	}
	item(k.MinCount, mc, g.Policy == recorder.PolicyGang)
	member := "a member"
	if t.member != "" {
		member = t.member
	}
	req := "change " + member + "'s requests"
	if t.requests != "" {
		req += " (now " + t.requests + ")"
	}
	item(k.Requests, req, true)
	item(k.CopyNode, "add an empty node like one of the cluster's", true)
	item(k.Evict, "evict a placed pod before the run", true)
	item(k.Weight, "set a score plugin's weight", true)
	item(k.Disable, "disable a plugin", true)
	item(k.Flags, "any change whatif --pod-group takes, as its flags", true)
	item(k.Suggest, "suggest changes that let the group bind", g.Outcome.Result != recorder.ResultBound)
	panel = append(panel, st.Dim.Render(layout.Fit("  each runs the fixture twice, as it is and changed, with the real scheduler", w)))
	return strings.Join(panel, "\n")
}

func (Menu) Over() bool                { return true }
func (p Menu) SetSize(w, h int) Screen { p.w, p.h = w, h; return p }
func (p Menu) Keys() help.KeyMap       { return whatifscreen.MenuHelp{Keys: p.keys.KeyMap} }
func (Menu) Crumb() string             { return "group what-if" }

// prompts are each prompt's words: what to type, an example.
var prompts = map[string][2]string{
	"min-count":  {"minCount N: ", "e.g. 2"},
	"requests":   {"requests MEMBER RESOURCE=QUANTITY…: ", "e.g. infer-2 cpu=800m"},
	"copy-node":  {"copy NODE[=NAME]: ", "e.g. s1 (named s1-copy)"},
	"evict":      {"evict NAMESPACE/NAME: ", "e.g. default/web-0"},
	"set-weight": {"weight PLUGIN=N: ", "e.g. NodeResourcesFit=5"},
	"disable":    {"disable PLUGIN[:POINT]: ", "e.g. NodeResourcesFit:score"},
	"":           {"whatif flags: ", "e.g. --remove-node s2"},
}

// Input is a prompt the menu opens.
type Input struct {
	base
	target target
	flag   string
	input  textinput.Model
	err    string
}

func newInput(b base, t target, flag, value string) Input {
	in := Input{base: b, target: t, flag: flag, input: prompt.NewTextInput(b.st)}
	words := prompts[flag]
	in.input.Prompt, in.input.Placeholder = words[0], words[1]
	in.input.SetWidth(max(b.w-len(in.input.Prompt)-2, 10))
	in.input.SetValue(value)
	in.input.CursorEnd()
	return in
}

// Value is the prompt's text.
func (p Input) Value() string { return p.input.Value() }

// Update edits the prompt; enter asks for the run, esc goes back to the
// menu.
func (p Input) Update(msg tea.Msg) (Screen, Ask, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmd tea.Cmd
		p.input, cmd = p.input.Update(msg)
		return p, Ask{}, cmd
	}
	switch km.String() {
	case "esc":
		p.input.Blur()
		return Menu{base: p.base, target: p.target}, Ask{}, nil
	case "enter":
		v := strings.TrimSpace(p.input.Value())
		if v == "" || v == "--" {
			p.err = "type a value first (" + p.input.Placeholder + ")"
			return p, Ask{}, nil
		}
		return nil, Ask{Run: true, Target: p.target, Flag: p.flag, Value: v}, nil
	}
	p.err = ""
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return p, Ask{}, cmd
}

// View draws the prompt's panel.
func (p Input) View() string {
	st := p.st
	panel := []string{p.rule(), st.Title.Render(layout.Fit(p.target.title(), p.w)), p.input.View()}
	if p.err != "" {
		for _, l := range wrap(p.err, p.w, "  ") {
			panel = append(panel, st.Problem.Render(layout.Fit(l, p.w)))
		}
	}
	return strings.Join(panel, "\n")
}

func (Input) Over() bool { return true }
func (p Input) SetSize(w, h int) Screen {
	p.w, p.h = w, h
	p.input.SetWidth(max(w-len(p.input.Prompt)-2, 10))
	return p
}
func (p Input) Keys() help.KeyMap {
	return whatifscreen.InputHelp{Keys: p.keys.KeyMap, Run: "run", Back: "back to the menu"}
}
func (Input) Crumb() string { return "group what-if" }

func joinChanges(cs []recorder.Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, narrate.Change(c))
	}
	return strings.Join(out, ", ")
}

// wrap breaks text into lines of at most w cells, at spaces where it can
// and inside a word longer than a line (a command's patch, a condition's
// name), so that nothing is cut.
func wrap(s string, w int, indent string) []string {
	var out []string
	for _, l := range layout.Wrap(s, w, indent) {
		for ansi.StringWidth(l) > w && w > len(indent)+4 {
			out = append(out, ansi.Cut(l, 0, w))
			l = indent + ansi.Cut(l, w, ansi.StringWidth(l))
		}
		out = append(out, l)
	}
	return out
}
