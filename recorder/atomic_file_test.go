package recorder

import (
	"os"
	"path/filepath"
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
