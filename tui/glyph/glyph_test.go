package glyph

import (
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/theme"
)

// TestNoColorGlyphsDiffer checks the matrix states stay apart without colour.
func TestNoColorGlyphsDiffer(t *testing.T) {
	seen := map[string]Kind{}
	for k := range NumKinds {
		g := k.Glyph()
		if other, dup := seen[g]; dup {
			t.Errorf("%v and %v share glyph %q", k.Label(), other.Label(), g)
		}
		seen[g] = k
	}
	st := theme.New(true)
	if got := Render(&st, Unschedulable); got != "✗" {
		t.Errorf("NO_COLOR glyph carries styling: %q", got)
	}
}

func TestOf(t *testing.T) {
	tests := []struct {
		code string
		want Kind
	}{
		{"", Success},
		{recorder.CodeSuccess, Success},
		{recorder.CodeUnschedulable, Unschedulable},
		{recorder.CodeUnschedulableAndUnresolvable, Unresolvable},
		{recorder.CodeSkip, Skip},
		{recorder.CodeWait, Wait},
		{recorder.CodePending, Pending},
		{"SomethingNew", Error},
	}
	for _, tc := range tests {
		if got := Of(tc.code); got != tc.want {
			t.Errorf("Of(%q) = %v, want %v", tc.code, got.Label(), tc.want.Label())
		}
	}
}
