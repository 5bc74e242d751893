//go:build unix

package tui

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/pages/whatif"
)

// The files handed to $EDITOR are in one directory of the session, 0700,
// named for its process, in $TMPDIR, each file 0600; closing the session's
// edits removes the directory (pages/whatif tests the rest of EditDir).
func TestWhatIfEditFilesArePrivate(t *testing.T) {
	before, _ := stuckCycles()
	f := &fakeWhatIf{podYAML: "kind: Pod\nmetadata:\n  name: stuck\n"}
	m := whatIfSession(t, f, 80, 24, before)
	m, cmd := sendCmd(keys(m, "enter", "w"), press("e"))
	m, _ = settleWhatIf(t, m, cmd)
	path := lastEdit(t, m)
	dir := filepath.Dir(path)
	if want := fmt.Sprintf("schedscope-edit-%d-", os.Getpid()); !strings.HasPrefix(filepath.Base(dir), want) || filepath.Dir(dir) != os.TempDir() {
		t.Errorf("the file is %s; want it in %s/%s*", path, os.TempDir(), want)
	}
	modes := []struct {
		path string
		want os.FileMode
	}{{dir, os.ModeDir | 0o700}, {path, 0o600}}
	for _, x := range modes {
		fi, err := os.Lstat(x.path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != x.want {
			t.Errorf("%s: mode %v, want %v", x.path, fi.Mode(), x.want)
		}
	}
	if err := m.wi.Edits().Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("after Close the directory is still there (%v)", err)
	}
}

// The helper process of TestSignalWhileEditing: a what-if session without a
// terminal whose program starts by running $EDITOR on the pod's manifest.
func TestEditorHelperProcess(t *testing.T) {
	parent := os.Getenv("SCHEDSCOPE_TEST_EDIT_PARENT")
	if parent == "" {
		t.Skip("run by TestSignalWhileEditing")
	}
	before, _ := stuckCycles()
	f := &fakeWhatIf{podYAML: "kind: Pod\nmetadata:\n  name: stuck\n"}
	m := whatIfSession(t, f, 80, 24, before)
	// Not whatIfSession's directory: that one a test's cleanup removes.
	t.Setenv("TMPDIR", parent)
	m, cmd := sendCmd(keys(m, "enter", "w"), press("e"))
	m, cmd = settleWhatIf(t, m, cmd)
	if cmd == nil {
		t.Fatal("e did not start the editor")
	}
	err := runModel(context.Background(), startWith{Model: m, first: cmd}, m.wi.Edits(),
		tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24))
	fmt.Println("session ended:", err)
}

// startWith is a model whose program starts by running first.
type startWith struct {
	Model
	first tea.Cmd
}

func (s startWith) Init() tea.Cmd { return tea.Batch(s.Model.Init(), s.first) }

// A session that gets SIGTERM, SIGHUP or SIGINT while $EDITOR runs ends the
// editor, removes the pod's file and its directory, and ends; one killed
// with SIGKILL leaves them, and the next session's start removes them.
func TestSignalWhileEditing(t *testing.T) {
	editor := filepath.Join(t.TempDir(), "editor")
	// It says which file it was given and its pid, then waits as a person
	// would, as the same process.
	script := "#!/bin/sh\nprintf '%s %s\\n' \"$1\" $$ > \"$SCHEDSCOPE_TEST_EDITING.tmp\"\nmv \"$SCHEDSCOPE_TEST_EDITING.tmp\" \"$SCHEDSCOPE_TEST_EDITING\"\nexec sleep 600\n"
	if err := os.WriteFile(editor, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			parent := t.TempDir()
			editing := filepath.Join(t.TempDir(), "editing")
			helper := exec.Command(os.Args[0], "-test.run=^TestEditorHelperProcess$", "-test.count=1")
			helper.Env = append(os.Environ(), "SCHEDSCOPE_TEST_EDIT_PARENT="+parent, "SCHEDSCOPE_TEST_EDITING="+editing,
				"EDITOR="+editor, "VISUAL=")
			// A file, not a pipe: the editor inherits it, and a pipe would
			// keep Wait waiting for the editor.
			out, err := os.Create(filepath.Join(t.TempDir(), "out"))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			helper.Stdout, helper.Stderr = out, out
			output := func() string { b, _ := os.ReadFile(out.Name()); return string(b) }
			if err := helper.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- helper.Wait() }()
			t.Cleanup(func() { helper.Process.Kill() })

			var file string
			var editorPID int
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if b, err := os.ReadFile(editing); err == nil {
					fields := strings.Fields(string(b))
					file = fields[0]
					editorPID, _ = strconv.Atoi(fields[1])
					break
				}
				select {
				case err := <-exited:
					t.Fatalf("the session ended (%v) before the editor ran:\n%s", err, output())
				default:
				}
				if time.Now().After(deadline) {
					t.Fatalf("the editor did not start:\n%s", output())
				}
			}
			dir := filepath.Dir(file)
			if ok, _ := regexp.MatchString(fmt.Sprintf(`^%s%d-`, "schedscope-edit-", helper.Process.Pid), filepath.Base(dir)); !ok || filepath.Dir(dir) != parent {
				t.Fatalf("the editor was given %s; want a file in %s/%s%d-*", file, parent, "schedscope-edit-", helper.Process.Pid)
			}
			if b, err := os.ReadFile(file); err != nil || !strings.Contains(string(b), "name: stuck") {
				t.Fatalf("the editor's file holds %q (%v)", b, err)
			}
			if err := helper.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(15 * time.Second):
				// The editor sleeps 600 s: a session that waits for it ends here.
				t.Fatalf("the session did not end within 15s of %v: it waits for the editor:\n%s", sig, output())
			}
			if sig == syscall.SIGKILL {
				if _, err := os.Stat(file); err != nil {
					t.Fatalf("after SIGKILL the file is gone (%v): the check of the next start would prove nothing", err)
				}
				syscall.Kill(editorPID, syscall.SIGKILL) // the orphaned editor
				if got := whatif.RemoveStaleEdits(parent); len(got) != 1 || got[0] != dir {
					t.Errorf("the next start removed %q, want [%s]", got, dir)
				}
			}
			if _, err := os.Lstat(dir); !os.IsNotExist(err) {
				t.Errorf("after %v the edit directory %s is still there (%v):\n%s", sig, dir, err, output())
			}
			if left, _ := filepath.Glob(filepath.Join(parent, "*")); len(left) > 0 {
				t.Errorf("after %v left in $TMPDIR: %q", sig, left)
			}
			if sig != syscall.SIGKILL && !recorder.ProcessGone(editorPID) {
				syscall.Kill(editorPID, syscall.SIGKILL)
				t.Errorf("after %v the editor (pid %d) still runs", sig, editorPID)
			}
		})
	}
}
