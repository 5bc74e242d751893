package layout

import (
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/google/go-cmp/cmp"
)

func TestFit(t *testing.T) {
	tests := []struct {
		name string
		s    string
		w    int
		want string
	}{
		{"pads", "ab", 4, "ab  "},
		{"cuts with an ellipsis", "abcdef", 4, "abc…"},
		{"exact", "abcd", 4, "abcd"},
		{"no room", "abc", 0, ""},
		{"wide runes count as two cells", "日本", 3, "日…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Fit(tc.s, tc.w); got != tc.want {
				t.Errorf("Fit(%q, %d) = %q, want %q", tc.s, tc.w, got, tc.want)
			}
		})
	}
}

func TestScrollLines(t *testing.T) {
	down := key.NewBinding(key.WithKeys("j"), key.WithHelp("j", "down"))
	lines := []string{"a", "b", "c", "d", "e"}
	tests := []struct {
		name   string
		off, h int
		want   []string
	}{
		{"all fit", 0, 5, []string{"a", "b", "c", "d", "e"}},
		{"hidden lines are counted, with the key that shows them", 0, 3, []string{"a", "b", "  … 3 more line(s), j scrolls"}},
		{"scrolled to the end", 2, 3, []string{"c", "d", "e"}},
		{"an offset past the end stops at the end", 9, 3, []string{"c", "d", "e"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ScrollLines(lines, tc.off, tc.h, down)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestWrapAndFlow(t *testing.T) {
	if diff := cmp.Diff([]string{"one two", "  three"}, Wrap("one two three", 8, "  ")); diff != "" {
		t.Errorf("Wrap (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a · b", "c"}, Flow([]string{"a", "b", "c"}, 6, " · ")); diff != "" {
		t.Errorf("Flow (-want +got):\n%s", diff)
	}
}
