// Package source is the protocol between what a session comes from — a
// fixture's run, a recording, a live cluster, each implemented in cmd/ —
// and what consumes its events: the debugger (tui) and the headless
// commands (explain, record, replay -o …), which import this package and
// not the debugger's.
package source

import (
	"context"

	"github.com/schedscope/schedscope/recorder"
)

// Source is where a session's events come from: a fixture's run, a
// recording or a live cluster; cmd/ implements one for each. The debugger
// (Run) and the headless outputs consume the same events.
type Source interface {
	// Run sends the source's events, in order, until it has nothing more to
	// send or ctx is done, and returns why it stopped (nil when it ended).
	// send may be called from several goroutines; it returns false once the
	// events are no longer read, and a source may stop sending then (the
	// reader also ends ctx).
	Run(ctx context.Context, send func(Event) bool) error
}

// Event is one thing a source delivers: the header, a finished cycle, a change of
// the engine's state, a problem, or the end of the source. Exactly one field is set.
type Event struct {
	Header *recorder.Header
	Cycle  *recorder.Cycle
	// Entries are cycles a replay has indexed, in recording order; the TUI
	// opens them through Options.Recording when they are shown.
	Entries []recorder.CycleEntry
	// Progress says how far indexing a replay has come.
	Progress *Progress
	// Observed is a binding made by a live cluster's own scheduler.
	Observed *recorder.Observed
	// Queue is a scheduling queue event (a pod added, moved, woken, …).
	Queue *recorder.QueueEvent
	// PodGroup is a finished pod-group cycle; its members' cycles are
	// Cycle events of their own.
	PodGroup *recorder.PodGroupCycle
	State    *EngineState
	// NeverAttempted are the pods the source knows never got a cycle (held
	// by scheduling gates, for another scheduler, …), with why; a fixture's
	// run sends them when it ends.
	NeverAttempted []recorder.PodState
	// Cluster is what a fixture run's controllers left at its end: its
	// workloads and their pods, its budgets, its claims.
	Cluster *recorder.ClusterState
	// Problem is a non-fatal issue (a corrupt record skipped, a lost connection);
	// it is shown in the status bar and the session goes on.
	Problem error
	// Done says the source has nothing more to send (the fixture settled, or the
	// recording ended and is not being followed). Err is why, if it failed.
	Done bool
	Err  error
}

// Progress is how much of a recording a replay has indexed.
type Progress struct {
	Read, Size int64
}

// Recording opens the cycles of a replay again by their index entries. Its
// methods read the file: the TUI calls them in a tea.Cmd, never in Update or
// View, and may call them from several goroutines.
type Recording interface {
	// Open reads the cycle of an entry. With a problem (recorder.IsProblem)
	// it may still return the cycle: one whose node set is missing.
	Open(e recorder.CycleEntry) (*recorder.Cycle, error)
	// Usage rebuilds what was placed on each node as the last of entries
	// saw it (recorder.UsageAt), reading the node use their records carry.
	Usage(entries []recorder.CycleEntry) (*recorder.Usage, error)
}

// Engine run states shown in the status bar.
const (
	StateRunning   = "running"
	StatePaused    = "paused"
	StateIdle      = "idle"      // nothing to schedule right now
	StateDone      = "done"      // the source finished
	StateFollowing = "following" // replay waiting for more records
	StateIndexing  = "indexing"  // replay reading the recording through once
	// StateDisconnected: live mode lost the API server and is retrying; cycles
	// stop until it is back (Why says since when and the last error).
	StateDisconnected = "disconnected"
)

// EngineState is the live engine's state.
type EngineState struct {
	State string
	// Why says what paused the engine, e.g. "breakpoint: pod default/web-2".
	Why string
	// Active and Backoff count pods waiting in the scheduling queue.
	Active, Backoff int
}

// Breakpoints pause the engine. A zero value pauses nothing.
type Breakpoints struct {
	// Pod is a pattern (path.Match syntax, on namespace/name or name); the engine
	// pauses before a cycle starts for a matching pod.
	Pod string
	// Unschedulable and Error pause the engine after a cycle ends that way.
	Unschedulable bool
	Error         bool
}

// Controller drives a live engine. Replays have none.
type Controller interface {
	// Pause stops new cycles from starting; a cycle already running finishes.
	Pause()
	// Resume lets cycles start again.
	Resume()
	// Step lets exactly one more cycle start, then pauses.
	Step()
	// SetBreakpoints replaces the breakpoints.
	SetBreakpoints(Breakpoints)
}
