package breakpoints

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/theme"
)

func press(k string) tea.KeyPressMsg {
	switch k {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func form(v Values, ks ...string) Model {
	st := theme.New(true)
	f := New(&st, v)
	for _, k := range ks {
		f, _ = f.Update(press(k))
	}
	return f
}

func TestHelpListsEveryBinding(t *testing.T) {
	k := DefaultKeyMap()
	listed := map[key.Help]bool{}
	for _, col := range k.FullHelp() {
		for _, b := range col {
			listed[b.Help()] = true
		}
	}
	for name, b := range map[string]key.Binding{"Next": k.Next, "Prev": k.Prev, "Toggle": k.Toggle, "Apply": k.Apply, "Cancel": k.Cancel} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
}

func TestUpdate(t *testing.T) {
	tests := []struct {
		name          string
		keys          []string
		want          Values
		done, applied bool
	}{
		{"typing sets the pod pattern", []string{"w", "e", "b", "enter"}, Values{Pod: "web"}, true, true},
		{"tab, space toggles Unschedulable", []string{"tab", "space", "enter"}, Values{Unschedulable: true}, true, true},
		{"tab tab, x toggles Error", []string{"tab", "tab", "x"}, Values{Error: true}, false, false},
		{"space in the pattern field is typed", []string{"space"}, Values{}, false, false},
		{"esc leaves without applying", []string{"tab", "space", "esc"}, Values{Unschedulable: true}, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := form(Values{}, tc.keys...)
			if got := f.Values(); got != tc.want {
				t.Errorf("values %+v, want %+v", got, tc.want)
			}
			if done, applied := f.Done(); done != tc.done || applied != tc.applied {
				t.Errorf("done %v applied %v, want %v %v", done, applied, tc.done, tc.applied)
			}
		})
	}
}

func TestView(t *testing.T) {
	got := ansi.Strip(form(Values{Pod: "default/web-*", Error: true}).View())
	for _, want := range []string{"Breakpoints", "▸ pod pattern: default/web-*", "[ ] pause after a cycle ends Unschedulable", "[x] pause after a cycle ends in Error", "tab next field · space toggle · enter apply · esc cancel"} {
		if !strings.Contains(got, want) {
			t.Errorf("form lacks %q:\n%s", want, got)
		}
	}
}
