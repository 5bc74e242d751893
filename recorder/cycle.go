package recorder

import (
	"cmp"
	"slices"
	"strconv"
	"time"
)

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
	// Info describes each node, aligned with Names; nil when not recorded.
	Info []NodeInfo `json:"info,omitempty"`
}

// NodeInfo is what the scheduler read from a Node object.
type NodeInfo struct {
	Labels map[string]string `json:"labels,omitempty"`
	Taints []Taint           `json:"taints,omitempty"`
	// Allocatable holds allocatable resources: "cpu" in millicores, "memory" and
	// "ephemeral-storage" in bytes, "pods" and extended resources as counts.
	Allocatable   map[string]int64 `json:"allocatable,omitempty"`
	Unschedulable bool             `json:"unschedulable,omitempty"`
}

// Taint is a node taint.
type Taint struct {
	Key    string `json:"key"`
	Value  string `json:"value,omitempty"`
	Effect string `json:"effect"`
}

// NodeUse is the scheduler's view of what is placed on one node: the requests it
// adds up for NodeResourcesFit and the pods it counts, in the same units as
// NodeInfo.Allocatable. A cycle carries NodeUse only for nodes whose use changed
// since the previous recorded cycle; Usage rebuilds the whole picture.
type NodeUse struct {
	Node int `json:"n"`
	// Generation orders the entries of a run: each entry has a higher one
	// than every entry recorded before it (a cycle's entries are recorded
	// as it starts). A reader keeps, for each node, the entry with the
	// highest it has seen.
	Generation int64            `json:"g"`
	Requested  map[string]int64 `json:"req,omitempty"`
	// NonZero is cpu and memory as NodeResourcesFit's score counts what is
	// placed (NonZeroRequested: a container without a request at the
	// scheduler's defaults, 100m and 200Mi), when that differs from
	// Requested.
	NonZero map[string]int64 `json:"nz,omitempty"`
	Pods    []PodRef         `json:"pods,omitempty"`
}

// PodRef identifies a pod.
type PodRef struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	UID       string `json:"uid,omitempty"`
	Priority  int32  `json:"priority,omitempty"`
	Node      string `json:"node,omitempty"`
	// Owner is the workload the pod belongs to, followed up its
	// controllers' owner references (a ReplicaSet's Deployment); set on a
	// cycle's pod only.
	Owner *Owner `json:"owner,omitempty"`
}

// Key returns namespace/name.
func (p PodRef) Key() string { return p.Namespace + "/" + p.Name }

// An Owner is the workload a pod belongs to, in the pod's namespace.
type Owner struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// String names the owner as kubectl does: Deployment/web.
func (o *Owner) String() string {
	if o == nil {
		return ""
	}
	return o.Kind + "/" + o.Name
}

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
	// Nominated lists the pods nominated to the node (by an earlier
	// preemption) that the filters counted there as if already running:
	// those of at least the pod's priority.
	Nominated []PodRef `json:"nominated,omitempty"`
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
	Feasible Ints[int] `json:"feasible"`
	// Rejected holds every node a filter rejected.
	Rejected []NodeStatus `json:"rejected,omitempty"`
	// Discarded holds nodes that passed but were dropped because enough feasible
	// nodes had already been found (percentageOfNodesToScore).
	Discarded Ints[int] `json:"discarded,omitempty"`
	// Evaluated counts nodes the filters ran on.
	Evaluated int `json:"evaluated"`
	// Durations holds each plugin's summed Filter time, aligned with Plugins. The
	// first 32 calls of a plugin in a cycle are timed, then one call in 16, and
	// the sum is scaled up from those: on large clusters it is an estimate.
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
	// Rejected are nodes the dry run examined where removing pods would not help,
	// with the status that said so.
	Rejected []Candidate `json:"rejected,omitempty"`
	// Victims are the pods the scheduler actually evicted.
	Victims []PodRef `json:"victims,omitempty"`
}

// Candidate is one node examined by the preemption dry run.
type Candidate struct {
	Node    string   `json:"node"`
	Victims []PodRef `json:"victims,omitempty"`
	// PDBViolations counts victims whose eviction would violate a PodDisruptionBudget.
	PDBViolations int      `json:"pdbViolations,omitempty"`
	Code          string   `json:"code,omitempty"`
	Reasons       []string `json:"reasons,omitempty"`
}

// ScorePlugin holds one score plugin's results, aligned with ScorePhase.Nodes.
type ScorePlugin struct {
	Name   string      `json:"name"`
	Weight int64       `json:"weight"`
	Raw    Ints[int64] `json:"raw"`
	// Normalized is nil when the plugin has no NormalizeScore (then it equals Raw).
	Normalized Ints[int64] `json:"normalized,omitempty"`
	// Duration is the summed Score time, sampled as FilterPhase.Durations is.
	Duration time.Duration `json:"ns,omitempty"`
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
	Nodes   Ints[int]     `json:"nodes"`
	Plugins []ScorePlugin `json:"plugins"`
	// Totals is the framework's weighted total per node, aligned with Nodes.
	Totals Ints[int64] `json:"totals"`
}

// Weighted returns plugin p's weighted score for the i-th scored node.
func (s *ScorePhase) Weighted(p, i int) int64 {
	pl := &s.Plugins[p]
	return pl.NormalizedScores()[i] * pl.Weight
}

// Rules that decide the host; presentation layers word them.
const (
	// RuleFastPath: a single node was checked before the full search and passed.
	RuleFastPath = "FastPath"
	// RuleOnlyFeasible: one node passed filtering; scoring was skipped.
	RuleOnlyFeasible = "OnlyFeasible"
	// RuleHighestScore: one node had the highest total.
	RuleHighestScore = "HighestScore"
	// RuleTie: several nodes shared the highest total and one was picked among them.
	RuleTie = "Tie"
)

// Selection records how the host was chosen.
type Selection struct {
	Node string `json:"node"`
	// Top holds node indices that share the highest total score.
	Top Ints[int] `json:"top,omitempty"`
	// Best is the highest total score (0 when nothing was scored).
	Best int64 `json:"best,omitempty"`
	// Rule is one of the Rule constants.
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
	// At is when the phase began, from the start of the cycle (Cycle.Start).
	// Recordings made before it was recorded have none: their phases are
	// taken to follow each other without gaps (see PhaseStarts).
	At time.Duration `json:"at,omitempty"`
}

// PhaseStarts returns when each of the cycle's timed phases began, from
// the start of the cycle, aligned with Timings: the recorded At, or, in a
// recording made before phases' starts were recorded, the end of the phase
// before (the first phase begins with the cycle).
func (c *Cycle) PhaseStarts() []time.Duration {
	out := make([]time.Duration, len(c.Timings))
	recorded := slices.ContainsFunc(c.Timings, func(t PhaseTiming) bool { return t.At != 0 })
	var next time.Duration
	for i, t := range c.Timings {
		if recorded {
			out[i] = t.At
		} else {
			out[i] = next
			next += t.Duration
		}
	}
	return out
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
	// NodeUse lists the nodes whose placed pods changed since the previous cycle.
	NodeUse []NodeUse `json:"nodeUse,omitempty"`
	// SearchStart is the index where the filter search began (nextStartNodeIndex).
	SearchStart int `json:"searchStart"`
	// NodesToFind is how many feasible nodes the search stops after.
	NodesToFind int `json:"nodesToFind"`
	// Requests are the pod's resource requests as the scheduler adds them
	// up (the units of NodeInfo.Allocatable), so that a reader can work a
	// resource plugin's score out; recordings made before have none.
	Requests map[string]int64 `json:"requests,omitempty"`
	// NonZeroRequests are the pod's cpu and memory as NodeResourcesFit's
	// score counts them (a container without a request at the scheduler's
	// defaults, 100m and 200Mi), when that differs from Requests.
	NonZeroRequests map[string]int64 `json:"nonZeroRequests,omitempty"`

	FastPath   *FastPath         `json:"fastPath,omitempty"`
	BatchHint  string            `json:"batchHint,omitempty"`
	PreFilter  *PreFilterPhase   `json:"preFilter,omitempty"`
	Filter     *FilterPhase      `json:"filter,omitempty"`
	Diagnostic *DiagnosticFilter `json:"diagnostic,omitempty"`
	// DeviceShortfalls holds, by node index, the device requests of the
	// pod's ResourceClaims a node DynamicResources rejected had too few
	// devices for (recorded when no node fit).
	DeviceShortfalls map[int][]DeviceShortfall `json:"deviceShortfalls,omitempty"`
	PostFilter       *PostFilterPhase          `json:"postFilter,omitempty"`
	Score            *ScorePhase               `json:"score,omitempty"`
	Selection        *Selection                `json:"selection,omitempty"`

	Reserve   []PluginStatus `json:"reserve,omitempty"`
	Unreserve []PluginStatus `json:"unreserve,omitempty"`
	Permit    []PluginStatus `json:"permit,omitempty"`
	PreBind   []PluginStatus `json:"preBind,omitempty"`
	Bind      []PluginStatus `json:"bind,omitempty"`
	PostBind  []PluginStatus `json:"postBind,omitempty"`

	Outcome Outcome       `json:"outcome"`
	Timings []PhaseTiming `json:"timings,omitempty"`
}

// NodeName returns the name of node index i in this cycle's node set, or
// "#i" when the set is unknown (its record is missing or damaged), so that
// every output names a node the same way.
func (c *Cycle) NodeName(i int) string {
	if c.Nodes == nil || i < 0 || i >= len(c.Nodes.Names) {
		return "#" + strconv.Itoa(i)
	}
	return c.Nodes.Names[i]
}

// NodeNamesKnown reports whether the cycle's node set was read, so that
// NodeName gives names rather than indices.
func (c *Cycle) NodeNamesKnown() bool { return c.Nodes != nil }

// WinnerRow returns the position in Score.Nodes of the node the cycle chose,
// or -1 when nothing was scored or the position cannot be told: by name
// when the node set is known, else by the recorded Selection.Top when it
// holds one node.
func (c *Cycle) WinnerRow() int {
	s, sel := c.Score, c.Selection
	if s == nil || sel == nil {
		return -1
	}
	if c.Nodes != nil {
		return slices.IndexFunc(s.Nodes, func(n int) bool { return c.NodeName(n) == sel.Node })
	}
	if len(sel.Top) == 1 {
		return slices.Index(s.Nodes, sel.Top[0])
	}
	return -1
}

// NumNodes returns the number of nodes in the cycle's snapshot.
func (c *Cycle) NumNodes() int {
	if c.Nodes == nil {
		return 0
	}
	return len(c.Nodes.Names)
}

// ScoreGap is how far one node fell behind another on one plugin's weighted score.
type ScoreGap struct {
	Plugin string
	Gap    int64
}

// Gaps lists the plugins on which the scored node at index loser got a lower
// weighted score than the one at index winner, largest gap first.
func (s *ScorePhase) Gaps(winner, loser int) []ScoreGap {
	var gaps []ScoreGap
	for p := range s.Plugins {
		if d := s.Weighted(p, winner) - s.Weighted(p, loser); d > 0 {
			gaps = append(gaps, ScoreGap{s.Plugins[p].Name, d})
		}
	}
	slices.SortStableFunc(gaps, func(a, b ScoreGap) int { return cmp.Compare(b.Gap, a.Gap) })
	return gaps
}

// Contribution is one plugin's part in the gap between two nodes' totals:
// the loser's weighted score minus the winner's.
type Contribution struct {
	Plugin string `json:"plugin"`
	Delta  int64  `json:"delta"`
}

// OtherContribution names the part of a gap the plugins' weighted scores do
// not explain (the framework's totals include something else).
const OtherContribution = "other"

// Contributions lists how the loser's total came to differ from the winner's:
// each plugin's signed contribution, largest magnitude first, leaving out
// plugins that scored both alike; any difference between the framework's
// totals and the plugins' sum comes last as OtherContribution, so the parts
// always add up to the loser's total minus the winner's.
func (s *ScorePhase) Contributions(winner, loser int) []Contribution {
	var parts []Contribution
	var sum int64
	for p := range s.Plugins {
		d := s.Weighted(p, loser) - s.Weighted(p, winner)
		sum += d
		if d != 0 {
			parts = append(parts, Contribution{s.Plugins[p].Name, d})
		}
	}
	slices.SortStableFunc(parts, func(a, b Contribution) int {
		return cmp.Compare(max(b.Delta, -b.Delta), max(a.Delta, -a.Delta))
	})
	if rest := (s.Totals[loser] - s.Totals[winner]) - sum; rest != 0 {
		parts = append(parts, Contribution{OtherContribution, rest})
	}
	return parts
}

// Observed is what a live cluster's own scheduler did with a pod schedscope ran
// a cycle for: the node it bound the pod to. Comparing it with the cycle's
// outcome shows whether the prediction held.
type Observed struct {
	Pod PodRef `json:"pod"`
	// Node is where the cluster bound the pod; empty when its scheduler marked
	// the pod Unschedulable.
	Node string `json:"node,omitempty"`
	// Message is the cluster's PodScheduled message when it found no node.
	Message string    `json:"message,omitempty"`
	Time    time.Time `json:"time"`
	// Seq is schedscope's last cycle for the pod, 0 if it ran none.
	Seq int `json:"seq,omitempty"`
	// Predicted is that cycle's chosen node, empty if it found none.
	Predicted string `json:"predicted,omitempty"`
	// TieSet lists the nodes that shared the best score in that cycle; the
	// cluster's choice among them is a coin toss, not a wrong prediction.
	TieSet []string `json:"tieSet,omitempty"`
	// Nominated is the node that cycle nominated by preemption: the pod waits
	// for its victims to leave, so a binding there is the predicted outcome.
	Nominated string `json:"nominated,omitempty"`
}

// Agrees reports whether the cluster bound the pod to the predicted node or to
// another node of the predicted tie set, or found no node when schedscope found
// none either.
func (o *Observed) Agrees() bool {
	if o.ViaPreemption() {
		return true
	}
	if o.Node == "" {
		return o.Seq != 0 && o.Predicted == ""
	}
	return o.Predicted != "" && (o.Node == o.Predicted || slices.Contains(o.TieSet, o.Node))
}

// ViaPreemption reports whether the cluster bound the pod to the node
// schedscope's cycle nominated when it preempted: the prediction was "this
// node, once the victims are gone".
func (o *Observed) ViaPreemption() bool {
	return o.Node != "" && o.Predicted == "" && o.Node == o.Nominated
}
