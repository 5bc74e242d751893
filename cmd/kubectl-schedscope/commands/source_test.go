package commands

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/source"
)

// fakeRun is a fixture's run made of events given in advance: what
// explain, record and sim read in place of the engine. With endless it
// sends its last event again until a send fails.
type fakeRun struct {
	events  []source.Event
	fx      *fixture.Fixture
	err     error
	endless bool

	mu      sync.Mutex
	stopped error // what Run returned
}

var _ fixtureRun = (*fakeRun)(nil)

func (f *fakeRun) Run(ctx context.Context, send func(source.Event) bool) (err error) {
	defer func() {
		f.mu.Lock()
		f.stopped = err
		f.mu.Unlock()
	}()
	for _, ev := range f.events {
		if !send(ev) {
			return errors.Join(errStopped, ctx.Err())
		}
	}
	for f.endless {
		if !send(f.events[len(f.events)-1]) {
			return errors.Join(errStopped, ctx.Err())
		}
	}
	return f.err
}

func (f *fakeRun) fixture() *fixture.Fixture { return f.fx }

func (f *fakeRun) stoppedEarly() int { return 0 }

// errStopped is what a fake returns when a send failed.
var errStopped = errors.New("a send failed")

// defaultRecording is tui/testdata/default.rec: real cycles of the default
// fixture, with queue events.
func defaultRecording(t *testing.T) *recorder.Recording {
	t.Helper()
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "..", "tui", "testdata", "default.rec"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Cycles) < 2 {
		t.Fatalf("default.rec has %d cycles", len(rec.Cycles))
	}
	return rec
}

// sessionOf is a fixture's session as its source sends it: the header, the
// queue events, the cycles in the order given, the pods never attempted
// and the end.
func sessionOf(rec *recorder.Recording, cycles []*recorder.Cycle, never []recorder.PodState) []source.Event {
	evs := []source.Event{{Header: &rec.Header}}
	for _, q := range rec.Queue {
		evs = append(evs, source.Event{Queue: q})
	}
	for _, c := range cycles {
		evs = append(evs, source.Event{Cycle: c})
	}
	return append(evs, source.Event{NeverAttempted: never}, source.Event{State: &source.EngineState{State: source.StateDone}}, source.Event{Done: true})
}

func eventNames(evs []source.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		switch {
		case ev.Header != nil:
			out[i] = "header"
		case ev.Cycle != nil:
			out[i] = "cycle " + ev.Cycle.Pod.Name
		case ev.Queue != nil:
			out[i] = "queue " + ev.Queue.Pod.Name
		case ev.Observed != nil:
			out[i] = "observed " + ev.Observed.Pod.Name
		case ev.State != nil:
			out[i] = "state " + ev.State.State
		case ev.Problem != nil:
			out[i] = "problem: " + ev.Problem.Error()
		case ev.NeverAttempted != nil:
			out[i] = "never attempted"
		case ev.Done:
			out[i] = "done"
		}
	}
	return out
}

func TestConsumeHandsEventsInOrder(t *testing.T) {
	web, api := &recorder.Cycle{Pod: recorder.PodRef{Name: "web"}}, &recorder.Cycle{Pod: recorder.PodRef{Name: "api"}}
	src := &fakeRun{events: []source.Event{{Header: &recorder.Header{}}, {Cycle: web}, {Cycle: api}, {Done: true}}}
	var got []source.Event
	if err := consume(context.Background(), src, func(ev source.Event) error { got = append(got, ev); return nil }); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"header", "cycle web", "cycle api", "done"}, eventNames(got)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestConsumeStopsTheSourceOnError is a reader that cannot go on (record's
// header cannot be written): the source is stopped, and the reader's
// error, not the source's, is what the command returns.
func TestConsumeStopsTheSourceOnError(t *testing.T) {
	full := errors.New("disk full")
	src := &fakeRun{events: []source.Event{{Header: &recorder.Header{}}, {Cycle: &recorder.Cycle{}}}, endless: true}
	n := 0
	err := consume(context.Background(), src, func(ev source.Event) error {
		n++
		if ev.Cycle != nil {
			return full
		}
		return nil
	})
	if !errors.Is(err, full) {
		t.Errorf("consume = %v, want %v", err, full)
	}
	if n != 2 || !errors.Is(src.stopped, errStopped) || !errors.Is(src.stopped, context.Canceled) {
		t.Errorf("handled %d events; the source returned %v, want it stopped and cancelled after the second", n, src.stopped)
	}
}

// TestExplainReadsItsSource runs explain over a fake run: what it prints
// is what the source sent, cycles in sequence order, with the pods the
// source said were never attempted.
func TestExplainReadsItsSource(t *testing.T) {
	rec := defaultRecording(t)
	reversed := slices.Clone(rec.Cycles)
	slices.Reverse(reversed)
	gated := recorder.PodState{Pod: recorder.PodRef{Namespace: "default", Name: "gated"}, State: recorder.PodGated, Gates: []string{"example.com/quota"}}
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	o := &ExplainOptions{simOptions: newSimOptions(streams), Output: "json"}
	o.source = &fakeRun{events: sessionOf(rec, reversed, []recorder.PodState{gated}), fx: &fixture.Fixture{Name: "fake.yaml"}}
	if err := o.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Header struct {
			Source recorder.Source `json:"source"`
		} `json:"header"`
		Cycles []struct {
			Seq int             `json:"seq"`
			Pod recorder.PodRef `json:"pod"`
		} `json:"cycles"`
		Pods []recorder.PodState `json:"pods"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, c := range doc.Cycles {
		got = append(got, c.Pod.Name)
	}
	for _, c := range rec.Cycles {
		want = append(want, c.Pod.Name)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
	states := map[string]string{}
	for _, p := range doc.Pods {
		states[p.Pod.Name] = p.State
	}
	if states["gated"] != recorder.PodGated || len(states) != len(rec.Cycles)+1 {
		t.Errorf("pod states %v, want the %d cycled pods and gated (Gated)", states, len(rec.Cycles))
	}
}

// TestRecordWritesItsSource runs record over a fake run: the recording
// holds what the source sent, in the order sent.
func TestRecordWritesItsSource(t *testing.T) {
	rec := defaultRecording(t)
	path := filepath.Join(t.TempDir(), "fake.rec")
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	o := &RecordOptions{simOptions: newSimOptions(streams), Output: path}
	o.source = &fakeRun{events: sessionOf(rec, rec.Cycles, nil), fx: &fixture.Fixture{Name: "fake.yaml", Pending: nil}}
	if err := o.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, err := recorder.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(recordedNames(rec), recordedNames(got)); diff != "" {
		t.Errorf("recording (-want +got):\n%s", diff)
	}
	if want := "wrote " + narrate.Count(len(rec.Cycles), "cycle") + " to " + path; !strings.HasPrefix(errOut.String(), want) {
		t.Errorf("stderr %q, want it to start %q", errOut.String(), want)
	}
}

// recordedNames names a recording's cycles and queue events.
func recordedNames(rec *recorder.Recording) []string {
	var out []string
	for _, c := range rec.Cycles {
		out = append(out, "cycle "+c.Pod.Name)
	}
	for _, q := range rec.Queue {
		out = append(out, "queue "+q.Pod.Name+" "+q.Event)
	}
	return out
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestRecordingTee is sim --record over a fake run: every event goes on to
// the debugger in order and into the recording; a recording whose header
// cannot be written ends the session with why.
func TestRecordingTee(t *testing.T) {
	rec := defaultRecording(t)
	session := sessionOf(rec, rec.Cycles, []recorder.PodState{})
	path := filepath.Join(t.TempDir(), "sim.rec")
	f, err := createRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []source.Event
	tee := &recordingTee{src: &fakeRun{events: session}, rec: &sessionRecorder{out: f}, path: path}
	if err := tee.Run(context.Background(), func(ev source.Event) bool { got = append(got, ev); return true }); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(eventNames(session), eventNames(got)); diff != "" {
		t.Errorf("events shown (-want +got):\n%s", diff)
	}
	written, err := recorder.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(recordedNames(rec), recordedNames(written)); diff != "" {
		t.Errorf("recording (-want +got):\n%s", diff)
	}

	got = nil
	src := &fakeRun{events: session}
	tee = &recordingTee{src: src, rec: &sessionRecorder{out: failingWriter{}}, path: "full.rec"}
	err = tee.Run(context.Background(), func(ev source.Event) bool { got = append(got, ev); return true })
	if err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Errorf("tee = %v, want the header's write error", err)
	}
	if names := eventNames(got); !slices.Equal(names, []string{"header", "done"}) || got[1].Err == nil {
		t.Errorf("events shown %q (last %+v), want the header and the end with the error", names, got[len(got)-1])
	}
	if !errors.Is(src.stopped, context.Canceled) {
		t.Errorf("the source returned %v, want it cancelled", src.stopped)
	}
}

// fullAfter takes n bytes, then fails every write, as a disk that fills.
type fullAfter struct{ n int }

func (w *fullAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("no space left on device")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestRecordFailsWithItsOutput is record -o - to an output that fills:
// before the header is written the run stops there; after it, the run
// goes on and the command fails naming where it wrote.
func TestRecordFailsWithItsOutput(t *testing.T) {
	tests := []struct {
		name    string
		room    int
		want    string
		stopped bool // the source was stopped at the header
	}{
		{name: "no room for the header", room: 0, want: "no space left on device", stopped: true},
		{name: "room for the header only", room: 4096, want: "standard output: no space left on device"},
	}
	rec := defaultRecording(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			streams, _, _, _ := genericiooptions.NewTestIOStreams()
			streams.Out = &fullAfter{n: tt.room}
			o := &RecordOptions{simOptions: newSimOptions(streams), Output: "-"}
			src := &fakeRun{events: sessionOf(rec, rec.Cycles, nil), fx: &fixture.Fixture{Name: "fake.yaml"}}
			o.source = src
			err := o.Run(context.Background())
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("record = %v, want an error starting %q", err, tt.want)
			}
			if got := errors.Is(src.stopped, errStopped); got != tt.stopped {
				t.Errorf("source stopped = %v (returned %v), want %v", got, src.stopped, tt.stopped)
			}
		})
	}
}
