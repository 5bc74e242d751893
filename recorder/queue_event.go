package recorder

import (
	"fmt"
	"time"
)

// Scheduling queue names, as pkg/scheduler/backend/queue names them in its
// logs and metrics; a pod taken by a cycle is in none of them.
const (
	QueueActive        = "Active"
	QueueBackoff       = "Backoff"
	QueueUnschedulable = "Unschedulable"
)

// Queue operations: what happened to a pod in the scheduling queue.
const (
	// QueueAdd: the pod arrived (an unscheduled pod was created).
	QueueAdd = "Add"
	// QueueUpdate: the pod was updated while queued.
	QueueUpdate = "Update"
	// QueueDelete: the pod left the queue (deleted, or bound by someone else).
	QueueDelete = "Delete"
	// QueueMove: the pod moved to another queue (To), after a failed cycle or
	// because of a cluster event (Event), or a flush.
	QueueMove = "Move"
	// QueueSkip: a cluster event was checked against the pod and every
	// plugin's QueueingHint said QueueSkip: the pod stayed where it was.
	QueueSkip = "Skip"
)

// Flushes: the scheduling queue's own periodic moves.
const (
	// FlushBackoffCompleted is flushBackoffQCompleted: pods whose backoff
	// ended move from backoffQ to activeQ (event BackoffComplete).
	FlushBackoffCompleted = "flushBackoffQCompleted"
	// FlushUnschedulableLeftover is flushUnschedulableEntitiesLeftover: pods
	// unschedulable for longer than podMaxInUnschedulablePodsDuration move to
	// activeQ or backoffQ (event UnschedulableTimeout).
	FlushUnschedulableLeftover = "flushUnschedulableEntitiesLeftover"
)

// QueueEvent is one thing the scheduling queue did with a pod, taken from
// the queue itself: the calls the scheduler made on it, the moves it logged
// and the queueing hints its plugins returned.
type QueueEvent struct {
	// Seq orders queue events within a run, from 1; they are written in
	// that order.
	Seq  int       `json:"seq"`
	Time time.Time `json:"time"`
	Pod  PodRef    `json:"pod"`
	Op   string    `json:"operation"`
	// From and To are queue names (QueueActive, …); From is empty for a pod
	// that was in a cycle or new, To is empty for a deleted pod.
	From string `json:"fromQueue,omitempty"`
	To   string `json:"toQueue,omitempty"`
	// Event is the label of the cluster event (framework.ClusterEvent) that
	// caused the operation: NodeAdd, AssignedPodDelete, ScheduleAttemptFailure,
	// BackoffComplete, UnschedulableTimeout, …
	Event string `json:"event,omitempty"`
	// Hints are the QueueingHints the pod's rejecting plugins returned for
	// the event, in the order the queue asked them.
	Hints []QueueHint `json:"hints,omitempty"`
	// Flush names the queue's periodic flush that made the move, if any.
	Flush string `json:"flush,omitempty"`
	// Gated says PreEnqueue plugins held the pod back (it went to the
	// unschedulable pods instead of activeQ or backoffQ).
	Gated bool `json:"gated,omitempty"`
	// GatedBy names the PreEnqueue plugin that held a Gated pod back, and
	// GateReasons are its status's reasons.
	GatedBy     string   `json:"gatedBy,omitempty"`
	GateReasons []string `json:"gateReasons,omitempty"`
	// PodGroup is set when the queue moved a pod group (its members
	// together) rather than a pod; Pod then names the group too, as older
	// readers read it.
	PodGroup *PodGroupRef `json:"podGroup,omitempty"`
	// Attempts is how many cycles the pod has had.
	Attempts int `json:"attempts,omitempty"`
	// Backoff is how long a pod moved to backoffQ waits from its last
	// failure, and BackoffUntil when its backoff ends, as the queue computed
	// them.
	Backoff      Duration  `json:"backoff,omitempty"`
	BackoffUntil time.Time `json:"backoffUntil,omitzero"`
}

// QueueHint is what one plugin's QueueingHintFn returned for one event.
type QueueHint struct {
	Plugin string `json:"plugin"`
	// Event is the cluster event's label.
	Event string `json:"event,omitempty"`
	// Hint is Queue or QueueSkip; Error when the function failed (the queue
	// then treats it as Queue).
	Hint  string `json:"hint"`
	Error string `json:"error,omitempty"`
}

// Queueing hint results, spelled as fwk.QueueingHint and upstream's metrics.
const (
	HintQueue     = "Queue"
	HintQueueSkip = "QueueSkip"
	HintError     = "Error"
)

// Woke returns the hints that said Queue (or failed, which the queue
// treats as Queue).
func (e *QueueEvent) Woke() []QueueHint {
	var out []QueueHint
	for _, h := range e.Hints {
		if h.Hint != HintQueueSkip {
			out = append(out, h)
		}
	}
	return out
}

// checkQueueEvent rejects a queue record that is not numbered or names no
// pod or operation.
func checkQueueEvent(e *QueueEvent) error {
	switch {
	case e.Seq < 1:
		return fmt.Errorf("queue event: seq is %d: queue events are numbered from 1", e.Seq)
	case e.Pod.Name == "":
		return fmt.Errorf("queue event %d: pod.name is empty", e.Seq)
	case e.Op == "":
		return fmt.Errorf("queue event %d: operation is empty", e.Seq)
	case e.Backoff < 0:
		return fmt.Errorf("queue event %d: backoff %v is negative", e.Seq, e.Backoff)
	}
	return nil
}
