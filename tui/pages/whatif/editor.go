package whatif

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder/input"
)

// errUnchanged says the user saved the file as it was.
var errUnchanged = errors.New("unchanged")

// editorCommand is $EDITOR (then $VISUAL, then vi) on path. The variable is
// read by a shell, as git does, so that it may carry arguments. A plain
// command (no list, pipe or leading assignment) is exec'd by the shell, so
// that the process the session ends, when it ends early, is the editor
// itself and not a shell that would leave it running on the terminal.
func editorCommand(path string) *exec.Cmd {
	editor := os.Getenv("EDITOR")
	if strings.TrimSpace(editor) == "" {
		editor = os.Getenv("VISUAL")
	}
	if strings.TrimSpace(editor) == "" {
		editor = "vi"
	}
	script := editor + ` "$1"`
	if plainCommand(editor) {
		script = "exec " + script
	}
	return exec.Command("sh", "-c", script, editor, path)
}

// plainCommand tells whether the shell command line s is one command that
// exec can run: no list, pipe, redirection, subshell or newline, and no
// variable assignment or exec before it.
func plainCommand(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 || strings.ContainsAny(s, ";&|<>()`\n") {
		return false
	}
	return !strings.Contains(words[0], "=") && words[0] != "exec"
}

// runEditor hands the terminal to $EDITOR on the session's file; d runs it,
// so that the end of the session (a signal included) can end it.
func runEditor(d *EditDir, e *editSession) tea.Cmd {
	return tea.Exec(&editorProcess{cmd: editorCommand(e.path), dir: d}, func(err error) tea.Msg {
		return editedMsg{edit: e, err: err}
	})
}

// editorProcess is $EDITOR as bubbletea runs it (tea.ExecCommand), started
// and waited for by the session's EditDir.
type editorProcess struct {
	cmd *exec.Cmd
	dir *EditDir
}

var _ tea.ExecCommand = (*editorProcess)(nil)

// Run runs the editor until it exits.
func (p *editorProcess) Run() error { return p.dir.runEditor(p.cmd) }

// SetStdin gives the editor the program's input.
func (p *editorProcess) SetStdin(r io.Reader) { p.cmd.Stdin = r }

// SetStdout gives the editor the program's output.
func (p *editorProcess) SetStdout(w io.Writer) { p.cmd.Stdout = w }

// SetStderr gives the editor the program's error output.
func (p *editorProcess) SetStderr(w io.Writer) { p.cmd.Stderr = w }

// readTemp reads the edited file, bounded as every manifest is.
func readTemp(path string) ([]byte, error) {
	return input.ReadFile(path, input.ManifestLimit, "manifest")
}

// removeFile deletes the session's temporary file.
func removeFile(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		os.Remove(path)
		return cleanedMsg{}
	}
}
