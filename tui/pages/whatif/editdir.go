package whatif

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/schedscope/schedscope/recorder"
)

// EditDir is the session's private directory for the manifests it hands to
// $EDITOR: made on the first edit, mode 0700, in $TMPDIR, named for the
// process (schedscope-edit-<pid>-*) so that a later session can tell whose
// it is. Close removes it with everything in it (an editor's swap and backup
// files too), at the end of the session, on a signal as on a quit; a session
// killed with SIGKILL leaves it, and the next one removes it
// (removeStaleEdits).
//
// The manifests hold what the scheduler reads only (Source.PodYAML), but
// they are still the cluster's: nobody else may read them, and none may
// outlive the session.
type EditDir struct {
	// parent is where the directory is made; "" is os.TempDir().
	parent string

	mu     sync.Mutex
	path   string
	closed bool
	// editor is the $EDITOR running, done closed when it has ended.
	editor *os.Process
	done   chan struct{}
}

// errSessionEnding refuses an edit once the session's files are removed.
var errSessionEnding = errors.New("the session is ending: no more edits")

// editDirPrefix starts the name of every session's directory.
const editDirPrefix = "schedscope-edit-"

// write writes the manifest to edit to a new file, 0600, in the directory.
func (d *EditDir) write(data []byte, e *editSession) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return "", errSessionEnding
	}
	if d.path == "" {
		parent := d.parent
		if parent == "" {
			parent = os.TempDir()
		}
		// MkdirTemp makes it 0700, whatever the umask.
		dir, err := os.MkdirTemp(parent, fmt.Sprintf("%s%d-*", editDirPrefix, os.Getpid()))
		if err != nil {
			return "", err
		}
		d.path = dir
	}
	name := "pod-*.yaml"
	if e.node != "" {
		name = "node-*.yaml"
	}
	// CreateTemp makes it 0600.
	f, err := os.CreateTemp(d.path, name)
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

// runEditor runs cmd, the $EDITOR on a file of the directory, until it
// exits; Close ends it. It refuses to start once the directory is closed.
func (d *EditDir) runEditor(cmd *exec.Cmd) error {
	// Bounded: an editor's child holding the terminal's pipes must not
	// keep the session waiting once the editor itself has gone.
	cmd.WaitDelay = time.Second
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return errSessionEnding
	}
	if err := cmd.Start(); err != nil {
		d.mu.Unlock()
		return err
	}
	done := make(chan struct{})
	d.editor, d.done = cmd.Process, done
	d.mu.Unlock()
	err := cmd.Wait()
	d.mu.Lock()
	d.editor, d.done = nil, nil
	d.mu.Unlock()
	close(done)
	return err
}

// editorGrace is how long Close waits for a terminated $EDITOR to exit
// before it kills it, and then again before it goes on without it.
const editorGrace = 2 * time.Second

// Close ends the $EDITOR running, if any (SIGTERM, then SIGKILL), and removes
// the directory. No edit starts after it. It may be called more than once.
func (d *EditDir) Close() error {
	d.mu.Lock()
	d.closed = true
	editor, done, path := d.editor, d.done, d.path
	d.mu.Unlock()
	if editor != nil {
		// An editor saves its swap or recovery file as it dies: wait for
		// it to exit, so the removal below takes that file too.
		editor.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(editorGrace):
			editor.Kill()
			select {
			case <-done:
			case <-time.After(editorGrace):
			}
		}
	}
	if path == "" {
		return nil
	}
	return os.RemoveAll(path)
}

// staleOldFile names the files editors were given before the directory
// (os.CreateTemp("", "schedscope-pod-*.yaml") and the node's): they held
// the whole pod.
var staleOldFile = regexp.MustCompile(`^schedscope-(pod|node)-[0-9]+\.yaml$`)

// staleEditDir names a session's directory: the pid is the session's.
var staleEditDir = regexp.MustCompile(`^` + editDirPrefix + `([0-9]+)-[0-9]+$`)

// oldFileAge is how old a file of the former naming must be to be removed:
// it cannot tell which process it was for, so only the age says it is not
// being edited.
const oldFileAge = 24 * time.Hour

// RemoveStaleEdits removes, in parent ("" is os.TempDir()), what sessions
// that did not end cleanly left: the directories of processes that are gone,
// and files of the former naming older than a day. Only entries the current
// user owns are touched, never through a symbolic link; a directory whose
// process is alive (a session running, or a process that reused the pid)
// is kept. It returns what it removed.
func RemoveStaleEdits(parent string) []string {
	if parent == "" {
		parent = os.TempDir()
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(parent, name)
		if m := staleEditDir.FindStringSubmatch(name); m != nil {
			pid, err := strconv.Atoi(m[1])
			if err != nil || !e.IsDir() || !ownedByUs(path) || !recorder.ProcessGone(pid) {
				continue
			}
			if os.RemoveAll(path) == nil {
				removed = append(removed, path)
			}
			continue
		}
		if staleOldFile.MatchString(name) && e.Type().IsRegular() && ownedByUs(path) {
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > oldFileAge && os.Remove(path) == nil {
				removed = append(removed, path)
			}
		}
	}
	return removed
}
