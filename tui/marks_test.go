package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

// fakeMarks is a MarkStore in memory.
type fakeMarks struct {
	read []recorder.Mark
	set  []recorder.Mark
	err  error
}

func (f *fakeMarks) Marks() []recorder.Mark { return f.read }

func (f *fakeMarks) Err() error { return nil }

func (f *fakeMarks) Set(seq int, pod, note string) (string, error) {
	if f.err != nil {
		return "", f.err
	}
	f.set = append(f.set, recorder.Mark{Seq: seq, Pod: pod, Note: note})
	return "in test.rec.marks", nil
}

// TestMarks: marks read with the recording show on their rows; a mark
// naming another pod than its cycle's is a problem, not shown; m marks
// the selected cycle with the note typed, an empty note unmarks it, and
// :marked lists the marked cycles only. Without a store m says where marks
// are kept.
func TestMarks(t *testing.T) {
	rec := loadRecording(t, "default")
	if len(rec.Cycles) < 3 {
		t.Fatalf("the default recording has %d cycles, want 3 or more", len(rec.Cycles))
	}
	c1, c2 := rec.Cycles[0], rec.Cycles[1]
	store := &fakeMarks{read: []recorder.Mark{
		{Seq: c1.Seq, Pod: c1.Pod.Key(), Note: "the first one"},
		{Seq: c2.Seq, Pod: "default/someone-else", Note: "stale"},
	}}
	m := newSessionWith(rec, Options{Source: "replay test.rec", Marks: store}, 80, 24)
	if s := screen(m); !rowHas(s, " 1 ", "★", "web") || strings.Contains(s, "stale") {
		t.Errorf("the marks read are not shown as read:\n%s", s)
	}
	if m.nProblems != 1 || !strings.Contains(m.notes[len(m.notes)-1].Text, "names pod default/someone-else") {
		t.Errorf("the mark of another pod is not a problem: %d problems %+v", m.nProblems, m.notes)
	}

	// Mark the last cycle (the list follows the tail).
	last := rec.Cycles[len(rec.Cycles)-1]
	m = keys(m, "m", "text:why it went there", "enter")
	if len(store.set) != 1 || store.set[0] != (recorder.Mark{Seq: last.Seq, Pod: last.Pod.Key(), Note: "why it went there"}) {
		t.Fatalf("m then enter kept %+v", store.set)
	}
	golden(t, "marks-80x24", screen(m))
	// The message is whole at 80 columns, its end too.
	if s := screen(m); !strings.Contains(s, ":marked lists the marked cycles") {
		t.Errorf("the message is cut:\n%s", s)
	}
	m = keys(m, ":", "text:marked", "enter")
	if rows := m.list.Rows(); len(rows) != 2 {
		t.Errorf(":marked lists %d rows, want the 2 marked cycles:\n%s", len(rows), screen(m))
	}
	// :marked's rows say their notes; the cycle's header says its note.
	if s := screen(m); !rowHas(s, "★", "web", "the first one") || !rowHas(s, "★", "huge", "why it went there") {
		t.Errorf(":marked does not show the notes:\n%s", s)
	}
	golden(t, "marks-80x24-marked", screen(m))
	m = keys(m, "enter")
	if s := screen(m); !strings.Contains(strings.Join(strings.Split(s, "\n")[1:3], "\n"), "★ why it went there") {
		t.Errorf("the open cycle's header does not say its note:\n%s", s)
	}
	m = keys(m, "esc")
	// m on a marked cycle edits its note; emptied, it unmarks.
	m = keys(m, "esc", "m")
	if m.prompt.Value() != "why it went there" {
		t.Errorf("the prompt starts from %q, want the note", m.prompt.Value())
	}
	for range len("why it went there") {
		m = keys(m, "backspace")
	}
	m = keys(m, "enter")
	if n := store.set[len(store.set)-1]; n.Note != "" || strings.Contains(screen(m), "why it went there") {
		t.Errorf("an emptied note did not unmark: %+v\n%s", n, screen(m))
	}

	store.err = errors.New("disk full")
	m = keys(m, "m", "text:x", "enter")
	if !strings.Contains(m.notes[len(m.notes)-1].Text, "disk full") {
		t.Errorf("a mark that could not be kept is not a problem: %+v", m.notes[len(m.notes)-1])
	}

	none := newSession(t, rec, nil, 80, 24)
	none = keys(none, "m")
	if !strings.Contains(none.message.Text, "marks are kept beside a recording") || none.prompt.Active() {
		t.Errorf("m without a store: %q", none.message.Text)
	}
}

// rowHas tells whether a line of screen s has every one of words, in order.
func rowHas(s string, words ...string) bool {
	for _, line := range strings.Split(s, "\n") {
		rest, ok := line, true
		for _, w := range words {
			i := strings.Index(rest, w)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(w):]
		}
		if ok {
			return true
		}
	}
	return false
}

// TestExportKey: X hands the cycle on screen to Options.Export off the
// update loop and says where it went; a failure is a problem.
func TestExportKey(t *testing.T) {
	rec := loadRecording(t, "default")
	var got []int
	fail := false
	export := func(h recorder.Header, c *recorder.Cycle) (string, error) {
		if fail {
			return "", errors.New("read-only directory")
		}
		got = append(got, c.Seq)
		return "x.md and x.html", nil
	}
	m := newSessionWith(rec, Options{Source: "replay test.rec", Export: export}, 80, 24)
	m, cmd := sendCmd(m, press("X"))
	if cmd == nil {
		t.Fatal("X started nothing")
	}
	m = send(m, cmd())
	last := rec.Cycles[len(rec.Cycles)-1].Seq
	if len(got) != 1 || got[0] != last || !strings.Contains(m.message.Text, "x.md and x.html") {
		t.Errorf("X wrote %v (want cycle %d), said %q", got, last, m.message.Text)
	}
	fail = true
	m, cmd = sendCmd(m, press("X"))
	m = send(m, cmd())
	if !strings.Contains(m.notes[len(m.notes)-1].Text, "read-only directory") {
		t.Errorf("a failed write is not a problem: %+v", m.notes)
	}
	none := newSession(t, rec, nil, 80, 24)
	if none = keys(none, "X"); !strings.Contains(none.message.Text, "cannot write files") {
		t.Errorf("X without Export: %q", none.message.Text)
	}
}
