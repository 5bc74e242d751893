package keyhint

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/theme"
)

type keys struct{ PrevPhase, NextPhase, Sort, Show, Explain key.Binding }

func testKeys() keys {
	return keys{
		PrevPhase: key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "prev phase")),
		NextPhase: key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next phase")),
		Sort:      key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sort nodes")),
		Show:      key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "show by status")),
		Explain:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "explain")),
	}
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func TestPair(t *testing.T) {
	k := testKeys()
	p := Pair(k.PrevPhase, k.NextPhase, "phases")
	if got, want := p.Help(), (key.Help{Key: "←/→", Desc: "phases"}); got != want {
		t.Errorf("pair help = %+v, want %+v", got, want)
	}
	for _, name := range []string{"left", "h", "right", "l"} {
		if !key.Matches(press(name), p) {
			t.Errorf("pair does not match %s", name)
		}
	}
	k.PrevPhase.SetEnabled(false)
	if !Pair(k.PrevPhase, k.NextPhase, "phases").Enabled() {
		t.Error("a pair with one side enabled should be enabled")
	}
	k.NextPhase.SetEnabled(false)
	if Pair(k.PrevPhase, k.NextPhase, "phases").Enabled() {
		t.Error("a pair with both sides disabled should be disabled")
	}
}

func TestHintLine(t *testing.T) {
	st := theme.New(true)
	k := testKeys()
	k.Show.SetEnabled(false)
	got := ansi.Strip(Line(&st, Brief(k.Sort, "sort"), Brief(k.Show, "show"), k.Explain))
	if want := "o sort · e explain"; got != want {
		t.Errorf("hintLine = %q, want %q (a disabled key is left out)", got, want)
	}
}
