package commands

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

// TestReplayMarksInMarkdown: a cycle marked in a replay (the store the TUI
// is given) is kept beside the recording, and replay --no-tui -o markdown
// lists it and quotes its note in its cycle's section. A sidecar of another
// recording is reported and applied to nothing; marking over it is refused.
func TestReplayMarksInMarkdown(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.rec")
	if _, errOut, code := run(t, "record", "-f", "preemption", "-o", path); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	rec, err := recorder.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := rec.Cycles[0]
	store := openMarks(path)
	if store.Err() != nil || len(store.Marks()) != 0 {
		t.Fatalf("a new recording's marks: %v, %+v", store.Err(), store.Marks())
	}
	where, err := store.Set(c.Seq, c.Pod.Key(), "preempts | here")
	if err != nil || !strings.Contains(where, "run.rec.marks") {
		t.Fatalf("Set: %q, %v", where, err)
	}
	if again := openMarks(path); len(again.Marks()) != 1 || again.Marks()[0].Note != "preempts | here" {
		t.Fatalf("the mark read back: %+v, %v", again.Marks(), again.Err())
	}
	out, errOut, code := run(t, "replay", path, "--no-tui", "-o", "markdown")
	if code != 0 {
		t.Fatalf("replay -o markdown: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "**Marked cycles**") || !strings.Contains(out, "- cycle 1 · `"+c.Pod.Key()+"` — preempts \\| here") ||
		!strings.Contains(out, "★ **Marked:** preempts \\| here") {
		t.Errorf("the markdown lacks the mark:\n%s", out)
	}

	// The sidecar beside another recording.
	other := filepath.Join(dir, "other.rec")
	if _, errOut, code := run(t, "record", "-f", "default", "-o", other); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(recorder.MarksPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(recorder.MarksPath(other), data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = run(t, "replay", other, "--no-tui", "-o", "markdown")
	if code != 0 || !strings.Contains(errOut, "other.rec.marks: its marks are of another recording") || strings.Contains(out, "Marked") {
		t.Errorf("another recording's sidecar: exit %d, stderr %q, marks in the output %v", code, errOut, strings.Contains(out, "Marked"))
	}
	if _, err := openMarks(other).Set(1, "default/web", "x"); err == nil {
		t.Error("a mark was written over another recording's sidecar")
	}
	if after, _ := os.ReadFile(recorder.MarksPath(other)); string(after) != string(data) {
		t.Error("the other recording's sidecar changed")
	}
}

// TestReplayStrayMarksAreSaid: a mark that names another pod than its
// cycle's, or a cycle the recording does not have (−5), is a warning in
// Markdown and HTML, as the debugger says it, and is listed nowhere; the
// mark that fits is kept.
func TestReplayStrayMarksAreSaid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.rec")
	if _, errOut, code := run(t, "record", "-f", "preemption", "-o", path); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	rec, err := recorder.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := rec.Cycles[0]
	store := openMarks(path)
	for _, m := range []struct {
		seq       int
		pod, note string
	}{{c.Seq, c.Pod.Key(), "fits"}, {c.Seq + 1, "default/not-its-pod", "elsewhere"}, {-5, c.Pod.Key(), "nowhere"}} {
		if _, err := store.Set(m.seq, m.pod, m.note); err != nil {
			t.Fatalf("Set(%d): %v", m.seq, err)
		}
	}
	for _, format := range []string{"markdown", "html"} {
		out, errOut, code := run(t, "replay", path, "--no-tui", "-o", format)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		for _, want := range []string{
			"the mark of cycle " + strconv.Itoa(c.Seq+1) + " names pod default/not-its-pod, but the cycle schedules ",
			"the mark of cycle -5 (pod " + c.Pod.Key() + ") names no cycle of the recording: not shown",
		} {
			if !strings.Contains(errOut, "warning: "+path+".marks: "+want) {
				t.Errorf("%s: stderr lacks %q:\n%s", format, want, errOut)
			}
		}
		if !strings.Contains(out, "fits") || strings.Contains(out, "elsewhere") || strings.Contains(out, "nowhere") {
			t.Errorf("%s: want only the mark that fits in the export", format)
		}
	}
}
