package tui

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
)

// fakeSource sends its events in order and then returns err; sent says
// how many sends were delivered. With endless, it sends its last event
// again until a send fails, as a live cluster goes on until it is stopped.
type fakeSource struct {
	events  []source.Event
	err     error
	endless bool

	sent int
}

var _ source.Source = (*fakeSource)(nil)

func (f *fakeSource) Run(ctx context.Context, send func(source.Event) bool) error {
	for _, ev := range f.events {
		if !send(ev) {
			return ctx.Err()
		}
		f.sent++
	}
	for f.endless {
		if !send(f.events[len(f.events)-1]) {
			return ctx.Err()
		}
		f.sent++
	}
	return f.err
}

// names names events as the tests compare them.
func names(evs []source.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = eventName(ev)
	}
	return out
}

func eventName(ev source.Event) string {
	switch {
	case ev.Header != nil:
		return "header"
	case ev.Cycle != nil:
		return "cycle " + ev.Cycle.Pod.Name
	case ev.State != nil:
		return "state " + ev.State.State
	case ev.Done:
		return "done"
	}
	return "other"
}

// readAll reads a stream up to its close; a stream never closed is a hang.
func readAll(t *testing.T, ch <-chan source.Event) []source.Event {
	t.Helper()
	var out []source.Event
	hang := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return out
			}
			out = append(out, ev)
		case <-hang:
			t.Fatalf("the stream was never closed (read %v)", names(out))
		}
	}
}

// within runs a Cmd; one that never returns is a hang.
func within(t *testing.T, cmd func() tea.Msg) tea.Msg {
	t.Helper()
	msg := make(chan tea.Msg, 1)
	go func() { msg <- cmd() }()
	select {
	case m := <-msg:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("reading the stream never returned")
		return nil
	}
}

func cycleOf(name string) *recorder.Cycle {
	return &recorder.Cycle{Pod: recorder.PodRef{Namespace: "default", Name: name}}
}

// TestStartDeliversTheSourceInOrder runs a fake source as Run does: its
// events arrive in order, the stream closes when it returns, and its error
// comes after.
func TestStartDeliversTheSourceInOrder(t *testing.T) {
	failed := errors.New("the fixture failed")
	src := &fakeSource{
		events: []source.Event{{Header: &recorder.Header{}}, {Cycle: cycleOf("web")}, {State: &source.EngineState{State: source.StateDone}}, {Cycle: cycleOf("api")}, {Done: true, Err: failed}},
		err:    failed,
	}
	s, done := start(context.Background(), src)
	got := names(readAll(t, s.Events()))
	want := []string{"header", "cycle web", "state done", "cycle api", "done"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if err := <-done; !errors.Is(err, failed) {
		t.Errorf("source error = %v, want %v", err, failed)
	}
}

// TestStartStopsTheSourceWhenTheReaderQuits is the user quitting while a
// live cluster goes on: the reader's ctx ends, the source's sends fail and
// it returns.
func TestStartStopsTheSourceWhenTheReaderQuits(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	src := &fakeSource{events: []source.Event{{Header: &recorder.Header{}}, {Cycle: cycleOf("web")}}, endless: true}
	s, done := start(ctx, src)
	first := <-s.Events()
	if first.Header == nil {
		t.Fatalf("first event = %v, want the header", names([]source.Event{first}))
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("source error = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the source still runs after the reader quit")
	}
	readAll(t, s.Events()) // closed once the source returned
	if s.Send(source.Event{Done: true}) {
		t.Error("a send after the end was delivered")
	}
}

// TestStreamSendAfterClose checks that a send racing with the end of the
// source is dropped, whichever comes first, and never panics.
func TestStreamSendAfterClose(t *testing.T) {
	s := NewStream(context.Background(), 0) // unbuffered: senders block until Close
	var wg sync.WaitGroup
	delivered := make(chan bool, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			delivered <- s.Send(source.Event{Done: true})
		}()
	}
	s.Close()
	s.Close() // twice is harmless
	wg.Wait()
	close(delivered)
	for ok := range delivered {
		if ok {
			t.Error("a send nobody read reported delivery")
		}
	}
	if s.Send(source.Event{Done: true}) {
		t.Error("send after close reported delivery")
	}
	if _, ok := <-s.Events(); ok {
		t.Error("the stream is still open after close")
	}
}

// TestModelReadsASource is the debugger's intake: the model reads what a
// source sends through its stream, and the source's end ends the session.
func TestModelReadsASource(t *testing.T) {
	src := &fakeSource{events: []source.Event{{Header: &recorder.Header{}}, {Cycle: cycleOf("web")}, {Cycle: cycleOf("api")}, {Done: true}}}
	s, done := start(context.Background(), src)
	m := New(Options{Source: "fake", Events: s.Events()})
	for cmd := m.Init(); cmd != nil; {
		var next Model
		next, cmd = sendCmd(m, within(t, cmd))
		m = next
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range m.Cycles() {
		got = append(got, c.Pod.Name)
	}
	if diff := cmp.Diff([]string{"web", "api"}, got); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
	if !m.done {
		t.Error("the session is not done after the source ended")
	}
}
