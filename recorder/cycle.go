// Package recorder holds the scheduling-cycle data model shared by the engine,
// recordings, exports and the TUI, and the recording file format.
//
// It imports nothing from Kubernetes: every value is plain data, so a recording
// can be read by tools that know nothing about the scheduler's internals.
package recorder

import "time"

// Status codes, spelled as the scheduler framework spells them.
const (
	CodeSuccess                      = "Success"
	CodeError                        = "Error"
	CodeUnschedulable                = "Unschedulable"
	CodeUnschedulableAndUnresolvable = "UnschedulableAndUnresolvable"
	CodeWait                         = "Wait"
	CodeSkip                         = "Skip"
	CodePending                      = "Pending"
)

// Extension point names, in the order a scheduling and binding cycle runs them.
const (
	PhasePreFilter     = "PreFilter"
	PhaseFilter        = "Filter"
	PhasePostFilter    = "PostFilter"
	PhasePreScore      = "PreScore"
	PhaseScore         = "Score"
	PhaseNormalize     = "NormalizeScore"
	PhaseReserve       = "Reserve"
	PhasePermit        = "Permit"
	PhasePreBind       = "PreBind"
	PhaseBind          = "Bind"
	PhasePostBind      = "PostBind"
	PhaseUnreserve     = "Unreserve"
	PhaseSelectHost    = "SelectHost"
	PhaseWaitOnPermit  = "WaitOnPermit"
	PhaseBatchHint     = "BatchHint"
	PhaseNominatedNode = "NominatedNode"
)

// Outcome results.
const (
	ResultBound         = "Bound"
	ResultUnschedulable = "Unschedulable"
	ResultError         = "Error"
)

// NodeSet is the ordered list of nodes the scheduler's snapshot held for one or more
// cycles. Cycles refer to nodes by index into their NodeSet, so node names are
// stored once per set rather than once per cell.
type NodeSet struct {
	ID    int      `json:"id"`
	Names []string `json:"names"`
}

// PodRef identifies a pod.
type PodRef struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	UID       string `json:"uid,omitempty"`
	Priority  int32  `json:"priority,omitempty"`
	Node      string `json:"node,omitempty"`
}

// Key returns namespace/name.
func (p PodRef) Key() string { return p.Namespace + "/" + p.Name }

// PluginStatus is what one plugin returned at one extension point.
type PluginStatus struct {
	Plugin   string        `json:"plugin"`
	Code     string        `json:"code"`
	Reasons  []string      `json:"reasons,omitempty"`
	Duration time.Duration `json:"ns,omitempty"`
	// Timeout is the Permit wait a plugin asked for when it returned Wait.
	Timeout time.Duration `json:"timeoutNs,omitempty"`
}

// NodeStatus is the status of one node at the end of filtering: the plugin that
// rejected it (an index into FilterPhase.Plugins, -1 when no plugin is named),
// with its code and reasons.
type NodeStatus struct {
	Node    int      `json:"n"`
	Plugin  int      `json:"p"`
	Code    string   `json:"c"`
	Reasons []string `json:"r,omitempty"`
}

// PreFilterPhase records the PreFilter extension point.
type PreFilterPhase struct {
	Plugins []PluginStatus `json:"plugins"`
	// Code and Message are the aggregated status the framework returned.
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
	// NodeSubset lists node names a PreFilterResult restricted filtering to;
	// nil means all nodes.
	NodeSubset []string `json:"nodeSubset,omitempty"`
	// SubsetPlugins names the plugins whose PreFilterResult restricted the nodes.
	SubsetPlugins []string `json:"subsetPlugins,omitempty"`
}

// FilterPhase records the Filter extension point as the scheduler ran it.
// Plugins run in order on each node and stop at the first rejection, so a node's
// row is: Success for the plugins before the rejecting one, the rejection, then
// "not called". Nodes absent from both Feasible and Rejected were not evaluated.
type FilterPhase struct {
	Plugins []string `json:"plugins"`
	// Skipped lists plugins whose PreFilter returned Skip; Filter never ran them.
	Skipped []string `json:"skipped,omitempty"`
	// Feasible holds node indices in the order the scheduler handed them to scoring.
	Feasible []int `json:"feasible"`
	// Rejected holds every node a filter rejected.
	Rejected []NodeStatus `json:"rejected,omitempty"`
	// Discarded holds nodes that passed but were dropped because enough feasible
	// nodes had already been found (percentageOfNodesToScore).
	Discarded []int `json:"discarded,omitempty"`
	// Evaluated counts nodes the filters ran on.
	Evaluated int `json:"evaluated"`
	// Durations holds each plugin's summed Filter time, aligned with Plugins.
	Durations []time.Duration `json:"ns,omitempty"`
	// Calls holds how many times each plugin's Filter ran, aligned with Plugins.
	Calls []int `json:"calls,omitempty"`
}

// DiagnosticFilter is a second, diagnostic pass that ran every filter plugin on
// every node, beyond the first failure. It is not what the scheduler did.
type DiagnosticFilter struct {
	Plugins []string `json:"plugins"`
	// Cells lists every non-Success result; absent cells passed.
	Cells []DiagnosticCell `json:"cells,omitempty"`
}

// DiagnosticCell is one node × plugin result of the diagnostic pass.
type DiagnosticCell struct {
	Node    int      `json:"n"`
	Plugin  int      `json:"p"`
	Code    string   `json:"c"`
	Reasons []string `json:"r,omitempty"`
}

// PostFilterPhase records PostFilter (preemption).
type PostFilterPhase struct {
	Plugins       []PluginStatus `json:"plugins"`
	Code          string         `json:"code"`
	Message       string         `json:"message,omitempty"`
	NominatedNode string         `json:"nominatedNode,omitempty"`
	// Candidates are nodes where evicting lower-priority pods would let the pod fit,
	// each with the victims the preemption simulation chose there.
	Candidates []Candidate `json:"candidates,omitempty"`
	// Victims are the pods the scheduler actually evicted.
	Victims []PodRef `json:"victims,omitempty"`
}

// Candidate is one preemption candidate node.
type Candidate struct {
	Node    string   `json:"node"`
	Victims []PodRef `json:"victims"`
}

// ScorePlugin holds one score plugin's results, aligned with ScorePhase.Nodes.
type ScorePlugin struct {
	Name   string  `json:"name"`
	Weight int64   `json:"weight"`
	Raw    []int64 `json:"raw"`
	// Normalized is nil when the plugin has no NormalizeScore (then it equals Raw).
	Normalized []int64       `json:"normalized,omitempty"`
	Duration   time.Duration `json:"ns,omitempty"`
	// NormalizeDuration is the time NormalizeScore took.
	NormalizeDuration time.Duration `json:"normalizeNs,omitempty"`
}

// NormalizedScores returns the normalized scores (Raw when the plugin does not normalize).
func (s *ScorePlugin) NormalizedScores() []int64 {
	if s.Normalized != nil {
		return s.Normalized
	}
	return s.Raw
}

// ScorePhase records PreScore, Score and NormalizeScore and the weighted sum.
type ScorePhase struct {
	PreScore []PluginStatus `json:"preScore,omitempty"`
	// Nodes holds the scored node indices in the order scoring received them.
	Nodes   []int         `json:"nodes"`
	Plugins []ScorePlugin `json:"plugins"`
	// Totals is the framework's weighted total per node, aligned with Nodes.
	Totals []int64 `json:"totals"`
}

// Weighted returns plugin p's weighted score for the i-th scored node.
func (s *ScorePhase) Weighted(p, i int) int64 {
	pl := &s.Plugins[p]
	return pl.NormalizedScores()[i] * pl.Weight
}

// Selection records how the host was chosen.
type Selection struct {
	Node string `json:"node"`
	// Top holds node indices that share the highest total score.
	Top []int `json:"top,omitempty"`
	// Rule says what decided among the top set.
	Rule string `json:"rule"`
}

// Fast paths a cycle can take before filtering all nodes.
const (
	FastPathNominated = "NominatedNode"
	FastPathBatch     = "OpportunisticBatch"
)

// FastPath records the evaluation of a single node before the full search: the
// pod's nominated node (after preemption) or a hint from opportunistic batching.
type FastPath struct {
	Kind string `json:"kind"`
	Node string `json:"node"`
	// Feasible tells whether the node passed; if it did, nothing else was filtered
	// or scored and the node was chosen.
	Feasible bool     `json:"feasible"`
	Code     string   `json:"code,omitempty"`
	Reasons  []string `json:"reasons,omitempty"`
}

// Outcome is how the cycle ended.
type Outcome struct {
	Result string `json:"result"`
	Node   string `json:"node,omitempty"`
	// Message is the PodScheduled condition message kube-scheduler writes.
	Message string `json:"message,omitempty"`
	// Reason is the PodScheduled condition reason (Unschedulable or SchedulerError).
	Reason        string `json:"reason,omitempty"`
	NominatedNode string `json:"nominatedNode,omitempty"`
}

// PhaseTiming is the wall time of one phase.
type PhaseTiming struct {
	Phase    string        `json:"phase"`
	Duration time.Duration `json:"ns"`
}

// Cycle is one scheduling attempt of one pod, from the scheduling queue to the
// end of its binding cycle.
type Cycle struct {
	Seq     int       `json:"seq"`
	Pod     PodRef    `json:"pod"`
	Profile string    `json:"profile"`
	Attempt int       `json:"attempt"`
	Start   time.Time `json:"start"`
	// Duration runs from the start of the scheduling algorithm to the outcome.
	Duration time.Duration `json:"ns"`

	// NodeSetID names the NodeSet that node indices refer to.
	NodeSetID int      `json:"nodeSet"`
	Nodes     *NodeSet `json:"-"`
	// SearchStart is the index where the filter search began (nextStartNodeIndex).
	SearchStart int `json:"searchStart"`
	// NodesToFind is how many feasible nodes the search stops after.
	NodesToFind int `json:"nodesToFind"`

	FastPath   *FastPath         `json:"fastPath,omitempty"`
	BatchHint  string            `json:"batchHint,omitempty"`
	PreFilter  *PreFilterPhase   `json:"preFilter,omitempty"`
	Filter     *FilterPhase      `json:"filter,omitempty"`
	Diagnostic *DiagnosticFilter `json:"diagnostic,omitempty"`
	PostFilter *PostFilterPhase  `json:"postFilter,omitempty"`
	Score      *ScorePhase       `json:"score,omitempty"`
	Selection  *Selection        `json:"selection,omitempty"`

	Reserve   []PluginStatus `json:"reserve,omitempty"`
	Unreserve []PluginStatus `json:"unreserve,omitempty"`
	Permit    []PluginStatus `json:"permit,omitempty"`
	PreBind   []PluginStatus `json:"preBind,omitempty"`
	Bind      []PluginStatus `json:"bind,omitempty"`
	PostBind  []PluginStatus `json:"postBind,omitempty"`

	Outcome Outcome       `json:"outcome"`
	Timings []PhaseTiming `json:"timings,omitempty"`
}

// NodeName returns the name of node index i in this cycle's node set.
func (c *Cycle) NodeName(i int) string {
	if c.Nodes == nil || i < 0 || i >= len(c.Nodes.Names) {
		return "?"
	}
	return c.Nodes.Names[i]
}

// NumNodes returns the number of nodes in the cycle's snapshot.
func (c *Cycle) NumNodes() int {
	if c.Nodes == nil {
		return 0
	}
	return len(c.Nodes.Names)
}
