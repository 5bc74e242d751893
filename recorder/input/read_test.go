package input

import (
	"os"
	"path/filepath"
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
