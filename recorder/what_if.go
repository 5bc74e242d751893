package recorder

// A WhatIf is a recorded cycle run again on a changed copy of the state it
// saw, as plain data: the engine fills it (engine/scenario's Fork.WhatIf),
// every output renders it, and neither needs the other.
type WhatIf struct {
	// Changes says each change in words.
	Changes []string
	// Recorded is the cycle the what-if forked at, as the run recorded it.
	Recorded *Cycle
	// Before is the cycle the changes apply to: as recorded, or an
	// unchanged re-run when a re-run may not give the recorded cycle.
	Before *Cycle
	// After is the pod's cycle on the changed state; Later its further
	// cycles there (after a preemption, the retry that binds it).
	After *Cycle
	Later []*Cycle
	// Diff is what differs between Before and After: nodes that became
	// feasible or infeasible and why, score deltas, the new winner.
	Diff *CycleDiff
	// Landing is where the pod would go ("" nowhere); ViaPreemption is
	// set when it gets there by preempting other pods.
	Landing       string
	ViaPreemption bool
	// Sampled is set when the cycle's search stopped before it had
	// visited every node (percentageOfNodesToScore); both runs then filter
	// in one goroutine from node SearchStart, so they visit nodes in the
	// same order and the diff is the change's alone. BeforeRerun is set
	// when Before is an unchanged re-run rather than the recorded cycle,
	// and RecordedSampleDiffers when that re-run visited other nodes than
	// the recorded cycle did.
	Sampled               bool
	SearchStart           int
	BeforeRerun           bool
	RecordedSampleDiffers bool
}
