package recorder

// A CapacityResult says how many more replicas of a workload fit on a
// fixture's cluster, as the real scheduler and the workload's controller
// place them, and what stops the next one, as plain data: the engine fills
// it (engine.Capacity), capacity renders it.
type CapacityResult struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Replicas is what the fixture asks for; Placed how many of them the
	// run placed.
	Replicas int `json:"replicas"`
	Placed   int `json:"placed"`
	// More is how many more replicas were placed in the run that found
	// the limit, beyond Placed.
	More int `json:"more"`
	// Stopped is the scheduler's message for the first replica that did
	// not fit (empty when Limit was reached first).
	Stopped string `json:"stopped,omitempty"`
	// Limit, if set, is the most extra replicas tried: at least that many
	// more fit.
	Limit int `json:"limit,omitempty"`
	// Runs are the replica counts tried, in order.
	Runs []int `json:"runs"`
}
