package cyclepage

import (
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
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
