package commands

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFirstRunHintIsShownOnce: with no mark, the hint is shown and closing
// it writes the mark; then it is not shown again. A configuration directory
// that cannot be written shows no hint (it would come back each time), and
// an output that is not a terminal never does.
func TestFirstRunHintIsShownOnce(t *testing.T) {
	dir := t.TempDir()
	seen := firstRunIn(dir)
	if seen == nil {
		t.Fatal("no hint on the first run")
	}
	if _, err := os.Stat(filepath.Join(dir, firstRunSeen)); err == nil {
		t.Fatal("the mark was written before the hint was closed")
	}
	seen()
	if _, err := os.Stat(filepath.Join(dir, firstRunSeen)); err != nil {
		t.Fatalf("closing the hint wrote no mark: %v", err)
	}
	if firstRunIn(dir) != nil {
		t.Error("the hint is shown again after it was closed")
	}
	if entries, _ := os.ReadDir(filepath.Dir(filepath.Join(dir, firstRunSeen))); len(entries) != 1 {
		t.Errorf("the configuration directory holds %d entries, want the mark alone", len(entries))
	}

	// A "directory" that is a file: no mark can be made under it (a
	// read-only home, as root too).
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if firstRunIn(notDir) != nil {
		t.Error("a hint is shown where its mark cannot be written")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if firstRunHint(w) != nil {
		t.Error("a hint for an output that is not a terminal")
	}
}
