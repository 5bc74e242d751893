package explain

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/theme"
)

func newPanel(beside bool) Model {
	st := theme.New(true)
	m := New(&st)
	m.SetBeside(beside)
	return m
}

var toggle = tea.KeyPressMsg{Code: 'e', Text: "e"}

func TestHelpListsEveryBinding(t *testing.T) {
	k := DefaultKeyMap()
	listed := map[key.Help]bool{}
	for _, col := range k.FullHelp() {
		for _, b := range col {
			listed[b.Help()] = true
		}
	}
	for name, b := range map[string]key.Binding{"Toggle": k.Toggle, "Close": k.Close} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
}

// TestShown: the panel shows itself where it has room beside, until the
// user says otherwise.
func TestShown(t *testing.T) {
	tests := []struct {
		name        string
		beside      bool
		toggles     int
		shown, covs bool
	}{
		{"room beside: shown", true, 0, true, false},
		{"no room: hidden", false, 0, false, false},
		{"room beside, e: hidden", true, 1, false, false},
		{"no room, e: shown over", false, 1, true, true},
		{"no room, e e: hidden", false, 2, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newPanel(tc.beside)
			for range tc.toggles {
				m, _ = m.Update(toggle)
			}
			if m.Shown() != tc.shown || m.Covers() != tc.covs {
				t.Errorf("Shown %v Covers %v, want %v %v", m.Shown(), m.Covers(), tc.shown, tc.covs)
			}
		})
	}
}

// TestChoiceOutlivesResize: once the user hid the panel, room beside does
// not bring it back.
func TestChoiceOutlivesResize(t *testing.T) {
	m := newPanel(true)
	m, _ = m.Update(toggle)
	m.SetBeside(false)
	m.SetBeside(true)
	if m.Shown() {
		t.Error("the panel came back after the user hid it")
	}
}

func TestClose(t *testing.T) {
	m := newPanel(true)
	if m.Close() || !m.Shown() {
		t.Error("Close should leave a panel beside the body alone")
	}
	m = newPanel(false)
	m, _ = m.Update(toggle)
	if !m.Close() || m.Shown() {
		t.Error("Close should hide a panel over the body")
	}
	if m.Close() {
		t.Error("Close with nothing shown should report false")
	}
}

func TestView(t *testing.T) {
	m := newPanel(true)
	m.SetSize(40, 12)
	m.SetTopic(Topic{Phase: "Filter", PhaseDoc: "Filter decides which nodes can run the pod.", Plugin: "TaintToleration"})
	got := strings.Split(ansi.Strip(m.View()), "\n")
	if len(got) != 12 {
		t.Fatalf("%d lines, want 12", len(got))
	}
	for _, l := range got {
		if w := ansi.StringWidth(l); w != 40 {
			t.Errorf("line %q is %d cells, want 40", l, w)
		}
	}
	text := strings.Join(got, "\n")
	for _, want := range []string{"Explain · Filter", "TaintToleration", "older articles: predicate"} {
		if !strings.Contains(text, want) {
			t.Errorf("panel lacks %q:\n%s", want, text)
		}
	}
	m.SetTopic(Topic{Phase: "Filter", Plugin: "example.com/Custom"})
	if text := ansi.Strip(m.View()); !strings.Contains(text, "out-of-tree plugin") {
		t.Errorf("an unknown plugin should be called out-of-tree:\n%s", text)
	}
}

func TestPluginDocs(t *testing.T) {
	if d, ok := PluginDocs("NodeResourcesFit"); !ok || !strings.Contains(d.Legacy, "PodFitsResources") {
		t.Errorf("NodeResourcesFit: %+v %v", d, ok)
	}
	if _, ok := PluginDocs("NoSuchPlugin"); ok {
		t.Error("an unknown plugin has docs")
	}
}
