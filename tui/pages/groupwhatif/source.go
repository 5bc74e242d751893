package groupwhatif

import (
	"github.com/schedscope/schedscope/recorder"
)

// Source runs the session's fixture again, as it is and changed, with the
// real scheduler, and compares a pod group's pod-group cycle in each run
// (a group's cycle runs every member on one snapshot, so a what-if on a
// group changes the whole run, not one cycle). cmd/ satisfies it where the
// session has a fixture (sim, a replay whose fixture is found unchanged).
// The TUI calls it from tea.Cmds only: each call runs the fixture.
type Source interface {
	// Change reads one change as whatif --pod-group's flag flag takes
	// value ("min-count" "2", "copy-node" "s1", "evict" "ns/pod",
	// "set-weight" "P=N", "disable" "P[:POINT]", …). Flag "" reads value
	// as flags ("--remove-node s2"); flag "requests" reads "MEMBER
	// RESOURCE=QUANTITY …" as a patch of the member's requests. Errors are
	// one line.
	Change(flag, value string) (recorder.Change, error)
	// Run runs the fixture as it is and with changes, and returns group's
	// pod-group cycle of each run.
	Run(group recorder.PodGroupRef, changes []recorder.Change) (*Result, error)
	// Suggest searches single changes that let group bind, each confirmed
	// by a run in which the group's cycle binds it.
	Suggest(group recorder.PodGroupRef) (*SuggestResult, error)
}

// Result is a group's pod-group cycle in the fixture as it is and changed.
type Result struct {
	Group   recorder.PodGroupRef
	Changes []recorder.Change
	// Before and After are the group's cycle that bound it, or its last,
	// in each run; nil when a run had none (fewer members than minCount).
	Before, After *recorder.PodGroupCycle
	// BindingsBefore and BindingsAfter are where each run bound the
	// members (namespace/name → node, "" for one left unbound).
	BindingsBefore, BindingsAfter map[string]string
	// Command is the whatif --pod-group command line that shows the same.
	Command string
}

// SuggestResult lists the single changes that let a group bind.
type SuggestResult struct {
	Group recorder.PodGroupRef
	// Now is the group's last cycle in the fixture as it is.
	Now         *recorder.PodGroupCycle
	Suggestions []Suggestion
	// Tried counts the changes run; Unconfirmed those that did not let
	// the group bind.
	Tried, Unconfirmed int
	// Note says why there was nothing to search, when there was not.
	Note string
}

// Suggestion is one change a run confirmed lets the group bind.
type Suggestion struct {
	// Text says what the change is.
	Text   string
	Change recorder.Change
	// Bindings are where the confirming run bound the members; Cycle is
	// its pod-group cycle that bound the group.
	Bindings map[string]string
	Cycle    *recorder.PodGroupCycle
	// Command is the whatif --pod-group command line that shows it.
	Command string
}
