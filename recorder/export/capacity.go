package export

import "github.com/schedscope/schedscope/recorder"

// Capacity is capacity's JSON output: how many more replicas of the
// workload fit, and, when asked, suggest's search on the replica that did
// not.
type Capacity struct {
	*recorder.CapacityResult
	// Next is suggest's search on the replica that did not fit, when asked.
	Next *recorder.SuggestResult `json:"next,omitempty"`
}
