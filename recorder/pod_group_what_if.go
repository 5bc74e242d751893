package recorder

// A GroupWhatIf is a pod group's pod-group cycle in a whole fixture run as
// it is and run with changes, as plain data: the engine fills it
// (engine.WhatIfPodGroup), whatif --pod-group and the debugger render it.
type GroupWhatIf struct {
	Group PodGroupRef
	// Before and After are the group's cycle that bound it, or its last,
	// in the fixture as it is and as changed; nil when a run had none.
	Before, After *PodGroupCycle
	// BindingsBefore and BindingsAfter are where each run bound the
	// group's members (namespace/name → node, "" for one left unbound).
	BindingsBefore, BindingsAfter map[string]string
}
