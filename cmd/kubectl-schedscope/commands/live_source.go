package commands

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	livemode "github.com/schedscope/schedscope/engine/live"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
)

// liveSource is a live cluster as a source.Source: the header, what the mirror
// could not see (as problems), then each queue event, cycle and binding the
// cluster's own scheduler made as they happen, and losing and regaining the
// API server, until ctx ends. live shows it in the debugger, or prints it
// with --no-tui.
type liveSource struct {
	// live is the mirror and the engine; the engine's callbacks go to
	// cycle, queue, observed and connection.
	live mirror
	// ctl, if set, holds the engine before each cycle (the debugger's pause,
	// step and breakpoints) and reports its state as the source's.
	ctl *liveControl
	out relay
	// cycles and bindings count the cycles run and the bindings observed,
	// for the summary.
	cycles, bindings atomic.Int64

	mu     sync.Mutex
	lostAt time.Time
}

// mirror is what a live source reads of the cluster's mirror (live.Session).
type mirror interface {
	Header() recorder.Header
	// Notes and Skipped say what the mirror cannot see as the cluster's
	// scheduler does.
	Notes() []string
	Skipped() []string
	// Run schedules until ctx ends.
	Run(ctx context.Context) error
}

var (
	_ source.Source = (*liveSource)(nil)
	_ mirror        = (*livemode.Session)(nil)
)

// Run sends the session until ctx ends. The header comes first, as the
// lines of live --no-tui -o json promise, then what the mirror reported
// while it was built.
func (s *liveSource) Run(ctx context.Context, send func(source.Event) bool) error {
	h := s.live.Header()
	send(source.Event{Header: &h})
	// The control reports its own state (a pause pressed early stays shown).
	if s.ctl != nil {
		s.ctl.setReport(func(st source.EngineState) { send(source.Event{State: &st}) })
		s.ctl.Refresh()
	} else {
		send(source.Event{State: &source.EngineState{State: source.StateRunning}})
	}
	for _, n := range s.live.Notes() {
		send(source.Event{Problem: errors.New(n)})
	}
	for _, k := range s.live.Skipped() {
		send(source.Event{Problem: fmt.Errorf("the cluster does not serve %s; the scheduler sees none", k)})
	}
	s.out.start(send)
	defer s.out.stop()
	return s.live.Run(ctx)
}

func (s *liveSource) queue(ev *recorder.QueueEvent) { s.out.send(source.Event{Queue: ev}) }

// podGroup passes on a pod-group cycle (GenericWorkload on), as a fixture
// run does.
func (s *liveSource) podGroup(g *recorder.PodGroupCycle) { s.out.send(source.Event{PodGroup: g}) }

func (s *liveSource) observed(ob *recorder.Observed) {
	s.bindings.Add(1)
	s.out.send(source.Event{Observed: ob})
}

func (s *liveSource) cycle(c *recorder.Cycle) {
	s.cycles.Add(1)
	s.out.send(source.Event{Cycle: c})
	if s.ctl != nil {
		s.ctl.Observe(c)
	}
}

// connection tells of losing and regaining the API server. States are sent
// in order, from the caller's goroutine; on reconnection the controller
// reports its own state (running or paused) again.
func (s *liveSource) connection(err error) {
	s.mu.Lock()
	var events []source.Event
	back := false
	switch {
	case err != nil && s.lostAt.IsZero():
		s.lostAt = time.Now()
		events = append(events,
			source.Event{Problem: fmt.Errorf("lost the API server since %s: %w", s.lostAt.Format("15:04:05"), err)},
			source.Event{State: &source.EngineState{State: source.StateDisconnected, Why: "since " + s.lostAt.Format("15:04:05")}})
	case err == nil && !s.lostAt.IsZero():
		gap := time.Since(s.lostAt).Round(time.Second)
		s.lostAt = time.Time{}
		events = append(events, source.Event{Problem: fmt.Errorf("connection to the API server is back after %v; missed changes were relisted", gap)})
		back = true
	}
	s.mu.Unlock()
	for _, ev := range events {
		s.out.send(ev)
	}
	switch {
	case back && s.ctl != nil:
		s.ctl.Refresh()
	case back:
		s.out.send(source.Event{State: &source.EngineState{State: source.StateRunning}})
	}
}

// relay passes what the engine reports on to the send that Run was given;
// what it reports before (the mirror filling the queue) is held and passed
// on first. Once stopped it passes nothing on: the engine's last cycles,
// finishing after the session ended, find the recording closed.
type relay struct {
	// mu is held for reading while an event is passed on, so that stop
	// waits for those in flight.
	mu      sync.RWMutex
	to      func(source.Event) bool
	stopped bool

	heldMu sync.Mutex
	held   []source.Event
}

func (r *relay) send(ev source.Event) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	switch {
	case r.to != nil:
		return r.to(ev)
	case r.stopped:
		return false
	}
	r.heldMu.Lock()
	defer r.heldMu.Unlock()
	r.held = append(r.held, ev)
	return true
}

// start passes on what was held, then everything as it comes, to send.
func (r *relay) start(send func(source.Event) bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ev := range r.held {
		send(ev)
	}
	r.held, r.to = nil, send
}

// stop passes nothing on from now, once the events in flight are.
func (r *relay) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.held, r.to, r.stopped = nil, nil, true
}
