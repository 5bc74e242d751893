package export

import "github.com/schedscope/schedscope/recorder"

// Suggest is suggest's JSON output: what the search found, where the pod
// stands, and the whatif command line that shows each suggestion.
type Suggest struct {
	*recorder.SuggestResult
	Outcome recorder.CycleSummary `json:"outcome"`
	// Commands are the whatif command lines that show each suggestion.
	Commands []string `json:"commands"`
}
