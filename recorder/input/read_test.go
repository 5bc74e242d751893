package input

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(small, []byte("kind: Pod\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		limit   int64
		want    string
		wantErr string
	}{
		{name: "a file under the limit is read whole", path: small, limit: 100, want: "kind: Pod\n"},
		{name: "a file exactly at the limit is read whole", path: small, limit: 10, want: "kind: Pod\n"},
		{name: "a file one byte over is refused", path: small, limit: 9, wantErr: small + ": larger than 9 bytes: too big for a patch"},
		{name: "an endless device is refused at the limit", path: "/dev/zero", limit: ManifestLimit, wantErr: "/dev/zero: larger than 4 MiB: too big for a patch"},
		{name: "a missing file says so", path: filepath.Join(dir, "nope"), limit: 10, wantErr: "no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadFile(tt.path, tt.limit, "patch")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestReadFileSpendsTheFilesSize(t *testing.T) {
	dir := t.TempDir()
	// A file is read into one buffer of its size.
	path := filepath.Join(dir, "fixture.yaml")
	const n = 8 << 20
	if err := os.WriteFile(path, bytes.Repeat([]byte("x: 1\n"), n/5), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []byte
	var err error
	if a := allocated(func() { got, err = ReadFile(path, FixtureLimit, "fixture") }); a > n+n/4 {
		t.Errorf("reading an 8 MiB file allocated %d bytes", a)
	}
	if err != nil || len(got) != n/5*5 {
		t.Fatalf("read %d bytes, %v; want %d", len(got), err, n/5*5)
	}
	// A file larger than the limit is refused from its size, unread:
	// a sparse terabyte.
	huge := filepath.Join(dir, "huge.yaml")
	if err := os.WriteFile(huge, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<40); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	if a := allocated(func() { _, err = ReadFile(huge, FixtureLimit, "fixture") }); a > 1<<20 {
		t.Errorf("refusing a file over the limit allocated %d bytes", a)
	}
	if err == nil || !strings.Contains(err.Error(), "huge.yaml: larger than 64 MiB: too big for a fixture") {
		t.Fatalf("err = %v", err)
	}
}

func TestReadStopsAtTheLimit(t *testing.T) {
	r := &countingReader{}
	if _, err := Read("(stdin)", r, 1<<20, "fixture"); err == nil {
		t.Fatal("an endless reader was read without error")
	}
	if r.n > 1<<20+64<<10 {
		t.Errorf("read %d bytes of an endless reader with a limit of 1 MiB", r.n)
	}
}

// countingReader is endless and counts what was read of it.
type countingReader struct{ n int64 }

func (c *countingReader) Read(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}
