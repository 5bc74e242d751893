package recorder

// What a search for single changes that let a pod group bind found, as
// plain data: the engine fills it (engine.SuggestPodGroup), suggest
// --pod-group renders it.

// Kinds of change a group suggestion makes.
const (
	// GroupChangeMinCount lowers the gang's minCount to MinCount.
	GroupChangeMinCount = "minCount"
	// GroupChangeAddNode adds Node, a copy of LikeNode without its pods.
	GroupChangeAddNode = "addNode"
	// GroupChangeMemberRequest lowers member Pod's requests to Requests,
	// what Node had free in the group's cycle (engine/pod_group_suggest_request.go).
	GroupChangeMemberRequest = "memberRequest"
	// GroupChangeEvict evicts Victims, running pods in the members' way
	// (engine/pod_group_suggest_victims.go).
	GroupChangeEvict = "evict"
)

// GroupSuggestion is one change a re-run confirmed lets the pod group bind.
type GroupSuggestion struct {
	Kind     string `json:"kind"`
	MinCount int32  `json:"minCount,omitempty"`
	Node     string `json:"node,omitempty"`
	LikeNode string `json:"likeNode,omitempty"`
	// Pod, Requests and Patch are a member's requests lowered: the member
	// (namespace/name), its new requests by resource, and the
	// strategic-merge patch that makes them (whatif --patch-pod POD=PATCH).
	Pod      string            `json:"pod,omitempty"`
	Requests map[string]string `json:"requests,omitempty"`
	Patch    string            `json:"patch,omitempty"`
	// Victims are the running pods evicted.
	Victims []GroupVictim `json:"victims,omitempty"`
	// Cost orders suggestions: changing the group costs 1, the cluster
	// (a node added, pods evicted) 2.
	Cost int `json:"cost"`
	// Bindings are where the confirming run bound the group's members
	// (namespace/name → node, "" for one left unbound).
	Bindings map[string]string `json:"bindings"`
	// Cycle is the confirming run's pod-group cycle that bound the group.
	Cycle *PodGroupCycle `json:"-"`
}

// GroupSuggestResult is what engine.SuggestPodGroup found.
type GroupSuggestResult struct {
	Group PodGroupRef `json:"group"`
	// Baseline is the group's last pod-group cycle in the fixture as it is
	// (see engine's runForGroup).
	Baseline    *PodGroupCycle    `json:"-"`
	Suggestions []GroupSuggestion `json:"suggestions"`
	// Tried counts the candidates re-run; Unconfirmed those that did not
	// let the group bind.
	Tried       int `json:"tried"`
	Unconfirmed int `json:"unconfirmed"`
	// Note says why there is nothing to search, when there is not.
	Note string `json:"note,omitempty"`
}

// GroupVictim is a running pod a suggestion evicts.
type GroupVictim struct {
	// Pod is namespace/name; Node where it runs.
	Pod      string `json:"pod"`
	Node     string `json:"node"`
	Priority int32  `json:"priority"`
	// Preemptible says whether the group's members could preempt it (a
	// higher priority, and a preemption policy other than Never).
	Preemptible bool `json:"preemptible"`
}
