package engine

import (
	"sync"
	"sync/atomic"
	"time"

	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/utils/clock"
)

// Sampling: on clusters of up to timeAllNodes nodes every call is timed; on
// larger ones, calls on about one node in sampleEvery (picked by the node's
// cache generation), and the sum is scaled up to all calls. A plugin's Filter
// runs thousands of times per cycle on a large cluster, and reading the clock
// around each call cost more than many plugins themselves; upstream samples its
// plugin metrics likewise.
const (
	timeAllNodes = 64
	sampleEvery  = 16
)

// sampled reports whether calls on node should be timed.
func sampled(timeAll bool, node fwk.NodeInfo) bool {
	return timeAll || node.GetGeneration()%sampleEvery == 0
}

// callTimer sums the sampled call durations of one plugin in one cycle.
type callTimer struct {
	timed, nanos atomic.Int64
}

// begin returns a call's start time, or 0 if it is not sampled.
func (t *callTimer) begin(sample bool) int64 {
	if sample {
		return nanotime()
	}
	return 0
}

// end records a sampled call.
func (t *callTimer) end(start int64) {
	if start != 0 {
		t.nanos.Add(nanotime() - start)
		t.timed.Add(1)
	}
}

// total estimates the summed time of calls calls from the sampled ones.
func (t *callTimer) total(calls int) time.Duration {
	timed := t.timed.Load()
	if timed == 0 {
		return 0
	}
	return time.Duration(t.nanos.Load() * int64(calls) / timed)
}

// simClock is the scheduling queue's clock in a fixture run. It runs with the
// wall clock plus every wait the run skipped: when the scheduler has nothing
// left to do but wait for a timer (a pod's backoff), the run moves the clock
// to that timer's deadline instead of sleeping, so simulated seconds cost no
// wall time. Only the queue reads it (pod timestamps, backoff expiry and the
// backoffQ flush); Permit timeouts run on the framework's own timers.
type simClock struct {
	mu      sync.Mutex
	skipped time.Duration
	timers  map[*simTimer]bool // armed timers and tickers
	changed *changes           // the clock skipped or a timer was re-armed
}

var _ clock.WithTicker = (*simClock)(nil)

func newSimClock() *simClock {
	return &simClock{timers: map[*simTimer]bool{}, changed: newChanges()}
}

func (c *simClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.skipped)
}

func (c *simClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

func (c *simClock) After(d time.Duration) <-chan time.Time { return c.NewTimer(d).C() }

func (c *simClock) Tick(d time.Duration) <-chan time.Time { return c.NewTicker(d).C() }

func (c *simClock) Sleep(d time.Duration) { <-c.After(d) }

func (c *simClock) NewTimer(d time.Duration) clock.Timer {
	t := &simTimer{c: c, ch: make(chan time.Time, 1)}
	t.Reset(d)
	return t
}

func (c *simClock) NewTicker(d time.Duration) clock.Ticker {
	t := &simTimer{c: c, ch: make(chan time.Time, 1), period: d}
	t.Reset(d)
	return simTicker{t}
}

// simTicker is a periodic simTimer as a clock.Ticker.
type simTicker struct{ t *simTimer }

func (t simTicker) C() <-chan time.Time { return t.t.C() }
func (t simTicker) Stop()               { t.t.Stop() }

// Skipped returns the wall time the clock has skipped so far.
func (c *simClock) Skipped() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.skipped
}

// skipToNextTimer moves the clock to the earliest armed timer's deadline, if
// it lies ahead, and reports whether a timer is armed.
func (c *simClock) skipToNextTimer() bool {
	c.mu.Lock()
	var next time.Time
	for t := range c.timers {
		if next.IsZero() || t.deadline.Before(next) {
			next = t.deadline
		}
	}
	if next.IsZero() {
		c.mu.Unlock()
		return false
	}
	if d := next.Sub(time.Now().Add(c.skipped)); d > 0 {
		c.skipped += d
	}
	c.mu.Unlock()
	c.changed.kick()
	return true
}

// simTimer is a timer or, with a period, a ticker of a simClock. While armed,
// a goroutine waits for its deadline on the wall clock or for the clock to
// skip, whichever comes first.
type simTimer struct {
	c        *simClock
	ch       chan time.Time
	period   time.Duration
	deadline time.Time // guarded by c.mu, as is the timer's place in c.timers
	running  bool
}

func (t *simTimer) C() <-chan time.Time { return t.ch }

func (t *simTimer) Stop() bool {
	t.c.mu.Lock()
	armed := t.c.timers[t]
	delete(t.c.timers, t)
	t.c.mu.Unlock()
	t.c.changed.kick()
	return armed
}

func (t *simTimer) Reset(d time.Duration) bool {
	c := t.c
	c.mu.Lock()
	armed := c.timers[t]
	t.deadline = time.Now().Add(c.skipped + d)
	c.timers[t] = true
	start := !t.running
	t.running = true
	c.mu.Unlock()
	if start {
		go t.run()
	} else {
		c.changed.kick()
	}
	return armed
}

func (t *simTimer) run() {
	c := t.c
	for {
		changed := c.changed.wait()
		c.mu.Lock()
		if !c.timers[t] {
			t.running = false
			c.mu.Unlock()
			return
		}
		now := time.Now().Add(c.skipped)
		wait := t.deadline.Sub(now)
		if wait <= 0 {
			if t.period > 0 {
				t.deadline = t.deadline.Add(t.period)
				if t.deadline.Before(now) {
					t.deadline = now.Add(t.period)
				}
			} else {
				delete(c.timers, t)
			}
			c.mu.Unlock()
			select {
			case t.ch <- now:
			default: // as time.Ticker does, drop a tick the reader is not ready for
			}
			continue
		}
		c.mu.Unlock()
		wall := time.NewTimer(wait)
		select {
		case <-wall.C:
		case <-changed:
		}
		wall.Stop()
	}
}

// now is the time on the engine's clock: the queue's simulated clock in a
// fixture run, the wall clock otherwise.
func (e *Engine) now() time.Time {
	if e.clock != nil {
		return e.clock.Now()
	}
	return time.Now()
}
