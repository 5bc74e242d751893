package recorder

// An Unused is a kind of object a fixture holds that nothing in a run acts
// on as a cluster would, named by its first such object and where that
// object is, so that nothing a user wrote vanishes unsaid (narrate.Unused
// words it).
type Unused struct {
	Kind string
	// Name is the first such object's namespace/name, Source its file:line.
	Name, Source string
	// Count is how many objects of the kind it stands for.
	Count int
	// Reason is why the run does not use them.
	Reason UnusedReason
}

// Why a run leaves a kind of object unused.
type UnusedReason string

const (
	// UnusedNoController: a workload whose pods no controller makes.
	UnusedNoController UnusedReason = "NoController"
	// UnusedNotRead: neither the scheduler, admission nor a controller of
	// the run reads it.
	UnusedNotRead UnusedReason = "NotRead"
)
