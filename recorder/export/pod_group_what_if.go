package export

import "github.com/schedscope/schedscope/recorder"

// GroupWhatIf is whatif --pod-group's JSON output: the group's pod-group
// cycle in the fixture as it is and as changed, and where each run bound
// its members (namespace/name → node, "" unbound).
type GroupWhatIf struct {
	Group          recorder.PodGroupRef    `json:"group"`
	Changes        []Change                `json:"changes"`
	Before         *recorder.PodGroupCycle `json:"before"`
	After          *recorder.PodGroupCycle `json:"after"`
	BindingsBefore map[string]string       `json:"bindingsBefore"`
	BindingsAfter  map[string]string       `json:"bindingsAfter"`
}

// NewGroupWhatIf is the JSON of w, whose changes are worded as changes.
func NewGroupWhatIf(w *recorder.GroupWhatIf, changes []Change) GroupWhatIf {
	return GroupWhatIf{Group: w.Group, Changes: changes, Before: w.Before, After: w.After,
		BindingsBefore: w.BindingsBefore, BindingsAfter: w.BindingsAfter}
}
