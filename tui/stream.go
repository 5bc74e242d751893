package tui

import (
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder/source"
)

// Stream carries a source's events to the debugger: any number of goroutines
// may Send, and a Send after the stream was closed (the source ended) or
// after ctx was cancelled (the debugger quit) drops the event instead of
// panicking or blocking.
type Stream struct {
	ctx    context.Context
	events chan source.Event
	ended  chan struct{} // closed by Close, before events is
	end    sync.Once

	mu     sync.RWMutex
	closed bool
}

// NewStream returns a stream that holds up to buffer events its reader has
// not taken yet; ctx is the reader's lifetime.
func NewStream(ctx context.Context, buffer int) *Stream {
	return &Stream{ctx: ctx, events: make(chan source.Event, buffer), ended: make(chan struct{})}
}

// Events is the channel the debugger reads (Options.Events); Close closes it.
func (s *Stream) Events() <-chan source.Event { return s.events }

// Send delivers ev unless the stream has ended or ctx is done, and reports
// whether it did. It is a Source's send.
func (s *Stream) Send(ev source.Event) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return false
	}
	select {
	case s.events <- ev:
		return true
	case <-s.ended:
	case <-s.ctx.Done():
	}
	return false
}

// Close ends the stream; later sends are dropped. It may be called more than once.
func (s *Stream) Close() {
	// Wake senders blocked on a full channel first, so that the lock can be taken.
	s.end.Do(func() { close(s.ended) })
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.events)
	}
}

// streamBuffer is how many events a source may send ahead of the screen: a
// busy cluster's burst of cycles and queue events.
const streamBuffer = 1024

// start runs src in the background, sending to a new stream that is closed
// when src returns; the channel returned gets src's error then.
func start(ctx context.Context, src source.Source) (*Stream, <-chan error) {
	s := NewStream(ctx, streamBuffer)
	done := make(chan error, 1)
	go func() {
		defer s.Close()
		done <- src.Run(ctx, s.Send)
	}()
	return s, done
}

// eventsMsg carries the events read from the source in one go; closed says the
// channel was closed after them.
type eventsMsg struct {
	events []source.Event
	closed bool
}

// maxBatch bounds how many already-waiting events one read collects, so that a
// fast replay renders in batches instead of once per cycle.
const maxBatch = 256

// waitForEvents reads the next events from ch. The root model re-arms it after
// every eventsMsg until the channel closes.
func waitForEvents(ch <-chan source.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return eventsMsg{closed: true}
		}
		msg := eventsMsg{events: []source.Event{ev}}
		for len(msg.events) < maxBatch {
			select {
			case ev, ok := <-ch:
				if !ok {
					msg.closed = true
					return msg
				}
				msg.events = append(msg.events, ev)
			default:
				return msg
			}
		}
		return msg
	}
}

// controlDoneMsg reports that a Controller call returned.
type controlDoneMsg struct{}

// control calls the controller in a Cmd, off the update loop.
func control(f func()) tea.Cmd {
	return func() tea.Msg {
		f()
		return controlDoneMsg{}
	}
}
