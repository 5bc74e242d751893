package commands

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui"
)

// gateAsync runs Gate in the background and reports when it returns.
func gateAsync(l *liveControl, pod recorder.PodRef) <-chan error {
	done := make(chan error, 1)
	go func() { done <- l.Gate(context.Background(), pod) }()
	return done
}

func passed(done <-chan error) bool {
	select {
	case <-done:
		return true
	case <-time.After(50 * time.Millisecond):
		return false
	}
}

func mustPass(t *testing.T, done <-chan error, what string) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: gate still closed", what)
	}
}

type stateLog struct {
	mu     sync.Mutex
	states []source.EngineState
}

func (s *stateLog) add(st source.EngineState) {
	s.mu.Lock()
	s.states = append(s.states, st)
	s.mu.Unlock()
}
func (s *stateLog) last() source.EngineState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.states[len(s.states)-1]
}

var web = recorder.PodRef{Namespace: "default", Name: "web-1"}

func TestControlPauseResume(t *testing.T) {
	var log stateLog
	l := newLiveControl(log.add)
	mustPass(t, gateAsync(l, web), "running engine")
	l.Pause()
	if got := log.last(); got.State != source.StatePaused {
		t.Errorf("state after Pause = %+v", got)
	}
	done := gateAsync(l, web)
	if passed(done) {
		t.Fatal("a cycle started while paused")
	}
	l.Resume()
	mustPass(t, done, "after Resume")
	if got := log.last(); got.State != source.StateRunning {
		t.Errorf("state after Resume = %+v", got)
	}
}

func TestControlStepLetsOneCycleThrough(t *testing.T) {
	l := newLiveControl(nil)
	l.Pause()
	l.Step()
	mustPass(t, gateAsync(l, web), "stepped cycle")
	done := gateAsync(l, web)
	if passed(done) {
		t.Fatal("a second cycle started after one step")
	}
	l.Step()
	mustPass(t, done, "second step")
}

func TestControlBreakpoints(t *testing.T) {
	tests := []struct {
		name  string
		bp    source.Breakpoints
		pod   recorder.PodRef
		cycle *recorder.Cycle // observed before the gate, if set
		stop  bool
		why   string
	}{
		{name: "pod glob on name", bp: source.Breakpoints{Pod: "web-*"}, pod: web, stop: true, why: "breakpoint: pod default/web-1"},
		{name: "pod glob on namespace/name", bp: source.Breakpoints{Pod: "default/web-?"}, pod: web, stop: true, why: "breakpoint: pod default/web-1"},
		{name: "other pod", bp: source.Breakpoints{Pod: "api-*"}, pod: web},
		{name: "unschedulable cycle", bp: source.Breakpoints{Unschedulable: true}, pod: web,
			cycle: &recorder.Cycle{Seq: 7, Outcome: recorder.Outcome{Result: recorder.ResultUnschedulable}}, stop: true, why: "breakpoint: cycle 7 ended Unschedulable"},
		{name: "error cycle without error breakpoint", bp: source.Breakpoints{Unschedulable: true}, pod: web,
			cycle: &recorder.Cycle{Seq: 8, Outcome: recorder.Outcome{Result: recorder.ResultError}}},
		{name: "error cycle", bp: source.Breakpoints{Error: true}, pod: web,
			cycle: &recorder.Cycle{Seq: 9, Outcome: recorder.Outcome{Result: recorder.ResultError}}, stop: true, why: "breakpoint: cycle 9 ended Error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log stateLog
			l := newLiveControl(log.add)
			l.SetBreakpoints(tt.bp)
			if tt.cycle != nil {
				l.Observe(tt.cycle)
			}
			done := gateAsync(l, tt.pod)
			if got := !passed(done); got != tt.stop {
				t.Fatalf("stopped = %v, want %v", got, tt.stop)
			}
			if !tt.stop {
				return
			}
			if got := log.last(); got.State != source.StatePaused || got.Why != tt.why {
				t.Errorf("state = %+v, want paused because %q", got, tt.why)
			}
			l.Step()
			mustPass(t, done, "step past the breakpoint")
		})
	}
}

func TestControlCloseReleasesTheGate(t *testing.T) {
	l := newLiveControl(nil)
	l.Pause()
	done := gateAsync(l, web)
	if passed(done) {
		t.Fatal("gate open while paused")
	}
	l.Close()
	mustPass(t, done, "after Close")
}

// drain returns what the stream delivered, up to its close.
func drain(t *testing.T, s *tui.Stream) []source.Event {
	t.Helper()
	var out []source.Event
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				return out
			}
			out = append(out, ev)
		case <-time.After(10 * time.Second):
			t.Fatal("the event stream was never closed")
		}
	}
}

// TestControlsAfterTheRunEnded is the README's first keypress: the fixture
// settled, the stream was closed, then the user pressed space, s and b.
func TestControlsAfterTheRunEnded(t *testing.T) {
	stream := tui.NewStream(context.Background(), 16)
	l := newLiveControl(func(st source.EngineState) { stream.Send(source.Event{State: &st}) })
	l.Refresh()
	// The run ends as sim's source and tui.Run end it: the control first,
	// then the stream.
	l.Close()
	stream.Close()
	l.Pause()
	l.Step()
	l.Resume()
	l.SetBreakpoints(source.Breakpoints{Pod: "web-*", Unschedulable: true})
	l.Refresh()
	l.Observe(&recorder.Cycle{Seq: 5, Outcome: recorder.Outcome{Result: recorder.ResultUnschedulable}})
	mustPass(t, gateAsync(l, web), "gate after the end")
	evs := drain(t, stream)
	if len(evs) != 1 || evs[0].State == nil || evs[0].State.State != source.StateRunning {
		t.Errorf("events = %+v, want only the running state reported before the end", evs)
	}
}

// TestPauseBeforeHeaderIsNotOverwritten is space pressed before the TUI's
// first frame: the pause reaches the stream before the header, and what sim
// sends with the header is the control's state, so the last word is paused.
func TestPauseBeforeHeaderIsNotOverwritten(t *testing.T) {
	stream := tui.NewStream(context.Background(), 16)
	l := newLiveControl(func(st source.EngineState) { stream.Send(source.Event{State: &st}) })
	l.Pause()
	stream.Send(source.Event{Header: &recorder.Header{}})
	l.Refresh()
	stream.Close()
	var last *source.EngineState
	for _, ev := range drain(t, stream) {
		if ev.State != nil {
			last = ev.State
		}
	}
	if last == nil {
		t.Fatal("no state reported")
	}
	if last.State != source.StatePaused || last.Why != "paused by you" {
		t.Errorf("last state = %+v, want paused by you", *last)
	}
}

// sim --paused: the first cycle waits, and one step lets exactly one cycle
// through. (TestSimShowsAPauseMadeBeforeTheHeader: a pause made before the
// session listens is shown after the header.)
func TestControlStartsPaused(t *testing.T) {
	l := newLiveControl(nil)
	l.startPaused("started with --paused")
	var log stateLog
	l.setReport(log.add)
	done := gateAsync(l, web)
	if passed(done) {
		t.Fatal("the first cycle started while paused")
	}
	l.Step()
	mustPass(t, done, "after a step")
	if passed(gateAsync(l, web)) {
		t.Error("a second cycle started after one step")
	}
}
