package tui

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/tui/components/breakpoints"
	"github.com/schedscope/schedscope/tui/components/cyclelist"
	"github.com/schedscope/schedscope/tui/components/pods"
	"github.com/schedscope/schedscope/tui/components/problems"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
	"github.com/schedscope/schedscope/tui/pages/whatif"
)

// bindingsOf lists the key.Binding fields of a key map struct, by name.
func bindingsOf(km any) map[string]key.Binding {
	out := map[string]key.Binding{}
	v := reflect.ValueOf(km)
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.Anonymous {
			// An embedded key map (pager.KeyMap's moving keys).
			for name, b := range bindingsOf(v.Field(i).Interface()) {
				out[name] = b
			}
			continue
		}
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			out[v.Type().Field(i).Name] = b
		}
	}
	return out
}

// TestFullHelpListsEveryBinding checks that each key map's full help shows
// every key it holds, so that "?" never hides a key.
func TestFullHelpListsEveryBinding(t *testing.T) {
	tests := []struct {
		name string
		km   help.KeyMap
	}{
		{"KeyMap", DefaultKeyMap()},
		{"cyclelist.KeyMap", cyclelist.DefaultKeyMap()},
		{"CycleKeyMap", cyclepage.DefaultKeyMap()},
		{"ProblemsKeyMap", problems.DefaultKeyMap()},
		{"breakpoints.KeyMap", breakpoints.DefaultKeyMap()},
		{"pods.KeyMap", pods.DefaultKeyMap()},
		{"whatif.KeyMap", whatif.DefaultKeyMap()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			listed := map[key.Help]bool{}
			for _, col := range tc.km.FullHelp() {
				for _, b := range col {
					listed[b.Help()] = true
				}
			}
			for field, b := range bindingsOf(tc.km) {
				if b.Help().Key == "" || b.Help().Desc == "" {
					t.Errorf("%s has no help text", field)
				}
				if !listed[b.Help()] {
					t.Errorf("FullHelp does not list %s (%q %q)", field, b.Help().Key, b.Help().Desc)
				}
			}
		})
	}
}

// TestNodeDetailTakesTheMovementKeys: with a node's detail open, the keys
// that move scroll the detail, not the node table under it.
func TestNodeDetailTakesTheMovementKeys(t *testing.T) {
	rec := loadRecording(t, "default")
	m := toPhase(t, keys(newSession(t, rec, nil, 80, 24), "enter"), cyclepage.Filter)
	m = keys(m, "enter")
	before, cursor := screen(m), m.view.Nodes().Cursor()
	for _, k := range []string{"j", "ctrl+d", "k"} {
		m = keys(m, k)
		if m.view.Nodes().Cursor() != cursor {
			t.Errorf("%s moved the node table under the detail", k)
		}
		if screen(m) == before {
			t.Errorf("%s did not scroll the detail", k)
		}
		before = screen(m)
	}
}

// TestLowercasePOpensPods: a newcomer's p opens the Pods view as P does.
func TestLowercasePOpensPods(t *testing.T) {
	rec := loadRecording(t, "default")
	for _, k := range []string{"P", "p"} {
		if m := keys(newSession(t, rec, nil, 80, 24), k); !m.showing(podsLayer{}) {
			t.Errorf("%s in the cycle list did not open the Pods view", k)
		}
	}
}

// TestHelpScreenListsEveryRootKeyAndCommand: the "?" screen of a live run
// lists every key of the root's key map and every ":" command tab
// completes (or its short form: :q), so that a key that works is never
// missing from it.
func TestHelpScreenListsEveryRootKeyAndCommand(t *testing.T) {
	m := newSession(t, loadRecording(t, "default"), &fakeController{}, 200, 50)
	keysListed, commands := map[key.Help]bool{}, map[string]bool{}
	for _, s := range m.helpSections() {
		for _, b := range s.Keys {
			keysListed[b.Help()] = true
		}
		for _, c := range s.Commands {
			commands[strings.Fields(c[0])[0]] = true
		}
	}
	for field, b := range bindingsOf(m.Keys) {
		if !keysListed[b.Help()] {
			t.Errorf("the help screen does not list %s (%q %q)", field, b.Help().Key, b.Help().Desc)
		}
	}
	for _, c := range commandSuggestions() {
		name := ":" + strings.Fields(c)[0]
		listed := false
		for h := range commands {
			listed = listed || strings.HasPrefix(name, h) // :q for :quit
		}
		if !listed {
			t.Errorf("the help screen does not list %s, which tab completes", name)
		}
	}
}
