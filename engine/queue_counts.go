package engine

import (
	"slices"
)

// openCycles counts cycles whose binding cycle has not finished yet (held
// preempting cycles are finished) or that are being handed to OnCycle. Call
// with e.mu held.
func (e *Engine) openCycles() int {
	e.trace.mu.Lock()
	defer e.trace.mu.Unlock()
	n := e.emitting
	for _, c := range e.trace.byUID {
		if !slices.Contains(e.pending, c) {
			n++
		}
	}
	return n
}

// QueueCounts returns how many pods wait in the scheduling queue's active and
// backoff queues.
func (e *Engine) QueueCounts() (active, backoff int) { return e.queueCounts() }

// queueCounts counts the pods in the scheduling queue's activeQ and backoffQ.
func (e *Engine) queueCounts() (active, backoff int) {
	q := e.sched.SchedulingQueue
	return len(q.PodsInActiveQ()), len(q.PodsInBackoffQ())
}

// retrying counts the pods in backoffQ that a run waits for: every pod but
// those whose last cycle failed with no plugin to wait for. The scheduler
// retries those after backoff alone, with the same inputs and the same result,
// for as long as it runs (a cluster with no nodes, an unreachable extender):
// their cycle is the answer. A pod an event moved to backoffQ (a preemptor
// whose victims are gone) is waited for. Members of a pod group are counted
// apart, in groups: a pod group waits out its backoff in the queue's error
// backoff queue, which an idle scheduler does not pop early
// (SchedulerPopFromBackoffQ pops the other), so a run skips the clock to it.
func (e *Engine) retrying() (pods, groups int) {
	for _, p := range e.sched.SchedulingQueue.PodsInBackoffQ() {
		e.mu.Lock()
		timeOnly := e.timeOnly[p.UID]
		e.mu.Unlock()
		switch {
		case timeOnly:
		case p.Spec.SchedulingGroup != nil:
			groups++
		default:
			pods++
		}
	}
	return pods, groups
}

// groupsSeeStep takes back the mark of every member of a failed pod group
// waiting out its backoff: the group is retried on its timer whatever
// happens, and after a step of the timeline (a node added, a pod deleted)
// its retry may end otherwise, so the run waits for it.
func (e *Engine) groupsSeeStep() {
	for _, p := range e.sched.SchedulingQueue.PodsInBackoffQ() {
		if p.Spec.SchedulingGroup != nil {
			e.mu.Lock()
			delete(e.timeOnly, p.UID)
			e.mu.Unlock()
		}
	}
}
