package recorder

// GroupCapacityResult says how many more copies of a pod group fit, as
// plain data: the engine fills it (engine.CapacityPodGroup), capacity
// --pod-group renders it.
type GroupCapacityResult struct {
	Group PodGroupRef `json:"group"`
	// Policy and MinCount are the group's; Members how many members a
	// copy has (the pods the fixture lists in the group).
	Policy   string `json:"policy"`
	MinCount int32  `json:"minCount,omitempty"`
	Members  int    `json:"members"`
	// Bound says whether the group itself binds as the fixture is; when
	// it does not, no copy is tried and Stopped is its message.
	Bound bool `json:"bound"`
	// More is how many copies bound in the run that found the limit;
	// Copies the names of their PodGroups.
	More   int      `json:"more"`
	Copies []string `json:"copies,omitempty"`
	// Stopped is the message of the first copy that did not bind (its
	// last pod-group cycle's), StoppedGroup its PodGroup; Member and
	// MemberMessage the first of its members that fit nowhere, and why.
	Stopped       string `json:"stopped,omitempty"`
	StoppedGroup  string `json:"stoppedGroup,omitempty"`
	Member        string `json:"member,omitempty"`
	MemberMessage string `json:"memberMessage,omitempty"`
	// Short are the resources NodeResourcesFit found too little of for
	// that member: what it asked and what the nodes had free.
	Short []ResourceFree `json:"short,omitempty"`
	// Limit, if set, is the most copies tried: at least that many fit.
	Limit int `json:"limit,omitempty"`
	// Runs are the numbers of copies tried, in order.
	Runs []int `json:"runs"`
}
