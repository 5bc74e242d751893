package prompt

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/tui/theme"
)

func press(k string) tea.KeyPressMsg {
	if k == "tab" {
		return tea.KeyPressMsg{Code: tea.KeyTab}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func typeText(m Model, s string) Model {
	for _, r := range s {
		m, _ = m.Update(press(string(r)))
	}
	return m
}

var commands = []string{"cycle ", "help", "phase filter", "phase permit", "phase prefilter", "quit"}

func newPrompt(w int, r Request) Model {
	st := theme.New(true)
	m := New(&st)
	m.SetWidth(w)
	m.Open(r)
	return m
}

func TestHelpListsEveryBinding(t *testing.T) {
	k := DefaultKeyMap()
	listed := map[key.Help]bool{}
	for _, col := range k.FullHelp() {
		for _, b := range col {
			listed[b.Help()] = true
		}
	}
	for name, b := range map[string]key.Binding{"Accept": k.Accept, "Cancel": k.Cancel, "Complete": k.Complete} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
}

func TestOpenAndClose(t *testing.T) {
	m := newPrompt(40, Request{Prefix: "/", Value: "web"})
	if !m.Active() || m.Value() != "web" || m.Original() != "web" {
		t.Fatalf("opened: active %v value %q original %q", m.Active(), m.Value(), m.Original())
	}
	m = typeText(m, "x")
	if m.Value() != "webx" || m.Original() != "web" {
		t.Errorf("after typing: value %q original %q", m.Value(), m.Original())
	}
	if got := ansi.Strip(m.View()); !strings.HasPrefix(got, "/webx") {
		t.Errorf("View %q does not start with the prefix and the text", got)
	}
	m.Close()
	if m.Active() {
		t.Error("closed prompt is still active")
	}
}

func TestComplete(t *testing.T) {
	tests := []struct {
		typed      string
		wantValue  string
		candidates []string
	}{
		{"he", "help", nil},
		{"ph", "phase ", []string{"filter", "permit", "prefilter"}},
		{"phase p", "phase p", []string{"permit", "prefilter"}},
		{"phase pr", "phase prefilter", nil},
		{"zz", "zz", nil},
	}
	for _, tc := range tests {
		t.Run(tc.typed, func(t *testing.T) {
			m := typeText(newPrompt(80, Request{Prefix: ":", Completions: commands}), tc.typed)
			m, _ = m.Update(press("tab"))
			if m.Value() != tc.wantValue {
				t.Errorf("value %q, want %q", m.Value(), tc.wantValue)
			}
			if diff := cmp.Diff(tc.candidates, m.Candidates()); diff != "" {
				t.Errorf("candidates (-want +got):\n%s", diff)
			}
			if len(tc.candidates) > 0 && !strings.Contains(ansi.Strip(m.View()), strings.Join(tc.candidates, " ")) {
				t.Errorf("View does not list the candidates: %q", ansi.Strip(m.View()))
			}
			if m = typeText(m, "x"); m.Candidates() != nil {
				t.Errorf("typing on should hide the candidates, got %v", m.Candidates())
			}
		})
	}
}

// TestNoCompletionInAFilter: without completions, tab does not complete.
func TestNoCompletionInAFilter(t *testing.T) {
	m := typeText(newPrompt(80, Request{Prefix: "/"}), "ph")
	m, _ = m.Update(press("tab"))
	if m.Value() != "ph" || m.Candidates() != nil {
		t.Errorf("tab in a filter: value %q candidates %v", m.Value(), m.Candidates())
	}
}

// TestPlaceholderFits: the prompt shows the longest placeholder that fits.
func TestPlaceholderFits(t *testing.T) {
	r := Request{Prefix: ":", Placeholders: []string{"a long placeholder that says everything", "short one"}}
	if got := ansi.Strip(newPrompt(80, r).View()); !strings.Contains(got, "says everything") {
		t.Errorf("80 wide: %q", got)
	}
	if got := ansi.Strip(newPrompt(20, r).View()); !strings.Contains(got, "short one") || strings.Contains(got, "says") {
		t.Errorf("20 wide: %q", got)
	}
}
