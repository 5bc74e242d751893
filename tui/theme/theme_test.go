package theme

import (
	"testing"

	"charm.land/lipgloss/v2"
)

// TestNoColor: without colour the semantic styles render plain text, and
// the status bar is told apart by reverse video.
func TestNoColor(t *testing.T) {
	st := New(true)
	for name, got := range map[string]string{
		"Success":       st.Success.Render("x"),
		"Unschedulable": st.Unschedulable.Render("x"),
		"Error":         st.Error.Render("x"), // bold only
		"Chosen":        st.Chosen.Render("x"),
	} {
		if name != "Error" && name != "Chosen" && got != "x" {
			t.Errorf("%s renders %q without colour, want plain x", name, got)
		}
	}
	if !st.NoColor || !st.Status.GetReverse() {
		t.Error("NO_COLOR: the status bar should be reverse video")
	}
	if _, none := New(false).Success.GetForeground().(lipgloss.NoColor); none {
		t.Error("with colour, Success has a foreground")
	}
}

func TestNoColorRequested(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	if NoColorRequested() {
		t.Error("an empty NO_COLOR does not ask for no colour")
	}
	t.Setenv("NO_COLOR", "1")
	if !NoColorRequested() {
		t.Error("NO_COLOR=1 asks for no colour")
	}
}
