package commands

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
)

// fakeCluster is a cluster's mirror whose Run plays a script on the source
// (the engine's callbacks), then returns.
type fakeCluster struct {
	header recorder.Header
	notes  []string
	run    func()
}

var _ mirror = (*fakeCluster)(nil)

func (f *fakeCluster) Header() recorder.Header { return f.header }
func (f *fakeCluster) Notes() []string         { return f.notes }
func (f *fakeCluster) Skipped() []string       { return []string{"resourceslices"} }
func (f *fakeCluster) Run(context.Context) error {
	f.run()
	return nil
}

// eventLog collects what a source sends, from any goroutine.
type eventLog struct {
	mu  sync.Mutex
	evs []source.Event
}

func (l *eventLog) send(ev source.Event) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.evs = append(l.evs, ev)
	return true
}

// TestLiveSourceSendsTheSession runs a live source over a fake cluster:
// the header comes first, then the state, what the mirror cannot see, what
// it reported while it was built, and the session with the API server lost
// and back.
func TestLiveSourceSendsTheSession(t *testing.T) {
	web := recorder.PodRef{Namespace: "default", Name: "web"}
	s := &liveSource{}
	s.live = &fakeCluster{notes: []string{"no metrics"}, run: func() {
		s.cycle(&recorder.Cycle{Seq: 1, Pod: web})
		s.connection(errors.New("connection refused"))
		s.connection(errors.New("connection refused")) // still lost: said once
		s.connection(nil)
		s.observed(&recorder.Observed{Pod: web, Node: "node-a"})
	}}
	s.queue(&recorder.QueueEvent{Pod: web, Op: recorder.QueueAdd}) // the mirror filling the queue
	var log eventLog
	if err := s.Run(context.Background(), log.send); err != nil {
		t.Fatal(err)
	}
	got := eventNames(log.evs)
	for i, name := range got {
		// Times vary: keep the words.
		if before, _, ok := strings.Cut(name, " since "); ok {
			got[i] = before
		}
		if before, _, ok := strings.Cut(name, " after "); ok {
			got[i] = before
		}
	}
	want := []string{
		"header", "state running", "problem: no metrics",
		"problem: the cluster does not serve resourceslices; the scheduler sees none",
		"queue web", "cycle web", "problem: lost the API server", "state disconnected",
		"problem: connection to the API server is back", "state running", "observed web",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestLiveSourceUnderControl is the debugger's live session: the control
// reports the state, and a cycle that ends as a breakpoint asks pauses it.
func TestLiveSourceUnderControl(t *testing.T) {
	ctl := newLiveControl(nil)
	defer ctl.Close()
	ctl.SetBreakpoints(source.Breakpoints{Unschedulable: true})
	s := &liveSource{ctl: ctl}
	s.live = &fakeCluster{run: func() {
		s.cycle(&recorder.Cycle{Seq: 3, Outcome: recorder.Outcome{Result: recorder.ResultUnschedulable}})
	}}
	var log eventLog
	if err := s.Run(context.Background(), log.send); err != nil {
		t.Fatal(err)
	}
	var states []string
	for _, ev := range log.evs {
		if ev.State != nil {
			states = append(states, ev.State.State+" "+ev.State.Why)
		}
	}
	if diff := cmp.Diff([]string{"running ", "paused breakpoint: cycle 3 ended Unschedulable"}, states); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
}

// TestLiveNoTUIPrintsItsSource is live --no-tui -o json over a fake
// session: a header line, then a line for each cycle, binding and problem.
func TestLiveNoTUIPrintsItsSource(t *testing.T) {
	web := recorder.PodRef{Namespace: "default", Name: "web"}
	src := &fakeRun{events: []source.Event{
		{Header: &recorder.Header{KubernetesVersion: "v1.37.1"}},
		{State: &source.EngineState{State: source.StateRunning}},
		{Problem: errors.New("no metrics")},
		{Cycle: &recorder.Cycle{Seq: 1, Pod: web, Outcome: recorder.Outcome{Result: recorder.ResultBound, Node: "node-a"}}},
		{Observed: &recorder.Observed{Pod: web, Node: "node-a"}},
	}}
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	o := &LiveOptions{NoTUI: true, Output: "json", streams: streams}
	if err := o.show(context.Background(), src, "cluster fake", nil, nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		key, _, _ := strings.Cut(strings.TrimPrefix(line, `{"`), `"`)
		got = append(got, key)
	}
	// A bound cycle also moves the pod's state: a pod line follows it.
	want := []string{"format", "problem", "cycle", "pod", "observed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON lines by first key (-want +got):\n%s\noutput:\n%s", diff, out.String())
	}
}

// TestFlightRecorder is live --record over a fake session: the cycles,
// queue events and bindings are recorded, and everything goes on in order.
func TestFlightRecorder(t *testing.T) {
	web := recorder.PodRef{Namespace: "default", Name: "web"}
	session := []source.Event{
		{Header: &recorder.Header{KubernetesVersion: "v1.37.1"}},
		{Queue: &recorder.QueueEvent{Seq: 1, Pod: web, Op: recorder.QueueAdd, Event: "UnscheduledPodAdd"}},
		{Cycle: &recorder.Cycle{Seq: 1, Pod: web, Outcome: recorder.Outcome{Result: recorder.ResultBound, Node: "node-a"}}},
		{Observed: &recorder.Observed{Pod: web, Node: "node-a"}},
		{State: &source.EngineState{State: source.StateRunning}},
	}
	path := filepath.Join(t.TempDir(), "flight.rec")
	fr, err := newFlightRecorder(&fakeRun{events: session}, path, *session[0].Header, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	var log eventLog
	if err := fr.Run(context.Background(), log.send); err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	fr.close(&errOut)
	if err := fr.err(); err != nil || errOut.Len() > 0 {
		t.Fatalf("write error %v, stderr %q", err, errOut.String())
	}
	if diff := cmp.Diff(eventNames(session), eventNames(log.evs)); diff != "" {
		t.Errorf("events passed on (-want +got):\n%s", diff)
	}
	rec, err := recorder.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := recordedNames(rec)
	for _, ob := range rec.Observed {
		got = append(got, "observed "+ob.Pod.Name)
	}
	if diff := cmp.Diff([]string{"cycle web", "queue web UnscheduledPodAdd", "observed web"}, got); diff != "" {
		t.Errorf("recording (-want +got):\n%s", diff)
	}
}
