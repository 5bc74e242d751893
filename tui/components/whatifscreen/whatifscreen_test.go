package whatifscreen

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/layout"
)

func lines(prefix string, n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("%s%d", prefix, i+1))
	}
	return out
}

// TestOver checks that a panel takes the bottom lines of the body, the
// body keeps its height, and a panel taller than the body keeps its
// last lines; the body passed in is left as it was.
func TestOver(t *testing.T) {
	tests := []struct {
		name        string
		body, panel int
		want        []string
	}{
		{"panel under the body's height", 4, 2, []string{"b1", "b2", "p1", "p2"}},
		{"panel as tall as the body", 3, 3, []string{"p1", "p2", "p3"}},
		{"panel taller than the body", 2, 4, []string{"p3", "p4"}},
		{"no panel", 2, 0, []string{"b1", "b2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := lines("b", tt.body)
			got := strings.Split(Over(body, lines("p", tt.panel)), "\n")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Over (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(lines("b", tt.body), body); diff != "" {
				t.Errorf("Over changed the body (-want +got):\n%s", diff)
			}
		})
	}
}

// TestKeysAreDistinct checks that no two of the shared keys answer to the
// same key press (Choose and a pager key, say), so that one letter does
// one thing in both what-ifs.
func TestKeysAreDistinct(t *testing.T) {
	k := DefaultKeyMap()
	named := map[string]key.Binding{
		"Open": k.Open, "Suggest": k.Suggest, "Evict": k.Evict, "Weight": k.Weight,
		"Disable": k.Disable, "Choose": k.Choose, "Cancel": k.Cancel, "Up": k.Up,
		"Down": k.Down, "Top": k.Top, "Bottom": k.Bottom, "PageUp": k.PageUp, "PageDown": k.PageDown,
	}
	seen := map[string]string{}
	for name, b := range named {
		if len(b.Keys()) == 0 {
			t.Errorf("%s has no key", name)
		}
		for _, s := range b.Keys() {
			if other, ok := seen[s]; ok {
				t.Errorf("%q is both %s and %s", s, other, name)
			}
			seen[s] = name
		}
	}
}

// TestHelp checks the help lines' words: each says what enter and esc do
// under its screen, with the words the page gives.
func TestHelp(t *testing.T) {
	k := DefaultKeyMap()
	words := func(m help.KeyMap) []string {
		var out []string
		for _, b := range m.ShortHelp() {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
		return out
	}
	tests := []struct {
		name string
		m    help.KeyMap
		want []string
	}{
		{"menu", MenuHelp{k}, []string{"esc close the menu"}},
		{"input", InputHelp{k, "re-run", "cancel"}, []string{"enter re-run", "esc cancel"}},
		{"list", ListHelp{k, "evict it"}, []string{"enter evict it", "↑/k up", "↓/j down", "esc back"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, words(tt.m)); diff != "" {
				t.Errorf("ShortHelp (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([][]key.Binding{tt.m.ShortHelp()}, tt.m.FullHelp(), cmp.Comparer(func(a, b key.Binding) bool { return a.Help() == b.Help() })); diff != "" {
				t.Errorf("FullHelp is not the short help (-want +got):\n%s", diff)
			}
		})
	}
	if got := k.Choose.Help().Desc; got != "open" {
		t.Errorf("the help lines changed the key map's Choose: %q", got)
	}
}

// TestGoldens draws a menu-like panel over a body at each golden size,
// with the three help lines under it, as the root lays them out.
func TestGoldens(t *testing.T) {
	k := DefaultKeyMap()
	h := help.New()
	for _, size := range golden.Sizes {
		w, ht := size[0], size[1]
		body := layout.Box(lines("the page under the what-if, line ", ht-3), w, ht-3)
		panel := []string{strings.Repeat("─", w), "what-if on pod default/web", "  x    evict a pod of the node", "  W    set a score weight"}
		view := Over(body, panel) + "\n" + h.View(MenuHelp{k}) + "\n" + h.View(InputHelp{k, "run", "back to the menu"}) + "\n" + h.View(ListHelp{k, "run it: before/after"})
		golden.Check(t, fmt.Sprintf("over_%dx%d", w, ht), golden.Screen(view, w, ht))
	}
}
