package export

import "github.com/schedscope/schedscope/recorder"

// Scale is whatif --scale's JSON output: where the workload's pods went in
// the fixture's run as written and with the workload scaled.
type Scale struct {
	Kind      string              `json:"kind"`
	Namespace string              `json:"namespace"`
	Name      string              `json:"name"`
	Before    *recorder.ScaledRun `json:"before"`
	After     *recorder.ScaledRun `json:"after"`
}
