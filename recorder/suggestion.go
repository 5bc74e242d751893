package recorder

// Suggestion is one change that the re-run confirmed makes the pod schedulable.
type Suggestion struct {
	Change Change `json:"change"`
	// Text says the change in words.
	Text string `json:"text"`
	// Cost orders suggestions: how much of the pod or the cluster it changes.
	Cost int `json:"cost"`
	// Shrink is the share of the pod's requests the change takes away
	// (summed over resources); it orders suggestions of one cost.
	Shrink float64 `json:"shrink,omitempty"`
	// Node is where the re-run put the pod.
	Node string `json:"node"`
	// ViaPreemption is set when the pod got there by preempting other pods.
	ViaPreemption bool `json:"viaPreemption,omitempty"`
	// Cycle is the confirming re-run.
	Cycle *Cycle `json:"-"`
}

// SuggestResult is what a search for single changes that make a pod
// schedulable found (engine.Suggest fills it; suggest and the TUI show it).
type SuggestResult struct {
	Pod string `json:"pod"`
	// Node is the node asked about, if any.
	Node string `json:"node,omitempty"`
	// Baseline is the unchanged re-run the candidates were drawn from.
	Baseline *Cycle `json:"-"`
	// Suggestions are confirmed changes, smallest first.
	Suggestions []Suggestion `json:"suggestions"`
	// Candidates counts changes drawn from the diagnosis; Tried counts those
	// re-run; Unconfirmed counts tried changes the re-run did not confirm.
	Candidates  int `json:"candidates"`
	Tried       int `json:"tried"`
	Unconfirmed int `json:"unconfirmed"`
	Budget      int `json:"budget"`
	// Cut is set when the budget stopped the search before every candidate was tried.
	Cut bool `json:"cut"`
	// Note says why there is nothing to search, when there is not.
	Note string `json:"note,omitempty"`
}
