package recorder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMarksSidecar: a recording has no marks until one is set; the sidecar
// written beside it reads back; a sidecar of another recording, or one that
// is not a sidecar, is refused with an error naming it.
func TestMarksSidecar(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.rec")
	if err := os.WriteFile(path, writeRecording(t, testCycle(1, nil), testCycle(2, nil)), 0o600); err != nil {
		t.Fatal(err)
	}
	id, err := RecordingIdentity(path)
	if err != nil || len(id) != 64 {
		t.Fatalf("identity %q, %v", id, err)
	}
	m, err := ReadMarks(path, id)
	if err != nil || len(m.Marks) != 0 {
		t.Fatalf("no sidecar: %+v, %v", m, err)
	}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	m.Set(2, "default/web", "the one that mattered", now)
	m.Set(1, "default/web", "first", now)
	m.Set(1, "default/web", "", now) // unmarks
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := ReadMarks(path, id)
	if err != nil || len(back.Marks) != 1 || back.Marks[0] != (Mark{Seq: 2, Pod: "default/web", Note: "the one that mattered", Marked: now}) {
		t.Fatalf("read back %+v, %v", back, err)
	}
	if k, ok := back.Of(2); !ok || k.Note != "the one that mattered" {
		t.Errorf("Of(2) = %+v, %v", k, ok)
	}

	// Another recording beside the same sidecar name: its header differs.
	other := filepath.Join(dir, "other.rec")
	c := testCycle(1, nil)
	c.Pod.Name = "api"
	data := strings.Replace(string(writeRecording(t, c)), `"schedscopeVersion":"test"`, `"schedscopeVersion":"other"`, 1)
	if err := os.WriteFile(other, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	otherID, err := RecordingIdentity(other)
	if err != nil || otherID == id {
		t.Fatalf("another recording's identity %q (this one's %q), %v", otherID, id, err)
	}
	sidecar, _ := os.ReadFile(MarksPath(path))
	if err := os.WriteFile(MarksPath(other), sidecar, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadMarks(other, otherID); err == nil || !strings.Contains(err.Error(), "other.rec.marks: its marks are of another recording") {
		t.Errorf("another recording's sidecar: %v", err)
	}
	if err := os.WriteFile(MarksPath(other), []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadMarks(other, otherID); err == nil || !strings.Contains(err.Error(), "not a sidecar of marks") {
		t.Errorf("a sidecar that is not one: %v", err)
	}
	if _, err := RecordingIdentity(filepath.Join(dir, "missing.rec")); err == nil {
		t.Error("the identity of a missing recording")
	}
}
