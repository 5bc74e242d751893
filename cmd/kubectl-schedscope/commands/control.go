package commands

import (
	"context"
	"fmt"
	"path"
	"sync"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
)

// liveControl pauses, steps and breaks the engine for the TUI. The engine calls
// Gate before each scheduling cycle and Observe after each recorded cycle; the
// TUI calls the source.Controller methods. Once closed (the run ended or the
// session is over) the controls change nothing and report nothing.
type liveControl struct {
	mu     sync.Mutex
	wake   chan struct{} // closed and replaced whenever the state changes
	paused bool
	steps  int // cycles allowed to start while paused
	why    string
	bp     source.Breakpoints
	closed bool
	// report receives every state change; it must not block for long.
	report func(source.EngineState)
	counts func() (active, backoff int)
}

var _ source.Controller = (*liveControl)(nil)

func newLiveControl(report func(source.EngineState)) *liveControl {
	return &liveControl{wake: make(chan struct{}), report: report}
}

// changed wakes waiters and reports the state; call with mu held.
func (l *liveControl) changed() {
	close(l.wake)
	l.wake = make(chan struct{})
	l.reportLocked()
}

// reportLocked reports the state; call with mu held. A closed control reports
// nothing: there is no engine left whose state it could be.
func (l *liveControl) reportLocked() {
	if l.report == nil || l.closed {
		return
	}
	st := source.EngineState{State: source.StateRunning}
	if l.paused {
		st.State, st.Why = source.StatePaused, l.why
	}
	if l.counts != nil {
		st.Active, st.Backoff = l.counts()
	}
	l.report(st)
}

// Pause stops new cycles from starting.
func (l *liveControl) Pause() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.paused, l.steps, l.why = true, 0, "paused by you"
	l.changed()
}

// startPaused pauses before the first cycle, saying why; the state is
// reported once the session's source sets where to.
func (l *liveControl) startPaused(why string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.paused, l.steps, l.why = true, 0, why
}

// Resume lets cycles start again.
func (l *liveControl) Resume() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.paused, l.steps, l.why = false, 0, ""
	l.changed()
}

// Step lets one more cycle start, then pauses.
func (l *liveControl) Step() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.paused, l.steps, l.why = true, 1, "stepping one cycle"
	l.changed()
}

// SetBreakpoints replaces the breakpoints.
func (l *liveControl) SetBreakpoints(bp source.Breakpoints) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.bp = bp
	l.changed()
}

// setReport sets where state changes are reported: the session's source
// sets it when it starts sending.
func (l *liveControl) setReport(report func(source.EngineState)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.report = report
}

// setCounts gives the control the engine's queue counts for its reports.
func (l *liveControl) setCounts(counts func() (active, backoff int)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.counts = counts
}

// queueCounts returns the engine's queue counts, if the control has them.
func (l *liveControl) queueCounts() (active, backoff int) {
	l.mu.Lock()
	counts := l.counts
	l.mu.Unlock()
	if counts == nil {
		return 0, 0
	}
	return counts()
}

// Refresh reports the current state again (after something else, such as a
// lost connection, was shown in its place).
func (l *liveControl) Refresh() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reportLocked()
}

// Close releases a waiting Gate for good, as when the run or the session ends;
// later control calls are ignored. It may be called more than once.
func (l *liveControl) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.closed = true
	close(l.wake)
	l.wake = make(chan struct{})
}

// matchPod reports whether pattern matches the pod's namespace/name or name.
func matchPod(pattern string, pod recorder.PodRef) bool {
	if pattern == "" {
		return false
	}
	if ok, _ := path.Match(pattern, pod.Key()); ok {
		return true
	}
	ok, _ := path.Match(pattern, pod.Name)
	return ok
}

// Gate blocks while the engine is paused. pod is the pod whose cycle is about
// to start; a matching pod breakpoint pauses before it.
func (l *liveControl) Gate(ctx context.Context, pod recorder.PodRef) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.paused && matchPod(l.bp.Pod, pod) {
		l.paused, l.steps, l.why = true, 0, "breakpoint: pod "+pod.Key()
		l.changed()
	}
	for l.paused && l.steps == 0 && !l.closed {
		wake := l.wake
		l.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			l.mu.Lock()
			return ctx.Err()
		}
		l.mu.Lock()
	}
	if l.paused && l.steps > 0 {
		l.steps--
		l.why = "stepped one cycle"
		l.changed()
	}
	return nil
}

// Observe pauses after a cycle that ends the way a breakpoint asks for.
func (l *liveControl) Observe(c *recorder.Cycle) {
	l.mu.Lock()
	defer l.mu.Unlock()
	hit := (l.bp.Unschedulable && c.Outcome.Result == recorder.ResultUnschedulable) ||
		(l.bp.Error && c.Outcome.Result == recorder.ResultError)
	if hit && !l.paused {
		l.paused, l.steps = true, 0
		l.why = fmt.Sprintf("breakpoint: cycle %d ended %s", c.Seq, c.Outcome.Result)
		l.changed()
	}
}
