package recorder

// A ScaledRun is where a workload's pods went in a run of a fixture, and
// why those left pending are, by message.
type ScaledRun struct {
	Replicas int            `json:"replicas"`
	Workload WorkloadState  `json:"workload"`
	Pending  []PendingGroup `json:"pending"`
}

// A PendingGroup is the pods of a workload left pending with one message.
type PendingGroup struct {
	Message string   `json:"message"`
	Pods    []string `json:"pods"`
}
