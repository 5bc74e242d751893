package tui

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/tui/components/problems"
)

// bindingsOf lists the key.Binding fields of a key map struct, by name.
func bindingsOf(km any) map[string]key.Binding {
	out := map[string]key.Binding{}
	v := reflect.ValueOf(km)
	for i := range v.NumField() {
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
		{"ListKeyMap", DefaultListKeyMap()},
		{"CycleKeyMap", DefaultCycleKeyMap()},
		{"ProblemsKeyMap", problems.DefaultKeyMap()},
		{"BreakpointsKeyMap", DefaultBreakpointsKeyMap()},
		{"PodsKeyMap", DefaultPodsKeyMap()},
		{"WhatIfKeyMap", DefaultWhatIfKeyMap()},
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

// TestCycleHintFollowsBindings rebinds keys and checks the hint under the
// cycle view names the new keys: hints are generated, not written out.
func TestCycleHintFollowsBindings(t *testing.T) {
	rec := loadRecording(t, "default")
	m := toPhase(t, keys(newSession(t, rec, nil, 120, 30), "enter"), phFilter)
	m.view.nodes.Keys.Sort = key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "sort nodes"))
	m.view.explain.Keys.Toggle = key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "explain"))
	hint := ansi.Strip(m.view.hint())
	for _, want := range []string{"S sort", "f show", "x explain"} {
		if !strings.Contains(hint, want) {
			t.Errorf("filter hint %q lacks %q", hint, want)
		}
	}
	if strings.Contains(hint, "o sort") || strings.Contains(hint, "e explain") {
		t.Errorf("filter hint %q still names the old keys", hint)
	}
	m = toPhase(t, m, phScore)
	if hint := ansi.Strip(m.view.hint()); strings.Contains(hint, "f show") {
		t.Errorf("score hint %q offers f, which only acts in Filter", hint)
	}
}

// TestNodeDetailHint checks the node detail's title and the hint under it
// come from its key map.
func TestNodeDetailHint(t *testing.T) {
	rec := loadRecording(t, "default")
	m := toPhase(t, keys(newSession(t, rec, nil, 80, 24), "enter"), phFilter)
	m = keys(m, "enter")
	if m.view.detail == nil {
		t.Fatal("enter should open the node detail")
	}
	m.view.detail.Keys.Back = key.NewBinding(key.WithKeys("backspace"), key.WithHelp("bksp", "back"))
	s := screen(m)
	for _, want := range []string{"in the snapshot) · bksp back", "node detail · bksp back · ↑/↓ scroll"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

// TestNodeDetailTakesTheMovementKeys: with a node's detail open, the keys
// that move scroll the detail, not the node table under it.
func TestNodeDetailTakesTheMovementKeys(t *testing.T) {
	rec := loadRecording(t, "default")
	m := toPhase(t, keys(newSession(t, rec, nil, 80, 24), "enter"), phFilter)
	m = keys(m, "enter")
	before, cursor := screen(m), m.view.nodes.Cursor()
	for _, k := range []string{"j", "ctrl+d", "k"} {
		m = keys(m, k)
		if m.view.nodes.Cursor() != cursor {
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
		if m := keys(newSession(t, rec, nil, 80, 24), k); !m.podsMode.shown {
			t.Errorf("%s in the cycle list did not open the Pods view", k)
		}
	}
}
