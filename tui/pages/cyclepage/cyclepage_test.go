package cyclepage

import (
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/theme"
)

// open shows cycle 1 of the default fixture on phase p, w×h.
func open(t *testing.T, w, h int, p Phase) Model {
	t.Helper()
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "testdata", "default.rec"))
	if err != nil {
		t.Fatal(err)
	}
	st := theme.New(true)
	v := New(&st)
	v.SetHeader(&rec.Header)
	v.SetSize(w, h)
	v.OpenCycle(rec.Cycles, 0)
	v.SetPhase(p)
	return v
}

// TestCycleHintFollowsBindings rebinds keys and checks the hint under the
// cycle view names the new keys: hints are generated, not written out.
func TestCycleHintFollowsBindings(t *testing.T) {
	v := open(t, 120, 30, Filter)
	v.nodes.Keys.Sort = key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "sort nodes"))
	v.explain.Keys.Toggle = key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "explain"))
	hint := ansi.Strip(v.hint())
	for _, want := range []string{"S sort", "f show", "x explain"} {
		if !strings.Contains(hint, want) {
			t.Errorf("filter hint %q lacks %q", hint, want)
		}
	}
	if strings.Contains(hint, "o sort") || strings.Contains(hint, "e explain") {
		t.Errorf("filter hint %q still names the old keys", hint)
	}
	v.SetPhase(Score)
	if hint := ansi.Strip(v.hint()); strings.Contains(hint, "f show") {
		t.Errorf("score hint %q offers f, which only acts in Filter", hint)
	}
}

// TestNodeDetailHint checks the node detail's title and the hint under it
// come from its key map.
func TestNodeDetailHint(t *testing.T) {
	v := open(t, 80, 24, Filter)
	v, _ = v.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if v.detail == nil {
		t.Fatal("enter should open the node detail")
	}
	v.detail.Keys.Back = key.NewBinding(key.WithKeys("backspace"), key.WithHelp("bksp", "back"))
	s := ansi.Strip(v.View())
	for _, want := range []string{"in the snapshot) · bksp back", "node detail · bksp back · ↑/↓ scroll"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

func pressKey(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func TestKeyMapHelp(t *testing.T) {
	k := DefaultKeyMap()
	listed := map[key.Help]bool{}
	for _, col := range k.FullHelp() {
		for _, b := range col {
			listed[b.Help()] = true
		}
	}
	for name, b := range map[string]key.Binding{"PrevPhase": k.PrevPhase, "NextPhase": k.NextPhase, "Up": k.Up, "Down": k.Down, "Top": k.Top, "Bottom": k.Bottom,
		"PageUp": k.PageUp, "PageDown": k.PageDown, "Detail": k.Detail, "NextFailure": k.NextFailure, "PrevFailure": k.PrevFailure, "Filter": k.Filter, "Back": k.Back} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
	// The view's own help joins its children's: the node phases' and the
	// explain panel's keys are in it.
	v := open(t, 80, 24, Filter)
	var short []string
	for _, b := range v.ShortHelp() {
		short = append(short, b.Help().Key)
	}
	if got, want := strings.Join(short, " "), "←/h →/l enter tab d e"; got != want {
		t.Errorf("ShortHelp keys %q, want %q", got, want)
	}
}

func TestUpdatePhases(t *testing.T) {
	v := open(t, 80, 24, Queue)
	v, _ = v.Update(pressKey("h"))
	if v.Phase() != Queue {
		t.Errorf("h on Queue moved to %v", v.Phase())
	}
	for _, k := range []string{"l", "right"} {
		before := v.Phase()
		v, _ = v.Update(pressKey(k))
		if v.Phase() != before+1 {
			t.Errorf("%s: %v, want %v", k, v.Phase(), before+1)
		}
	}
	v, _ = v.Update(pressKey("left"))
	if v.Phase() != PreFilter {
		t.Errorf("left: %v, want PreFilter", v.Phase())
	}
}

// TestRouting: a key goes to the child on screen: j scrolls text in Queue
// and moves the node in Filter; enter opens a node's detail, which Back
// closes before anything else.
func TestRouting(t *testing.T) {
	v := open(t, 80, 24, Filter)
	n0, _ := v.Selected()
	v, _ = v.Update(pressKey("j"))
	if n1, _ := v.Selected(); n1 == n0 {
		t.Error("j in Filter did not move the node")
	}
	v, _ = v.Update(pressKey("tab"))
	if v.SelectedPlugin() == "NodeName" {
		t.Error("tab did not move the plugin column")
	}
	v, _ = v.Update(pressKey("enter"))
	name, ok := v.DetailNode()
	if !ok || name != v.Cycle().NodeName(mustSelected(t, v)) {
		t.Fatalf("enter opened %q (%v)", name, ok)
	}
	if !v.Back() {
		t.Fatal("Back should close the detail")
	}
	if _, ok := v.DetailNode(); ok {
		t.Error("the detail is still open")
	}
	v.SetNodeFilter("node-b")
	if !v.Back() || v.NodeFilter() != "" {
		t.Error("Back should then clear the name filter")
	}
	if v.Back() {
		t.Error("with nothing open, Back should report false (the root then leaves the view)")
	}
}

func mustSelected(t *testing.T, v Model) int {
	t.Helper()
	n, ok := v.Selected()
	if !ok {
		t.Fatal("no node selected")
	}
	return n
}

// The phases are narrate's steps, in its order and with its names.
func TestPhasesAreNarratesSteps(t *testing.T) {
	steps := narrate.Steps()
	if int(NumPhases) != len(steps) {
		t.Fatalf("%d phases, narrate has %d steps", NumPhases, len(steps))
	}
	for p, want := range map[Phase]string{Queue: narrate.PhaseQueue, Filter: recorder.PhaseFilter, Normalize: recorder.PhaseNormalize,
		Weighted: narrate.PhaseWeighted, Select: narrate.PhaseSelect, PostBind: recorder.PhasePostBind} {
		if p.String() != want {
			t.Errorf("phase %d is %q, want %q", p, p.String(), want)
		}
	}
}
