package engine

import (
	"fmt"
	"time"
)

// A stall judges a wait by progress, not by the clock: the wait may go on
// as long as progress moves (a count that only grows: objects written,
// cycles finished), and is stalled once it has not moved for limit. A run
// making a hundred thousand pods works for minutes; one whose scheduler
// stopped does nothing for a minute.
type stall struct {
	progress func() int64
	limit    time.Duration
	last     int64
	since    time.Time
}

func newStall(progress func() int64, limit time.Duration, now time.Time) *stall {
	return &stall{progress: progress, limit: limit, last: progress(), since: now}
}

// stalled reports whether progress has not moved for the limit by now; if
// it moved since the last look, the limit starts again.
func (s *stall) stalled(now time.Time) bool {
	if p := s.progress(); p != s.last {
		s.last, s.since = p, now
	}
	return now.Sub(s.since) >= s.limit
}

// restart starts the limit again at now, as if progress had been made
// (time paused at the gate does not count).
func (s *stall) restart(now time.Time) { s.since = now }

// left is how long from now the limit has to run.
func (s *stall) left(now time.Time) time.Duration { return s.limit - now.Sub(s.since) }

// progress counts what a run has done so far: the objects it wrote to the
// in-memory API server and the cycles it finished.
func (e *Engine) progress() int64 {
	e.mu.Lock()
	n := int64(e.emitted)
	e.mu.Unlock()
	return n + e.events.total()
}

// stuck is the error of a wait that stalled while the scheduler was doing
// why (busy's words).
func stuck(limit time.Duration, why string) error {
	return fmt.Errorf("scheduler stuck: no cycle finished and no object written for %v; still %s", limit, why)
}
