package export

import (
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"

	"time"
)

// The exported JSON of cycles (explain -o json, replay --no-tui -o json, and
// one object per line in live --no-tui -o json) is plain where a recording
// is compact: node names instead of indices, every list expanded, readable
// keys, durations as Go durations ("1.5ms"). It is versioned by
// Format and SchemaVersion and described by
// recorder/schema/explain.schema.json; a change to these types changes the
// schema and, when it is not only an addition, the version.
const (
	Format        = "schedscope-export"
	SchemaVersion = 1
)

// Duration is a duration that JSON spells as Go does ("812ns", "2.4ms").
type Duration = recorder.Duration

// Document is a recording or an explain run as one JSON document.
type Document struct {
	Format        string `json:"format"`
	SchemaVersion int    `json:"schemaVersion"`
	Header        Header `json:"header"`
	// Warnings are the fixture loader's warnings (explain).
	Warnings []string `json:"warnings,omitempty"`
	// Problems are what was wrong with the recording read (replay).
	Problems []string   `json:"problems,omitempty"`
	Cycles   []Cycle    `json:"cycles"`
	Observed []Observed `json:"observed,omitempty"`
	// Pods are where every pod stands (see PodStates).
	Pods []PodState `json:"pods,omitempty"`
	// Cluster is what a fixture run's controllers left at its end
	// (explain): workloads and their pods, budgets, claims.
	Cluster *recorder.ClusterState `json:"cluster,omitempty"`
	// PodGroups are the pod-group cycles (GenericWorkload): each group's
	// members in the order the cycle took them, with their own cycles'
	// numbers, tentative placements, PlacementFeasible's verdicts, the
	// outcome and the PodGroup's condition.
	PodGroups []*recorder.PodGroupCycle `json:"podGroups,omitempty"`
}

// Header is a recording's header without its format fields.
type Header struct {
	// Unreadable says the recording's header was damaged; the other fields are unknown.
	Unreadable        bool   `json:"unreadable,omitempty"`
	SchedscopeVersion string `json:"schedscopeVersion"`
	KubernetesVersion string `json:"kubernetesVersion"`
	// Created is omitted when the header is unreadable.
	Created time.Time       `json:"created,omitzero"`
	Source  recorder.Source `json:"source"`
	// Clock is the clock the cycles' start times were read from (see Header.Clock).
	Clock string `json:"clock,omitempty"`
	// FeatureGates are the gates the run had other than their defaults (see Header.FeatureGates).
	FeatureGates map[string]bool    `json:"featureGates,omitempty"`
	Profiles     []recorder.Profile `json:"profiles"`
}

// Cycle is one cycle with node names spelled out.
type Cycle struct {
	Seq      int             `json:"seq"`
	Pod      recorder.PodRef `json:"pod"`
	Profile  string          `json:"profile"`
	Attempt  int             `json:"attempt"`
	Start    time.Time       `json:"start"`
	Duration Duration        `json:"duration"`
	// Nodes lists the nodes of the scheduler's snapshot, in its order.
	Nodes       []string           `json:"nodes"`
	NodeUse     []NodeUse          `json:"nodeUse,omitempty"`
	SearchStart int                `json:"searchStart"`
	NodesToFind int                `json:"nodesToFind"`
	Requests    map[string]int64   `json:"requests,omitempty"`
	FastPath    *recorder.FastPath `json:"fastPath,omitempty"`
	BatchHint   string             `json:"batchHint,omitempty"`
	PreFilter   *PreFilter         `json:"preFilter,omitempty"`
	Filter      *Filter            `json:"filter,omitempty"`
	Diagnostic  *Diagnostic        `json:"diagnostic,omitempty"`
	PostFilter  *PostFilter        `json:"postFilter,omitempty"`
	Score       *Score             `json:"score,omitempty"`
	Selection   *Selection         `json:"selection,omitempty"`
	Reserve     []PluginStatus     `json:"reserve,omitempty"`
	Unreserve   []PluginStatus     `json:"unreserve,omitempty"`
	Permit      []PluginStatus     `json:"permit,omitempty"`
	PreBind     []PluginStatus     `json:"preBind,omitempty"`
	Bind        []PluginStatus     `json:"bind,omitempty"`
	PostBind    []PluginStatus     `json:"postBind,omitempty"`
	Outcome     recorder.Outcome   `json:"outcome"`
	Timings     []PhaseDuration    `json:"timings,omitempty"`
}

// NodeUse is what the scheduler saw placed on a node.
type NodeUse struct {
	Node       string            `json:"node"`
	Generation int64             `json:"generation"`
	Requested  map[string]int64  `json:"requested,omitempty"`
	Pods       []recorder.PodRef `json:"pods,omitempty"`
}

// PluginStatus is what one plugin returned at one extension point.
type PluginStatus struct {
	Plugin   string   `json:"plugin"`
	Code     string   `json:"code"`
	Reasons  []string `json:"reasons,omitempty"`
	Duration Duration `json:"duration"`
	Timeout  Duration `json:"timeout,omitempty"`
}

// PreFilter is the PreFilter extension point.
type PreFilter struct {
	Plugins       []PluginStatus `json:"plugins"`
	Code          string         `json:"code"`
	Message       string         `json:"message,omitempty"`
	NodeSubset    []string       `json:"nodeSubset,omitempty"`
	SubsetPlugins []string       `json:"subsetPlugins,omitempty"`
}

// Filter is the Filter extension point.
type Filter struct {
	Plugins     []string      `json:"plugins"`
	Skipped     []string      `json:"skipped,omitempty"`
	Feasible    []string      `json:"feasible"`
	Rejected    []NodeStatus  `json:"rejected,omitempty"`
	Discarded   []string      `json:"discarded,omitempty"`
	Evaluated   int           `json:"evaluated"`
	PluginCalls []PluginCalls `json:"pluginCalls,omitempty"`
	// Resources sums up each resource NodeResourcesFit found too little
	// of, over the nodes it rejected.
	Resources []ResourceFree `json:"resources,omitempty"`
}

// NodeStatus is a node's result: the plugin that rejected it (empty
// when none is named), its code and reasons.
type NodeStatus struct {
	Node    string   `json:"node"`
	Plugin  string   `json:"plugin"`
	Code    string   `json:"code"`
	Reasons []string `json:"reasons,omitempty"`
	// Nominated lists the pods nominated to the node that the filters
	// counted there (main filter pass only).
	Nominated []recorder.PodRef `json:"nominated,omitempty"`
	// Shortfalls are the numbers behind NodeResourcesFit's reasons
	// (main filter pass only).
	Shortfalls []Shortfall `json:"shortfalls,omitempty"`
	// DeviceShortfalls are the numbers behind DynamicResources' rejection:
	// the claims' requests the node had too few devices for.
	DeviceShortfalls []DeviceShortfall `json:"deviceShortfalls,omitempty"`
}

// DeviceShortfall is one request of the pod's claims a node had too few
// devices for: what it asks, the devices of its class published on the
// node and allocated already, what was free and by how many it was short
// (recorder.DeviceShortfall).
type DeviceShortfall struct {
	recorder.DeviceShortfall
	Free  int64 `json:"free"`
	Short int64 `json:"short"`
}

// Shortfall is one resource a node had too little of for the pod: the
// pod's request, the node's allocatable, what was requested there already,
// what was free and by how much the pod was short (recorder.Shortfall).
type Shortfall struct {
	Resource    string `json:"resource"`
	Asked       int64  `json:"asked"`
	Allocatable int64  `json:"allocatable"`
	Requested   int64  `json:"requested"`
	Free        int64  `json:"free"`
	Short       int64  `json:"short"`
}

// ResourceFree sums up a resource the pod was short of over the nodes
// NodeResourcesFit rejected (recorder.ResourceFree).
type ResourceFree struct {
	recorder.ResourceFree
	// TooLarge says the pod asks more than any of those nodes has
	// allocatable; Fragmented that they had enough in all but not one
	// of them on its own.
	TooLarge   bool `json:"tooLarge"`
	Fragmented bool `json:"fragmented"`
	// Text words it (narrate.ResourceFree).
	Text string `json:"text"`
}

// PluginCalls is a Filter plugin's summed time and number of calls.
type PluginCalls struct {
	Plugin   string   `json:"plugin"`
	Calls    int      `json:"calls"`
	Duration Duration `json:"duration"`
}

// Diagnostic is the diagnostic pass: every non-Success cell.
type Diagnostic struct {
	Plugins []string     `json:"plugins"`
	Cells   []NodeStatus `json:"cells,omitempty"`
}

// PostFilter is PostFilter (preemption).
type PostFilter struct {
	Plugins       []PluginStatus       `json:"plugins"`
	Code          string               `json:"code"`
	Message       string               `json:"message,omitempty"`
	NominatedNode string               `json:"nominatedNode,omitempty"`
	Candidates    []recorder.Candidate `json:"candidates,omitempty"`
	Rejected      []recorder.Candidate `json:"rejected,omitempty"`
	Victims       []recorder.PodRef    `json:"victims,omitempty"`
}

// Score is PreScore, Score and NormalizeScore, one row per scored node.
type Score struct {
	PreScore []PluginStatus `json:"preScore,omitempty"`
	Plugins  []ScorePlugin  `json:"plugins"`
	Nodes    []NodeScore    `json:"nodes"`
}

// ScorePlugin is a score plugin's weight and time.
type ScorePlugin struct {
	Name              string   `json:"name"`
	Weight            int64    `json:"weight"`
	Duration          Duration `json:"duration"`
	NormalizeDuration Duration `json:"normalizeDuration"`
}

// NodeScore is one scored node, in the order scoring received them.
type NodeScore struct {
	Node   string        `json:"node"`
	Total  int64         `json:"total"`
	Scores []PluginScore `json:"scores"`
}

// PluginScore is one plugin's score of one node. Normalized equals Raw
// for a plugin without NormalizeScore; Weighted is Normalized times the weight.
type PluginScore struct {
	Plugin     string `json:"plugin"`
	Raw        int64  `json:"raw"`
	Normalized int64  `json:"normalized"`
	Weighted   int64  `json:"weighted"`
}

// Selection is how the host was chosen.
type Selection struct {
	Node string `json:"node"`
	// Rule is one of the Rule constants; Explanation words it.
	Rule        string   `json:"rule"`
	Explanation string   `json:"explanation"`
	Best        int64    `json:"best"`
	Top         []string `json:"top,omitempty"`
}

// PhaseDuration is the wall time of one phase.
type PhaseDuration struct {
	Phase    string   `json:"phase"`
	Duration Duration `json:"duration"`
}

// Observed is a binding a live cluster's scheduler made.
type Observed struct {
	Pod       recorder.PodRef `json:"pod"`
	Node      string          `json:"node,omitempty"`
	Message   string          `json:"message,omitempty"`
	Time      time.Time       `json:"time"`
	Seq       int             `json:"seq,omitempty"`
	Predicted string          `json:"predicted,omitempty"`
	TieSet    []string        `json:"tieSet,omitempty"`
	Nominated string          `json:"nominated,omitempty"`
	Agrees    bool            `json:"agrees"`
}

// Every list of the export that is not omitted when empty is written as an
// array, [] when empty, never null: the schema says so, and a consumer can
// iterate without checking.

// orEmpty returns s, or an empty slice for nil.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// exportProfiles copies profiles with every list an array.
func exportProfiles(profiles []recorder.Profile) []recorder.Profile {
	out := make([]recorder.Profile, len(profiles))
	for i, p := range profiles {
		p.ExtensionPoints = append([]recorder.ExtensionPoint{}, p.ExtensionPoints...)
		for j := range p.ExtensionPoints {
			p.ExtensionPoints[j].Plugins = orEmpty(p.ExtensionPoints[j].Plugins)
		}
		out[i] = p
	}
	return out
}

// NewDocument exports a header and its cycles and observed bindings.
func NewDocument(h recorder.Header, cycles []*recorder.Cycle, observed []*recorder.Observed) Document {
	doc := Document{
		Format: Format, SchemaVersion: SchemaVersion,
		Header: Header{
			Unreadable: h.Unreadable, SchedscopeVersion: h.SchedscopeVersion, KubernetesVersion: h.KubernetesVersion,
			Created: h.Created, Source: h.Source, Clock: h.Clock, FeatureGates: h.FeatureGates, Profiles: exportProfiles(h.Profiles),
		},
		Cycles: make([]Cycle, len(cycles)),
	}
	for i, c := range cycles {
		doc.Cycles[i] = NewCycle(c)
	}
	for _, o := range observed {
		doc.Observed = append(doc.Observed, NewObserved(o))
	}
	return doc
}

// exportName names node index i of c, or "#i" when c's node set is missing.
func exportName(c *recorder.Cycle, i int) string { return c.NodeName(i) }

func exportNames(c *recorder.Cycle, idx []int) []string {
	if idx == nil {
		return nil
	}
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = exportName(c, i)
	}
	return out
}

func exportStatuses(ps []recorder.PluginStatus) []PluginStatus {
	if ps == nil {
		return nil
	}
	out := make([]PluginStatus, len(ps))
	for i, p := range ps {
		out[i] = PluginStatus{Plugin: p.Plugin, Code: p.Code, Reasons: p.Reasons, Duration: Duration(p.Duration), Timeout: Duration(p.Timeout)}
	}
	return out
}

func exportNodeStatus(c *recorder.Cycle, plugins []string, node, plugin int, code string, reasons []string) NodeStatus {
	s := NodeStatus{Node: exportName(c, node), Code: code, Reasons: reasons}
	if plugin >= 0 && plugin < len(plugins) {
		s.Plugin = plugins[plugin]
	}
	return s
}

// NewCycle exports one cycle; live --no-tui -o json prints one per line.
func NewCycle(c *recorder.Cycle) Cycle {
	e := Cycle{
		Seq: c.Seq, Pod: c.Pod, Profile: c.Profile, Attempt: c.Attempt, Start: c.Start, Duration: Duration(c.Duration),
		Nodes: []string{}, SearchStart: c.SearchStart, NodesToFind: c.NodesToFind, Requests: c.Requests, FastPath: c.FastPath, BatchHint: c.BatchHint,
		Reserve: exportStatuses(c.Reserve), Unreserve: exportStatuses(c.Unreserve), Permit: exportStatuses(c.Permit),
		PreBind: exportStatuses(c.PreBind), Bind: exportStatuses(c.Bind), PostBind: exportStatuses(c.PostBind),
		Outcome: c.Outcome,
	}
	if c.Nodes != nil {
		e.Nodes = append(e.Nodes, c.Nodes.Names...)
	}
	for _, nu := range c.NodeUse {
		e.NodeUse = append(e.NodeUse, NodeUse{Node: exportName(c, nu.Node), Generation: nu.Generation, Requested: nu.Requested, Pods: nu.Pods})
	}
	if pf := c.PreFilter; pf != nil {
		e.PreFilter = &PreFilter{Plugins: orEmpty(exportStatuses(pf.Plugins)), Code: pf.Code, Message: pf.Message, NodeSubset: pf.NodeSubset, SubsetPlugins: pf.SubsetPlugins}
	}
	if f := c.Filter; f != nil {
		ef := &Filter{Plugins: orEmpty(f.Plugins), Skipped: f.Skipped, Feasible: orEmpty(exportNames(c, f.Feasible)), Discarded: exportNames(c, f.Discarded), Evaluated: f.Evaluated}
		for _, r := range f.Rejected {
			s := exportNodeStatus(c, f.Plugins, r.Node, r.Plugin, r.Code, r.Reasons)
			s.Nominated = r.Nominated
			for _, d := range c.DeviceShortfalls[r.Node] {
				s.DeviceShortfalls = append(s.DeviceShortfalls, DeviceShortfall{DeviceShortfall: d, Free: d.Free(), Short: d.Short()})
			}
			ef.Rejected = append(ef.Rejected, s)
		}
		for i, p := range f.Plugins {
			if i < len(f.Durations) || i < len(f.Calls) {
				pc := PluginCalls{Plugin: p}
				if i < len(f.Durations) {
					pc.Duration = Duration(f.Durations[i])
				}
				if i < len(f.Calls) {
					pc.Calls = f.Calls[i]
				}
				ef.PluginCalls = append(ef.PluginCalls, pc)
			}
		}
		e.Filter = ef
	}
	if d := c.Diagnostic; d != nil {
		ed := &Diagnostic{Plugins: orEmpty(d.Plugins)}
		for _, cell := range d.Cells {
			ed.Cells = append(ed.Cells, exportNodeStatus(c, d.Plugins, cell.Node, cell.Plugin, cell.Code, cell.Reasons))
		}
		e.Diagnostic = ed
	}
	if p := c.PostFilter; p != nil {
		e.PostFilter = &PostFilter{Plugins: orEmpty(exportStatuses(p.Plugins)), Code: p.Code, Message: p.Message, NominatedNode: p.NominatedNode,
			Candidates: p.Candidates, Rejected: p.Rejected, Victims: p.Victims}
	}
	if s := c.Score; s != nil {
		es := &Score{PreScore: exportStatuses(s.PreScore), Plugins: []ScorePlugin{}, Nodes: []NodeScore{}}
		for _, p := range s.Plugins {
			es.Plugins = append(es.Plugins, ScorePlugin{Name: p.Name, Weight: p.Weight, Duration: Duration(p.Duration), NormalizeDuration: Duration(p.NormalizeDuration)})
		}
		for i, n := range s.Nodes {
			ns := NodeScore{Node: exportName(c, n), Scores: []PluginScore{}}
			if i < len(s.Totals) {
				ns.Total = s.Totals[i]
			}
			for _, p := range s.Plugins {
				ps := PluginScore{Plugin: p.Name}
				if i < len(p.Raw) {
					ps.Raw = p.Raw[i]
				}
				if norm := p.NormalizedScores(); i < len(norm) {
					ps.Normalized = norm[i]
				}
				ps.Weighted = ps.Normalized * p.Weight
				ns.Scores = append(ns.Scores, ps)
			}
			es.Nodes = append(es.Nodes, ns)
		}
		e.Score = es
	}
	if s := c.Selection; s != nil {
		e.Selection = &Selection{Node: s.Node, Rule: s.Rule, Explanation: narrate.Selection(c), Best: s.Best, Top: exportNames(c, s.Top)}
	}
	for _, t := range c.Timings {
		e.Timings = append(e.Timings, PhaseDuration{Phase: t.Phase, Duration: Duration(t.Duration)})
	}
	return e
}

// WithShortfalls adds to e, the export of c, the numbers behind c's
// resource rejections (s, recorder.ShortfallsOf; nil adds nothing).
func (e Cycle) WithShortfalls(c *recorder.Cycle, s *recorder.Shortfalls) Cycle {
	if s == nil || e.Filter == nil || c.Filter == nil || len(e.Filter.Rejected) != len(c.Filter.Rejected) {
		return e
	}
	f := *e.Filter
	f.Rejected = append([]NodeStatus(nil), f.Rejected...)
	for i, r := range c.Filter.Rejected {
		for _, sh := range s.Nodes[r.Node] {
			f.Rejected[i].Shortfalls = append(f.Rejected[i].Shortfalls, Shortfall{Resource: sh.Resource, Asked: sh.Asked,
				Allocatable: sh.Allocatable, Requested: sh.Requested, Free: sh.Free(), Short: sh.Short()})
		}
	}
	for _, rf := range s.Resources {
		f.Resources = append(f.Resources, ResourceFree{ResourceFree: rf, TooLarge: rf.TooLarge(), Fragmented: rf.Fragmented(), Text: narrate.ResourceFree(rf)})
	}
	e.Filter = &f
	return e
}

// NewObserved exports a binding observed on a live cluster.
func NewObserved(o *recorder.Observed) Observed {
	return Observed{Pod: o.Pod, Node: o.Node, Message: o.Message, Time: o.Time, Seq: o.Seq, Predicted: o.Predicted, TieSet: o.TieSet, Nominated: o.Nominated, Agrees: o.Agrees()}
}

// PodState is where a pod stands, with its message and hint worded.
type PodState struct {
	recorder.PodState
	// Message is narrate.PodMessage: the PodScheduled message, or what
	// schedscope knows of a pod without one.
	Message string `json:"message,omitempty"`
	// Hint is narrate.PodHint: what would let a pod that never got a cycle
	// be scheduled.
	Hint string `json:"hint,omitempty"`
}

// NewPodStates exports pod states.
func NewPodStates(states []recorder.PodState) []PodState {
	if states == nil {
		return nil
	}
	out := make([]PodState, len(states))
	for i, st := range states {
		out[i] = PodState{PodState: st, Message: narrate.PodMessage(st), Hint: narrate.PodHint(st)}
	}
	return out
}
