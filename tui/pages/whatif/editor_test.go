package whatif

import (
	"strings"
	"testing"
)

// A plain $EDITOR is exec'd by the shell, so that ending the session ends
// it; shell syntax is left as it is.
func TestEditorCommand(t *testing.T) {
	tests := []struct {
		editor string
		want   string
	}{
		{"", `exec vi "$1"`},
		{"vim", `exec vim "$1"`},
		{"code --wait", `exec code --wait "$1"`},
		{"vim -c 'set ft=yaml'", `exec vim -c 'set ft=yaml' "$1"`},
		{"TERM=xterm vim", `TERM=xterm vim "$1"`},
		{"exec vim", `exec vim "$1"`},
		{"vim; echo done", `vim; echo done "$1"`},
		{"cat | vim -", `cat | vim - "$1"`},
	}
	for _, tt := range tests {
		t.Run(tt.editor, func(t *testing.T) {
			t.Setenv("EDITOR", tt.editor)
			t.Setenv("VISUAL", "")
			cmd := editorCommand("/tmp/f.yaml")
			want := []string{"sh", "-c", tt.want}
			if got := cmd.Args[:3]; strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Errorf("args %q, want %q", got, want)
			}
		})
	}
}
