package whatif

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
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/components/prompt"
	"github.com/schedscope/schedscope/tui/components/whatifscreen"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// Screen is one what-if screen as the root's stack holds it: the menu,
// the weight and plugin prompts, the evict picker, an edit the scheduler
// refused, the diff of a re-run, suggest's list, a manifest's YAML. Each
// holds its own state; what it needs of the session (a re-run, $EDITOR, a
// cycle opened) it asks for (Ask), and the root hands that to the
// session's Model (Do).
type Screen = whatifscreen.Screen[Ask]

var (
	_ Screen = Menu{}
	_ Screen = Input{}
	_ Screen = Picker{}
	_ Screen = EditError{}
	_ Screen = Diff{}
	_ Screen = Suggest{}
	_ Screen = YAML{}
)

// Ask is what a screen asks of the session after a key: at most one
// thing is set.
type Ask struct {
	// Run re-runs Target's cycle with its changes and Change.
	Run    bool
	Target target
	Change recorder.Change
	// Edit opens $EDITOR on the pod (or node Edit.node), starting from
	// YAML when set (what an earlier what-if edited).
	Edit *editSession
	YAML []byte
	// Retry opens $EDITOR again on an edit the scheduler refused;
	// Cancel drops it.
	Retry, Cancel *editSession
	// Suggest searches changes for Target's cycle.
	Suggest bool
	// Say is a status message.
	Say string
	// Open is a cycle to open in the cycle view; ThenMenu opens the menu
	// on it.
	Open     *recorder.Cycle
	ThenMenu bool
	// Words, set when the diff switched between its table and its words,
	// is what the next diff opens on.
	Words *bool
}

// base holds what every screen draws with.
type base struct {
	st   *theme.Styles
	keys KeyMap
	w, h int
	// words says a diff opens on its words (the last diff's choice).
	words bool
}

// rule is the line over a panel.
func (b base) rule() string { return b.st.Border.Render(strings.Repeat("─", b.w)) }

// Menu is the menu w opens over a cycle: what can change before a re-run.
type Menu struct {
	base
	target target
}

// Update runs the menu's actions.
func (p Menu) Update(msg tea.Msg) (Screen, Ask, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, Ask{}, nil
	}
	k, t := p.keys, p.target
	switch {
	case key.Matches(km, k.Cancel), key.Matches(km, k.Open):
		return nil, Ask{}, nil
	case key.Matches(km, k.EditPod):
		var yaml []byte
		if t.prev != nil {
			yaml = t.prev.podYAML
		}
		return nil, Ask{Edit: &editSession{target: t}, YAML: yaml}, nil
	case key.Matches(km, k.EditNode):
		if t.node == "" {
			return p, Ask{Say: "select a node first: in the filter or score table, or open its detail"}, nil
		}
		var yaml []byte
		if t.prev != nil {
			yaml = t.prev.nodeYAML[t.node]
		}
		return nil, Ask{Edit: &editSession{node: t.node, target: t}, YAML: yaml}, nil
	case key.Matches(km, k.Evict):
		switch {
		case t.node == "":
			return p, Ask{Say: "select a node first: its pods are the ones to evict"}, nil
		case len(t.pods) == 0:
			return p, Ask{Say: fmt.Sprintf("no pod is recorded on %s as this cycle saw it", t.node)}, nil
		}
		return Picker{base: p.base, target: t}, Ask{}, nil
	case key.Matches(km, k.Weight):
		v := ""
		if t.point == "score" && t.plugin != "" {
			v = t.plugin + "="
		}
		in := newInput(p.base, t, inputWeight, v)
		return in, Ask{}, in.input.Focus()
	case key.Matches(km, k.Disable):
		v := ""
		if t.plugin != "" {
			v = t.plugin + ":" + t.point
		}
		in := newInput(p.base, t, inputDisable, v)
		return in, Ask{}, in.input.Focus()
	case key.Matches(km, k.Suggest):
		return nil, Ask{Suggest: true, Target: t}, nil
	case key.Matches(km, k.Diff):
		if t.prev == nil {
			return p, Ask{Say: fmt.Sprintf("cycle %d is not a what-if: nothing to compare it with", t.seq)}, nil
		}
		return newDiff(p.base, t.prev, p.words), Ask{}, nil
	}
	return p, Ask{}, nil
}

// View draws the menu's panel.
func (p Menu) View() string {
	st, t, k, w := p.st, p.target, p.keys, p.w
	title := fmt.Sprintf("what-if on cycle %d", t.seq)
	if t.prev != nil {
		title = fmt.Sprintf("what-if on %s (adds to: %s)", t.prev.label, joinChanges(t.base))
	}
	panel := []string{p.rule(), st.Title.Render(layout.Fit(title, w))}
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
	return strings.Join(panel, "\n")
}

// Over implements Screen: the menu is drawn over the panes.
func (Menu) Over() bool { return true }

// SetSize implements Screen.
func (p Menu) SetSize(w, h int) Screen { p.w, p.h = w, h; return p }

// Keys implements Screen.
func (p Menu) Keys() help.KeyMap { return whatifscreen.MenuHelp{Keys: p.keys.KeyMap} }

// Crumb implements Screen.
func (Menu) Crumb() string { return "what-if" }

// inputKind is what the one-line prompt sets.
type inputKind uint8

const (
	inputWeight inputKind = iota + 1
	inputDisable
)

// Input is the weight or plugin prompt the menu opens.
type Input struct {
	base
	target target
	input  textinput.Model
	kind   inputKind
	err    string
}

func newInput(b base, t target, kind inputKind, value string) Input {
	in := Input{base: b, target: t, input: prompt.NewTextInput(b.st), kind: kind}
	in.input.Prompt = "weight PLUGIN=N: "
	in.input.Placeholder = "e.g. NodeResourcesBalancedAllocation=5"
	if kind == inputDisable {
		in.input.Prompt = "disable PLUGIN[:POINT]: "
		in.input.Placeholder = "e.g. NodeResourcesFit:score (no point: everywhere)"
	}
	in.input.SetWidth(max(b.w-len(in.input.Prompt)-2, 10))
	in.input.SetValue(value)
	in.input.CursorEnd()
	return in
}

// Value is the prompt's text.
func (p Input) Value() string { return p.input.Value() }

// Update edits the prompt; enter parses and asks for the re-run, esc goes
// back to the menu.
func (p Input) Update(msg tea.Msg) (Screen, Ask, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, Ask{}, nil
	}
	switch km.String() {
	case "esc":
		p.input.Blur()
		return Menu{base: p.base, target: p.target}, Ask{}, nil
	case "enter":
		ch, err := parseInput(p.kind, p.input.Value())
		if err != nil {
			p.err = err.Error()
			return p, Ask{}, nil
		}
		return nil, Ask{Run: true, Target: p.target, Change: ch}, nil
	}
	p.err = ""
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return p, Ask{}, cmd
}

// View draws the prompt's panel.
func (p Input) View() string {
	st := p.st
	panel := []string{p.rule(), st.Title.Render(fmt.Sprintf("what-if on cycle %d", p.target.seq)), p.input.View()}
	if p.err != "" {
		panel = append(panel, st.Problem.Render(layout.Fit(p.err, p.w)))
	}
	return strings.Join(panel, "\n")
}

// Over implements Screen.
func (Input) Over() bool { return true }

// SetSize implements Screen.
func (p Input) SetSize(w, h int) Screen {
	p.w, p.h = w, h
	p.input.SetWidth(max(w-len(p.input.Prompt)-2, 10))
	return p
}

// Keys implements Screen.
func (p Input) Keys() help.KeyMap {
	return whatifscreen.InputHelp{Keys: p.keys.KeyMap, Run: "re-run", Back: "cancel"}
}

// Crumb implements Screen.
func (Input) Crumb() string { return "what-if" }

// parseInput reads "PLUGIN=N" (a weight) or "PLUGIN[:POINT]" (a plugin to
// disable), as the whatif command's flags do.
func parseInput(kind inputKind, s string) (recorder.Change, error) {
	if kind == inputWeight {
		w, err := recorder.ParseSetWeight(s)
		if err != nil {
			return nil, err
		}
		return w, nil
	}
	d, err := recorder.ParseDisable(s)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Picker picks the pod of the node to evict.
type Picker struct {
	base
	target target
	pick   int
}

// Update moves the cursor; enter asks for the re-run without the pod.
func (p Picker) Update(msg tea.Msg) (Screen, Ask, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, Ask{}, nil
	}
	k := p.keys
	switch {
	case key.Matches(km, k.Cancel):
		return Menu{base: p.base, target: p.target}, Ask{}, nil
	case key.Matches(km, k.Up):
		p.pick = max(p.pick-1, 0)
	case key.Matches(km, k.Down):
		p.pick = min(p.pick+1, len(p.target.pods)-1)
	case key.Matches(km, k.Choose):
		if p.pick >= 0 && p.pick < len(p.target.pods) {
			ch := recorder.Evict{Pods: []string{p.target.pods[p.pick].Key()}}
			return nil, Ask{Run: true, Target: p.target, Change: ch}, nil
		}
	}
	return p, Ask{}, nil
}

// View draws the node's pods.
func (p Picker) View() string {
	st, t := p.st, p.target
	lines := []string{st.Title.Render("evict a pod from "+t.node) + st.Dim.Render(fmt.Sprintf(" · then re-run cycle %d", t.seq)), ""}
	for i, pod := range t.pods {
		row := fmt.Sprintf("%s (priority %d)", pod.Key(), pod.Priority)
		if i == p.pick {
			lines = append(lines, st.Selected.Render("▸ "+layout.Fit(row, p.w-2)))
			continue
		}
		lines = append(lines, "  "+row)
	}
	return strings.Join(lines, "\n")
}

// Over implements Screen.
func (Picker) Over() bool { return false }

// SetSize implements Screen.
func (p Picker) SetSize(w, h int) Screen { p.w, p.h = w, h; return p }

// Keys implements Screen.
func (p Picker) Keys() help.KeyMap {
	return whatifscreen.ListHelp{Keys: p.keys.KeyMap, What: "evict it"}
}

// Crumb implements Screen.
func (Picker) Crumb() string { return "what-if › evict" }

// EditError is an edit the scheduler refused: edit again or cancel.
type EditError struct {
	base
	edit *editSession
	err  string
}

// Update asks for $EDITOR again (e) or drops the edit (esc).
func (p EditError) Update(msg tea.Msg) (Screen, Ask, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, Ask{}, nil
	}
	switch {
	case key.Matches(km, p.keys.Retry):
		return nil, Ask{Retry: p.edit}, nil
	case key.Matches(km, p.keys.Cancel):
		return nil, Ask{Cancel: p.edit}, nil
	}
	return p, Ask{}, nil
}

// View draws why the edit was refused.
func (p EditError) View() string {
	st, k, w := p.st, p.keys, p.w
	panel := []string{p.rule(), st.Problem.Render(layout.Fit("the edit could not be applied:", w))}
	for _, l := range layout.Wrap(p.err, w-2, "  ") {
		panel = append(panel, "  "+l)
	}
	panel = append(panel, st.Dim.Render("  "+k.Retry.Help().Key+" edits the file again (your text is kept) · "+k.Cancel.Help().Key+" cancels"))
	return strings.Join(panel, "\n")
}

// Over implements Screen.
func (EditError) Over() bool { return true }

// SetSize implements Screen.
func (p EditError) SetSize(w, h int) Screen { p.w, p.h = w, h; return p }

// Keys implements Screen.
func (p EditError) Keys() help.KeyMap { return errorKeys{p.keys} }

// Crumb implements Screen.
func (EditError) Crumb() string { return "what-if" }

// Diff shows a re-run beside the cycle it changed.
type Diff struct {
	base
	run  *run
	diff diffview.Model
}

func newDiff(b base, r *run, words bool) Diff {
	d := Diff{base: b, run: r, diff: diffview.New(b.st)}
	d.diff.SetSize(b.w, b.h)
	d.diff.SetWords(words)
	res := r.res
	d.diff.SetRun(diffview.Run{Label: r.label, Seq: res.Seq, Before: res.Before, After: res.After, Later: res.Later,
		Diff: res.Diff, Changes: res.Changes, Landing: res.Landing, Note: res.Note})
	return d
}

// View is the diff view.
func (p Diff) View() string { return p.diff.View() }

// Model is the diff view the screen shows.
func (p Diff) Model() diffview.Model { return p.diff }

// Update handles the diff view's keys: enter and b open the re-run and
// the original, w opens the re-run and the menu on it.
func (p Diff) Update(msg tea.Msg) (Screen, Ask, tea.Cmd) {
	k, r := p.keys, p.run
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		p.diff, _ = p.diff.Update(wheelKey(k, msg))
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Cancel):
			return nil, Ask{}, nil
		case key.Matches(msg, k.Choose):
			return nil, Ask{Open: r.cycle}, nil
		case key.Matches(msg, k.Before):
			return nil, Ask{Open: r.orig}, nil
		case key.Matches(msg, k.Open):
			return nil, Ask{Open: r.cycle, ThenMenu: true}, nil
		}
		was := p.diff.Words()
		if p.diff, _ = p.diff.Update(msg); p.diff.Words() != was {
			words := p.diff.Words()
			return p, Ask{Words: &words}, nil
		}
	}
	return p, Ask{}, nil
}

// Over implements Screen.
func (Diff) Over() bool { return false }

// SetSize implements Screen.
func (p Diff) SetSize(w, h int) Screen { p.w, p.h = w, h; p.diff.SetSize(w, h); return p }

// Keys implements Screen.
func (p Diff) Keys() help.KeyMap { return diffKeys{p.keys, p.diff.Keys} }

// Crumb implements Screen.
func (p Diff) Crumb() string { return "what-if " + p.run.label }

// wheelKey is the key the mouse wheel stands for in a list.
func wheelKey(k KeyMap, msg tea.MouseWheelMsg) tea.KeyPressMsg {
	b := k.Down
	if msg.Button == tea.MouseWheelUp {
		b = k.Up
	}
	return tea.KeyPressMsg{Code: []rune(b.Keys()[0])[0], Text: b.Keys()[0]}
}

// Suggest is suggest's list of changes, each verified by a re-run.
type Suggest struct {
	base
	view SuggestView
}

// Update moves in the list; enter asks for the change's re-run.
func (p Suggest) Update(msg tea.Msg) (Screen, Ask, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		p.view, _ = p.view.Update(wheelKey(p.keys, msg))
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, p.keys.Cancel):
			return nil, Ask{}, nil
		case key.Matches(msg, p.keys.Choose):
			if s, ok := p.view.Selected(); ok {
				return nil, Ask{Run: true, Target: p.view.Target(), Change: s.Change}, nil
			}
		default:
			p.view, _ = p.view.Update(msg)
		}
	}
	return p, Ask{}, nil
}

// View is the list.
func (p Suggest) View() string { return p.view.View() }

// Over implements Screen.
func (Suggest) Over() bool { return false }

// SetSize implements Screen.
func (p Suggest) SetSize(w, h int) Screen { p.w, p.h = w, h; p.view.SetSize(w, h); return p }

// Keys implements Screen.
func (p Suggest) Keys() help.KeyMap {
	if _, ok := p.view.Selected(); !ok {
		return errorKeys{p.keys}.cancelOnly()
	}
	return whatifscreen.ListHelp{Keys: p.keys.KeyMap, What: "open as what-if"}
}

// Crumb implements Screen.
func (Suggest) Crumb() string { return "suggest" }

// YAML shows a manifest read-only.
type YAML struct {
	base
	title string
	pager pager.Model
}

func newYAML(b base, title string, lines []string) YAML {
	y := YAML{base: b, title: title, pager: pager.New()}
	y.pager.SetHeight(max(b.h-2, 1))
	y.pager.SetLines(lines)
	y.pager.Top()
	return y
}

// Update scrolls; esc closes.
func (p YAML) Update(msg tea.Msg) (Screen, Ask, tea.Cmd) {
	if km, ok := msg.(tea.KeyPressMsg); ok && key.Matches(km, p.keys.Cancel) {
		return nil, Ask{}, nil
	}
	switch msg.(type) {
	case tea.KeyPressMsg, tea.MouseWheelMsg:
		p.pager, _ = p.pager.Update(msg)
	}
	return p, Ask{}, nil
}

// View draws the title and the manifest.
func (p YAML) View() string {
	head := p.st.Title.Render("YAML") + p.st.Dim.Render(" · "+p.title+" · what the scheduler reads, read-only")
	return layout.Fit(head, p.w) + "\n\n" + p.pager.View()
}

// Over implements Screen.
func (YAML) Over() bool { return false }

// SetSize implements Screen.
func (p YAML) SetSize(w, h int) Screen { p.w, p.h = w, h; p.pager.SetHeight(max(h-2, 1)); return p }

// Keys implements Screen.
func (p YAML) Keys() help.KeyMap { return yamlKeys{p.keys} }

// Crumb implements Screen.
func (p YAML) Crumb() string { return p.title }
