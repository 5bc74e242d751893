//go:build unix

package whatif

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An EditDir is made on the first edit, 0700, named for the process, with
// each file 0600 and named for what it edits; Close removes it and refuses
// later edits, without making it again.
func TestEditDir(t *testing.T) {
	d := &EditDir{parent: t.TempDir()}
	first, err := d.write([]byte("kind: Pod\n"), &editSession{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(first)
	if want := fmt.Sprintf("%s%d-", editDirPrefix, os.Getpid()); !strings.HasPrefix(filepath.Base(dir), want) || filepath.Dir(dir) != d.parent {
		t.Errorf("the file is %s; want it in %s/%s*", first, d.parent, want)
	}
	for path, want := range map[string]os.FileMode{dir: os.ModeDir | 0o700, first: 0o600} {
		if fi, err := os.Lstat(path); err != nil || fi.Mode() != want {
			t.Errorf("%s: %v (%v), want mode %v", path, fi.Mode(), err, want)
		}
	}
	second, err := d.write([]byte("kind: Node\n"), &editSession{node: "a"})
	if err != nil || filepath.Dir(second) != dir || !strings.HasPrefix(filepath.Base(second), "node-") {
		t.Errorf("a node's edit went to %s (%v); want a node-*.yaml in %s", second, err, dir)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("after Close the directory is still there (%v)", err)
	}
	if _, err := d.write([]byte("kind: Pod\n"), &editSession{}); !errors.Is(err, errSessionEnding) {
		t.Errorf("an edit after Close: %v, want %v", err, errSessionEnding)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("an edit after Close made the directory again (%v)", err)
	}
}

// A session's start removes the directories of sessions whose process is
// gone, and the former files older than a day; nothing of a live process,
// of another user, or behind a symbolic link.
func TestRemoveStaleEdits(t *testing.T) {
	parent := t.TempDir()
	elsewhere := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadPID := dead.Process.Pid
	alive := exec.Command("sleep", "60")
	if err := alive.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { alive.Process.Kill(); alive.Wait() })
	dirOf := func(pid int, n int) string { return fmt.Sprintf("%s%d-%d", editDirPrefix, pid, n) }
	old := time.Now().Add(-48 * time.Hour)
	tests := []struct {
		name string
		make func(path string) error
		kept bool
	}{
		{dirOf(deadPID, 1), mkdirWithFile, false},
		{dirOf(os.Getpid(), 2), mkdirWithFile, true},
		{dirOf(alive.Process.Pid, 3), mkdirWithFile, true},
		{dirOf(deadPID, 4) + "x", mkdirWithFile, true},
		{dirOf(deadPID, 5), func(p string) error { return os.WriteFile(p, nil, 0o600) }, true},
		{dirOf(deadPID, 6), func(p string) error { return os.Symlink(elsewhere, p) }, true},
		{"schedscope-pod-123.yaml", oldFile(old), false},
		{"schedscope-node-456.yaml", oldFile(old), false},
		{"schedscope-pod-789.yaml", oldFile(time.Now()), true},
		{"schedscope-pod-x.yaml", oldFile(old), true},
		{"other.yaml", oldFile(old), true},
	}
	if os.Geteuid() == 0 {
		// Only root can give a file away.
		tests = append(tests, struct {
			name string
			make func(path string) error
			kept bool
		}{dirOf(deadPID, 7), func(p string) error {
			if err := mkdirWithFile(p); err != nil {
				return err
			}
			return os.Lchown(p, 65534, 65534)
		}, true})
	}
	for _, tt := range tests {
		if err := tt.make(filepath.Join(parent, tt.name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(elsewhere, "keep"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	RemoveStaleEdits(parent)
	for _, tt := range tests {
		_, err := os.Lstat(filepath.Join(parent, tt.name))
		if kept := err == nil; kept != tt.kept {
			t.Errorf("%s: kept %v, want %v", tt.name, kept, tt.kept)
		}
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "keep")); err != nil {
		t.Errorf("the target of a symbolic link was touched: %v", err)
	}
}

func mkdirWithFile(p string) error {
	if err := os.Mkdir(p, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(p, "pod-1.yaml"), []byte("kind: Pod\n"), 0o600)
}

func oldFile(mtime time.Time) func(string) error {
	return func(p string) error {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			return err
		}
		return os.Chtimes(p, mtime, mtime)
	}
}
