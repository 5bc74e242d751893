package export

import "github.com/schedscope/schedscope/recorder"

// WhatIf is whatif's JSON output: a recorded cycle run again with changes.
type WhatIf struct {
	Pod     string   `json:"pod"`
	Changes []Change `json:"changes"`
	// Before is the cycle the changes apply to: as recorded, or, when the
	// search was sampled, the unchanged re-run.
	Before Cycle `json:"before"`
	After  Cycle `json:"after"`
	// Later are the pod's further cycles after the change (the retry that
	// binds it after a preemption).
	Later []Cycle             `json:"later,omitempty"`
	Diff  *recorder.CycleDiff `json:"diff"`
	// Sampled is set when the cycle's search stopped early
	// (percentageOfNodesToScore). The run filters with one goroutine, as
	// After's re-run does, so the sample is the same in both. Were it
	// filtered in parallel, Before would be an unchanged re-run
	// (BeforeRerun), and RecordedSampleDiffers would say whether it
	// visited other nodes than the recorded cycle.
	Sampled               bool `json:"sampled"`
	BeforeRerun           bool `json:"beforeRerun,omitempty"`
	RecordedSampleDiffers bool `json:"recordedSampleDiffers,omitempty"`
	// Landing is where the pod would go: bound by the cycle, or after its preemption.
	Landing string `json:"landing"`
}

// Change is a what-if's change: its kind, its words and the flags that
// make it (the commands' flag table writes them).
type Change struct {
	Kind string   `json:"kind"`
	Text string   `json:"text"`
	Args []string `json:"args,omitempty"`
}

// NewWhatIf is the JSON of w, whose changes are worded as changes.
func NewWhatIf(w *recorder.WhatIf, changes []Change) WhatIf {
	pod := w.Recorded.Pod
	doc := WhatIf{Pod: pod.Namespace + "/" + pod.Name, Changes: changes, Sampled: w.Sampled,
		BeforeRerun: w.BeforeRerun, RecordedSampleDiffers: w.RecordedSampleDiffers,
		Before: NewCycle(w.Before), After: NewCycle(w.After), Diff: w.Diff, Landing: w.Landing}
	for _, c := range w.Later {
		doc.Later = append(doc.Later, NewCycle(c))
	}
	return doc
}
