package whatif

import (
	"github.com/schedscope/schedscope/recorder"
)

// Source re-runs a recorded cycle of the session on a changed copy of the
// state it saw, with the real scheduler. cmd/ satisfies it where the session
// can be forked (a fixture run, a live cluster's mirror); replays have none.
// Every call names the recorded cycle it is about. The TUI calls it from
// tea.Cmds only: a call may run the fixture up to the cycle and take seconds.
type Source interface {
	// PodYAML is the manifest of the cycle's pod as the scheduler saw it,
	// what the scheduler reads only: it is written to a file for $EDITOR,
	// and the edit comes back as a recorder.EditPod, applied to the whole
	// pod.
	PodYAML(c *recorder.Cycle) ([]byte, error)
	// NodeYAML is a node's manifest as the cycle saw it, likewise.
	NodeYAML(c *recorder.Cycle, node string) ([]byte, error)
	// Run re-runs the cycle with the changes; errors are one line.
	Run(c *recorder.Cycle, changes []recorder.Change) (*Result, error)
	// Suggest searches single changes that make the cycle's pod
	// schedulable, each verified by a re-run.
	Suggest(c *recorder.Cycle) (*SuggestResult, error)
}

// Result is one re-run and how it differs from the cycle it changed.
type Result struct {
	// Seq is the cycle re-run.
	Seq int
	// Before is the cycle the changes apply to: as recorded, or, when its
	// search was sampled, the unchanged re-run.
	Before *recorder.Cycle
	// After is the changed cycle; Later the pod's further cycles on the fork
	// (the retry after a preemption).
	After *recorder.Cycle
	Later []*recorder.Cycle
	Diff  *recorder.CycleDiff
	// Changes word what changed, one per change.
	Changes []string
	// Landing is where the pod would go ("" if nowhere).
	Landing string
	// Note says what to know about the comparison (a sampled search).
	Note string
}

// SuggestResult lists the single changes that make a pod schedulable.
type SuggestResult struct {
	Seq         int
	Pod         string
	Suggestions []Suggestion
	// Note words how the search went (its budget, what was tried).
	Note string
}

// Suggestion is one verified change.
type Suggestion struct {
	Text string
	// Node is where the pod lands with the change.
	Node          string
	ViaPreemption bool
	Change        recorder.Change
}
