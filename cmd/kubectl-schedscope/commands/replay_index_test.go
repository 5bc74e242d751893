package commands

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui"
)

// indexEvents indexes the recording at path as replay does and returns the
// events sent until stop says enough (or the events end), and the files.
func indexEvents(t *testing.T, path string, follow bool, stop func([]source.Event) bool) ([]source.Event, *replayFiles) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var in interface {
		Read([]byte) (int, error)
		Close() error
	}
	var err error
	if follow {
		in, err = recorder.FollowFile(ctx, path, 10*time.Millisecond)
	} else {
		in, err = os.Open(path)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	rd, err := recorder.NewIndexReader(in)
	if err != nil {
		t.Fatal(err)
	}
	files, err := openReplayFiles(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { files.Close() })
	stream := tui.NewStream(ctx, 16)
	go func() {
		defer stream.Close()
		(&recordingSource{path: path, follow: follow, rd: rd, files: files}).Run(ctx, stream.Send)
	}()
	events := stream.Events()
	var got []source.Event
	deadline := time.After(30 * time.Second) // a hang, not a measure
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return got, files
			}
			got = append(got, ev)
			// The TUI reads the first cycle; indexing waits for that.
			if ev.Entries != nil && len(got) < 5 {
				files.Open(ev.Entries[0])
			}
			if stop(got) {
				return got, files
			}
		case <-deadline:
			t.Fatalf("no end after %d events: %q", len(got), summary(got))
		}
	}
}

// summary names the events: each entry by its pod, states, problems and the
// end (the progress is left out).
func summary(evs []source.Event) []string {
	var out []string
	for _, ev := range evs {
		switch {
		case ev.Header != nil:
			out = append(out, "header")
		case ev.Entries != nil:
			for _, e := range ev.Entries {
				out = append(out, "cycle "+strings.TrimSpace(e.Pod.Name))
			}
		case ev.State != nil:
			out = append(out, "state "+ev.State.State)
		case ev.Problem != nil:
			out = append(out, "problem: "+ev.Problem.Error())
		case ev.Done:
			out = append(out, "end")
		}
	}
	return out
}

func TestIndexRecordingSendsEntriesProblemsAndTheEnd(t *testing.T) {
	data := unended(t, "../../../tui/testdata/default.rec")
	path := filepath.Join(t.TempDir(), "r.rec")
	torn := append(data, data[len(data)/2:len(data)/2+40]...) // a last line cut short
	if err := os.WriteFile(path, torn, 0o600); err != nil {
		t.Fatal(err)
	}
	evs, files := indexEvents(t, path, false, func([]source.Event) bool { return false })
	want := []string{"header", "state indexing", "cycle web", "cycle api", "cycle trainer", "cycle huge",
		"problem: " + path + ": recording ends with a torn record at byte " + strconv.Itoa(len(data)) + " (kept everything before it)", "state done", "end"}
	if diff := cmp.Diff(want, summary(evs)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// Every entry opens its cycle.
	for _, ev := range evs {
		for _, e := range ev.Entries {
			if c, err := files.Open(e); err != nil || c.Seq != e.Seq || c.Pod.Name != e.Pod.Name {
				t.Errorf("Open(cycle %d) = %v, %v", e.Seq, c, err)
			}
		}
	}

	// Followed, the torn line is a record still being written: the index
	// says it follows once it waits there.
	evs, _ = indexEvents(t, path, true, func(evs []source.Event) bool {
		last := evs[len(evs)-1]
		return last.State != nil && last.State.State == source.StateFollowing
	})
	got := summary(evs)
	if got[len(got)-1] != "state "+source.StateFollowing || len(got) != 7 || strings.Contains(strings.Join(got, "\n"), "torn") {
		t.Errorf("followed: %q, want the cycles and then following, the last line not reported", got)
	}
}

// TestFollowingStopsAtTheEnd: a followed recording whose writer closed it
// ends at its end record, as one read to its end does; one whose last
// record stays unended is told as a problem once it has waited a while.
func TestFollowingStopsAtTheEnd(t *testing.T) {
	path := record(t, "preemption")
	evs, _ := indexEvents(t, path, true, func(evs []source.Event) bool { return evs[len(evs)-1].Done })
	got := summary(evs)
	if got[len(got)-1] != "end" || slices.Contains(got, "state "+source.StateFollowing) {
		t.Errorf("followed, a recording its writer ended: %q; want it to end, never following", got)
	}

	data := unended(t, "../../../tui/testdata/default.rec")
	torn := filepath.Join(t.TempDir(), "torn.rec")
	if err := os.WriteFile(torn, append(data, data[len(data)/2:len(data)/2+40]...), 0o600); err != nil {
		t.Fatal(err)
	}
	evs, _ = indexEvents(t, torn, true, func(evs []source.Event) bool { return evs[len(evs)-1].Problem != nil })
	want := "problem: " + torn + ": the last 40 bytes are a record that has not ended for 2s: its writer stopped in the middle of it, or is still writing it (kubectl schedscope verify tells)"
	if got := summary(evs); got[len(got)-1] != want || got[len(got)-2] != "state "+source.StateFollowing {
		t.Errorf("followed, a torn last record: %q; want following, then %q", got, want)
	}
}

// unended is the recording at path without its writer's end record: as a
// writer still at work, or one that was killed, leaves it.
func unended(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	end := lineOfKind(t, lines, "end", 0)
	return bytes.Join(slices.Delete(lines, end, end+1), nil)
}
