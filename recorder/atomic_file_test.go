package recorder

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// dirEntries lists the names in dir.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

func TestAtomicFile(t *testing.T) {
	tests := []struct {
		name     string
		commit   bool
		wantData string
	}{
		{name: "commit replaces the target", commit: true, wantData: "new"},
		{name: "abort leaves the target as it was", commit: false, wantData: "old contents"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.rec")
			if err := os.WriteFile(path, []byte("old contents"), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := CreateAtomic(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString("new"); err != nil {
				t.Fatal(err)
			}
			if got := mode(t, f.Name()); got != 0o600 {
				t.Errorf("temporary file mode %v, want 0600", got)
			}
			if tt.commit {
				err = f.Commit()
			} else {
				err = f.Abort()
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Abort(); err != nil {
				t.Errorf("Abort after the end: %v", err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tt.wantData {
				t.Errorf("target holds %q, want %q", data, tt.wantData)
			}
			wantMode := os.FileMode(0o644)
			if tt.commit {
				wantMode = 0o600
			}
			if got := mode(t, path); got != wantMode {
				t.Errorf("target mode %v, want %v", got, wantMode)
			}
			if diff := cmp.Diff([]string{"out.rec"}, dirEntries(t, dir)); diff != "" {
				t.Errorf("directory (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckOutputRefusesInputs(t *testing.T) {
	dir := t.TempDir()
	fixture := filepath.Join(dir, "fixture.yaml")
	if err := os.WriteFile(fixture, []byte("kind: Node\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(fixture, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.yaml")
	if err := os.Link(fixture, hard); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		output string
		inputs []string
		want   string
	}{
		{"the input itself", fixture, []string{"", fixture}, "refusing to write " + fixture + ": it is the input " + fixture},
		{"through a symlink", link, []string{fixture}, "it is the input"},
		{"a hard link", hard, []string{"nope.yaml", fixture}, "it is the input"},
		{"another spelling", dir + "/./fixture.yaml", []string{fixture}, "it is the input"},
		{"a new file", filepath.Join(dir, "new.rec"), []string{fixture}, ""},
		{"no inputs", fixture, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckOutput(tt.output, tt.inputs...)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if _, err := CreateAtomic(tt.output, tt.inputs...); err == nil {
				t.Error("CreateAtomic accepted the input as output")
			}
		})
	}
	data, _ := os.ReadFile(fixture)
	if string(data) != "kind: Node\n" {
		t.Errorf("fixture changed: %q", data)
	}
}

func TestCreateFileIsPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.rec")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := CreateFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got := mode(t, path); got != 0o600 {
		t.Errorf("mode %v, want 0600", got)
	}
}

func TestRotatingWriterFilesArePrivate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "flight.rec")
	if err := os.WriteFile(path, []byte("an older recording"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := NewRotatingWriter(path, Header{}, 2<<10, 2)
	if err != nil {
		t.Fatal(err)
	}
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	for i := 1; i <= 30; i++ {
		if err := w.WriteCycle(testCycle(i, nodes)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + ".1", path + ".2"} {
		if got := mode(t, p); got != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(p), got)
		}
	}
}

// TestCreateAtomicWritesThroughADanglingLink writes to a symlink whose
// target does not exist yet: the target is created, and the link stays a
// link, as os.Create and a shell's > do.
func TestCreateAtomicWritesThroughADanglingLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "recs"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		links  map[string]string // link → what it points to
		output string
		want   string // the file written
	}{
		{"a relative dangling link", map[string]string{"latest.rec": "recs/a.rec"}, "latest.rec", "recs/a.rec"},
		{"an absolute dangling link", map[string]string{"abs.rec": filepath.Join(dir, "recs/b.rec")}, "abs.rec", "recs/b.rec"},
		{"a chain ending dangling", map[string]string{"c1.rec": "c2.rec", "c2.rec": "recs/c.rec"}, "c1.rec", "recs/c.rec"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for link, dest := range tt.links {
				if err := os.Symlink(dest, filepath.Join(dir, link)); err != nil {
					t.Fatal(err)
				}
			}
			f, err := CreateAtomic(filepath.Join(dir, tt.output))
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("recorded")
			if err := f.Commit(); err != nil {
				t.Fatal(err)
			}
			for link := range tt.links {
				if st, err := os.Lstat(filepath.Join(dir, link)); err != nil || st.Mode()&os.ModeSymlink == 0 {
					t.Errorf("%s is no longer a symlink (%v)", link, err)
				}
			}
			if data, err := os.ReadFile(filepath.Join(dir, tt.want)); err != nil || string(data) != "recorded" {
				t.Errorf("%s holds %q (%v), want what was written", tt.want, data, err)
			}
		})
	}
	loop := filepath.Join(dir, "loop.rec")
	os.Symlink("loop.rec", loop)
	if _, err := CreateAtomic(loop); err == nil || !strings.Contains(err.Error(), "too many levels of symbolic links") {
		t.Errorf("a link to itself: %v", err)
	}
}

// TestLeftovers lists the temporary files of writers no longer running,
// never one of a running process.
func TestLeftovers(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.rec")
	// A process id that is not running: a child that has exited and been
	// waited for.
	child := exec.Command("true")
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	dead := child.ProcessState.Pid()
	for _, name := range []string{
		tempPrefix(out, dead) + "111",        // a dead writer's
		tempPrefix(out, os.Getpid()) + "222", // this process's: running
		".out.rec.tmp-333",                   // an older version's, naming no writer
		tempPrefix(filepath.Join(dir, "other.rec"), dead) + "444",
	} {
		writeFileT(t, filepath.Join(dir, name), "x")
	}
	got, err := Leftovers(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range got {
		names = append(names, fmt.Sprintf("%s pid=%d size=%d", filepath.Base(l.Path), l.PID, l.Size))
	}
	want := []string{
		fmt.Sprintf("%s111 pid=%d size=1", tempPrefix(out, dead), dead),
		".out.rec.tmp-333 pid=0 size=1",
	}
	slices.Sort(want) // Leftovers lists in directory (name) order
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("Leftovers (-want +got):\n%s", diff)
	}
}

func writeFileT(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}
