package tui

import (
	"errors"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// errUnchanged says the user saved the file as it was.
var errUnchanged = errors.New("unchanged")

// editorCommand is $EDITOR (then $VISUAL, then vi) on path. The variable is
// read by a shell, as git does, so that it may carry arguments.
func editorCommand(path string) *exec.Cmd {
	editor := os.Getenv("EDITOR")
	if strings.TrimSpace(editor) == "" {
		editor = os.Getenv("VISUAL")
	}
	if strings.TrimSpace(editor) == "" {
		editor = "vi"
	}
	return exec.Command("sh", "-c", editor+` "$1"`, editor, path)
}

// runEditor hands the terminal to $EDITOR on the session's file.
func runEditor(e *editSession) tea.Cmd {
	return tea.ExecProcess(editorCommand(e.path), func(err error) tea.Msg {
		return wiEditedMsg{edit: e, err: err}
	})
}

// writeTemp writes the manifest to edit to a new temporary file.
func writeTemp(data []byte, e *editSession) (string, error) {
	name := "schedscope-pod-*.yaml"
	if e.kind == ChangeNode {
		name = "schedscope-node-*.yaml"
	}
	f, err := os.CreateTemp("", name)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), f.Close()
}

// readTemp reads the edited file, bounded as manifests are.
func readTemp(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > 4<<20 {
		return nil, errors.New(path + ": larger than 4 MiB: too big for one manifest")
	}
	return os.ReadFile(path)
}

// removeFile deletes the session's temporary file.
func removeFile(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		os.Remove(path)
		return wiCleanedMsg{}
	}
}
