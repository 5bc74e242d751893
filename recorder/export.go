package recorder

import (
	"fmt"
	"strconv"
	"time"
)

// The exported JSON of cycles (explain -o json, replay --no-tui -o json, and
// one object per line in live --no-tui -o json) is plain where a recording
// is compact: node names instead of indices, every list expanded, readable
// keys, durations as Go durations ("1.5ms"). It is versioned by
// ExportFormat and ExportSchemaVersion and described by
// recorder/schema/explain.schema.json; a change to these types changes the
// schema and, when it is not only an addition, the version.
const (
	ExportFormat        = "schedscope-export"
	ExportSchemaVersion = 1
)

// Duration is a duration that JSON spells as Go does ("812ns", "2.4ms").
type Duration time.Duration

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, time.Duration(d).String()), nil
}

// UnmarshalJSON reads a duration written by MarshalJSON.
func (d *Duration) UnmarshalJSON(data []byte) error {
	s, err := strconv.Unquote(string(data))
	if err != nil {
		return fmt.Errorf("duration must be a string like \"1.5ms\": %s", data)
	}
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}

// ExportDocument is a recording or an explain run as one JSON document.
type ExportDocument struct {
	Format        string       `json:"format"`
	SchemaVersion int          `json:"schemaVersion"`
	Header        ExportHeader `json:"header"`
	// Warnings are the fixture loader's warnings (explain).
	Warnings []string `json:"warnings,omitempty"`
	// Problems are what was wrong with the recording read (replay).
	Problems []string         `json:"problems,omitempty"`
	Cycles   []ExportCycle    `json:"cycles"`
	Observed []ExportObserved `json:"observed,omitempty"`
	// Pods are where every pod stands (see PodStates).
	Pods []PodState `json:"pods,omitempty"`
}

// ExportHeader is a recording's header without its format fields.
type ExportHeader struct {
	// Unreadable says the recording's header was damaged; the other fields are unknown.
	Unreadable        bool   `json:"unreadable,omitempty"`
	SchedscopeVersion string `json:"schedscopeVersion"`
	KubernetesVersion string `json:"kubernetesVersion"`
	// Created is omitted when the header is unreadable.
	Created time.Time `json:"created,omitzero"`
	Source  Source    `json:"source"`
	// Clock is the clock the cycles' start times were read from (see Header.Clock).
	Clock    string    `json:"clock,omitempty"`
	Profiles []Profile `json:"profiles"`
}

// ExportCycle is one cycle with node names spelled out.
type ExportCycle struct {
	Seq      int       `json:"seq"`
	Pod      PodRef    `json:"pod"`
	Profile  string    `json:"profile"`
	Attempt  int       `json:"attempt"`
	Start    time.Time `json:"start"`
	Duration Duration  `json:"duration"`
	// Nodes lists the nodes of the scheduler's snapshot, in its order.
	Nodes       []string              `json:"nodes"`
	NodeUse     []ExportNodeUse       `json:"nodeUse,omitempty"`
	SearchStart int                   `json:"searchStart"`
	NodesToFind int                   `json:"nodesToFind"`
	FastPath    *FastPath             `json:"fastPath,omitempty"`
	BatchHint   string                `json:"batchHint,omitempty"`
	PreFilter   *ExportPreFilter      `json:"preFilter,omitempty"`
	Filter      *ExportFilter         `json:"filter,omitempty"`
	Diagnostic  *ExportDiagnostic     `json:"diagnostic,omitempty"`
	PostFilter  *ExportPostFilter     `json:"postFilter,omitempty"`
	Score       *ExportScore          `json:"score,omitempty"`
	Selection   *ExportSelection      `json:"selection,omitempty"`
	Reserve     []ExportPluginStatus  `json:"reserve,omitempty"`
	Unreserve   []ExportPluginStatus  `json:"unreserve,omitempty"`
	Permit      []ExportPluginStatus  `json:"permit,omitempty"`
	PreBind     []ExportPluginStatus  `json:"preBind,omitempty"`
	Bind        []ExportPluginStatus  `json:"bind,omitempty"`
	PostBind    []ExportPluginStatus  `json:"postBind,omitempty"`
	Outcome     Outcome               `json:"outcome"`
	Timings     []ExportPhaseDuration `json:"timings,omitempty"`
}

// ExportNodeUse is what the scheduler saw placed on a node.
type ExportNodeUse struct {
	Node       string           `json:"node"`
	Generation int64            `json:"generation"`
	Requested  map[string]int64 `json:"requested,omitempty"`
	Pods       []PodRef         `json:"pods,omitempty"`
}

// ExportPluginStatus is what one plugin returned at one extension point.
type ExportPluginStatus struct {
	Plugin   string   `json:"plugin"`
	Code     string   `json:"code"`
	Reasons  []string `json:"reasons,omitempty"`
	Duration Duration `json:"duration"`
	Timeout  Duration `json:"timeout,omitempty"`
}

// ExportPreFilter is the PreFilter extension point.
type ExportPreFilter struct {
	Plugins       []ExportPluginStatus `json:"plugins"`
	Code          string               `json:"code"`
	Message       string               `json:"message,omitempty"`
	NodeSubset    []string             `json:"nodeSubset,omitempty"`
	SubsetPlugins []string             `json:"subsetPlugins,omitempty"`
}

// ExportFilter is the Filter extension point.
type ExportFilter struct {
	Plugins     []string            `json:"plugins"`
	Skipped     []string            `json:"skipped,omitempty"`
	Feasible    []string            `json:"feasible"`
	Rejected    []ExportNodeStatus  `json:"rejected,omitempty"`
	Discarded   []string            `json:"discarded,omitempty"`
	Evaluated   int                 `json:"evaluated"`
	PluginCalls []ExportPluginCalls `json:"pluginCalls,omitempty"`
}

// ExportNodeStatus is a node's result: the plugin that rejected it (empty
// when none is named), its code and reasons.
type ExportNodeStatus struct {
	Node    string   `json:"node"`
	Plugin  string   `json:"plugin"`
	Code    string   `json:"code"`
	Reasons []string `json:"reasons,omitempty"`
}

// ExportPluginCalls is a Filter plugin's summed time and number of calls.
type ExportPluginCalls struct {
	Plugin   string   `json:"plugin"`
	Calls    int      `json:"calls"`
	Duration Duration `json:"duration"`
}

// ExportDiagnostic is the diagnostic pass: every non-Success cell.
type ExportDiagnostic struct {
	Plugins []string           `json:"plugins"`
	Cells   []ExportNodeStatus `json:"cells,omitempty"`
}

// ExportPostFilter is PostFilter (preemption).
type ExportPostFilter struct {
	Plugins       []ExportPluginStatus `json:"plugins"`
	Code          string               `json:"code"`
	Message       string               `json:"message,omitempty"`
	NominatedNode string               `json:"nominatedNode,omitempty"`
	Candidates    []Candidate          `json:"candidates,omitempty"`
	Rejected      []Candidate          `json:"rejected,omitempty"`
	Victims       []PodRef             `json:"victims,omitempty"`
}

// ExportScore is PreScore, Score and NormalizeScore, one row per scored node.
type ExportScore struct {
	PreScore []ExportPluginStatus `json:"preScore,omitempty"`
	Plugins  []ExportScorePlugin  `json:"plugins"`
	Nodes    []ExportNodeScore    `json:"nodes"`
}

// ExportScorePlugin is a score plugin's weight and time.
type ExportScorePlugin struct {
	Name              string   `json:"name"`
	Weight            int64    `json:"weight"`
	Duration          Duration `json:"duration"`
	NormalizeDuration Duration `json:"normalizeDuration"`
}

// ExportNodeScore is one scored node, in the order scoring received them.
type ExportNodeScore struct {
	Node   string              `json:"node"`
	Total  int64               `json:"total"`
	Scores []ExportPluginScore `json:"scores"`
}

// ExportPluginScore is one plugin's score of one node. Normalized equals Raw
// for a plugin without NormalizeScore; Weighted is Normalized times the weight.
type ExportPluginScore struct {
	Plugin     string `json:"plugin"`
	Raw        int64  `json:"raw"`
	Normalized int64  `json:"normalized"`
	Weighted   int64  `json:"weighted"`
}

// ExportSelection is how the host was chosen.
type ExportSelection struct {
	Node string `json:"node"`
	// Rule is one of the Rule constants; Explanation words it.
	Rule        string   `json:"rule"`
	Explanation string   `json:"explanation"`
	Best        int64    `json:"best"`
	Top         []string `json:"top,omitempty"`
}

// ExportPhaseDuration is the wall time of one phase.
type ExportPhaseDuration struct {
	Phase    string   `json:"phase"`
	Duration Duration `json:"duration"`
}

// ExportObserved is a binding a live cluster's scheduler made.
type ExportObserved struct {
	Pod       PodRef    `json:"pod"`
	Node      string    `json:"node,omitempty"`
	Message   string    `json:"message,omitempty"`
	Time      time.Time `json:"time"`
	Seq       int       `json:"seq,omitempty"`
	Predicted string    `json:"predicted,omitempty"`
	TieSet    []string  `json:"tieSet,omitempty"`
	Nominated string    `json:"nominated,omitempty"`
	Agrees    bool      `json:"agrees"`
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
func exportProfiles(profiles []Profile) []Profile {
	out := make([]Profile, len(profiles))
	for i, p := range profiles {
		p.ExtensionPoints = append([]ExtensionPoint{}, p.ExtensionPoints...)
		for j := range p.ExtensionPoints {
			p.ExtensionPoints[j].Plugins = orEmpty(p.ExtensionPoints[j].Plugins)
		}
		out[i] = p
	}
	return out
}

// NewExportDocument exports a header and its cycles and observed bindings.
func NewExportDocument(h Header, cycles []*Cycle, observed []*Observed) ExportDocument {
	doc := ExportDocument{
		Format: ExportFormat, SchemaVersion: ExportSchemaVersion,
		Header: ExportHeader{
			Unreadable: h.Unreadable, SchedscopeVersion: h.SchedscopeVersion, KubernetesVersion: h.KubernetesVersion,
			Created: h.Created, Source: h.Source, Clock: h.Clock, Profiles: exportProfiles(h.Profiles),
		},
		Cycles: make([]ExportCycle, len(cycles)),
	}
	for i, c := range cycles {
		doc.Cycles[i] = NewExportCycle(c)
	}
	for _, o := range observed {
		doc.Observed = append(doc.Observed, NewExportObserved(o))
	}
	return doc
}

// exportName names node index i of c, or "#i" when c's node set is missing.
func exportName(c *Cycle, i int) string { return c.NodeName(i) }

func exportNames(c *Cycle, idx []int) []string {
	if idx == nil {
		return nil
	}
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = exportName(c, i)
	}
	return out
}

func exportStatuses(ps []PluginStatus) []ExportPluginStatus {
	if ps == nil {
		return nil
	}
	out := make([]ExportPluginStatus, len(ps))
	for i, p := range ps {
		out[i] = ExportPluginStatus{Plugin: p.Plugin, Code: p.Code, Reasons: p.Reasons, Duration: Duration(p.Duration), Timeout: Duration(p.Timeout)}
	}
	return out
}

func exportNodeStatus(c *Cycle, plugins []string, node, plugin int, code string, reasons []string) ExportNodeStatus {
	s := ExportNodeStatus{Node: exportName(c, node), Code: code, Reasons: reasons}
	if plugin >= 0 && plugin < len(plugins) {
		s.Plugin = plugins[plugin]
	}
	return s
}

// NewExportCycle exports one cycle; live --no-tui -o json prints one per line.
func NewExportCycle(c *Cycle) ExportCycle {
	e := ExportCycle{
		Seq: c.Seq, Pod: c.Pod, Profile: c.Profile, Attempt: c.Attempt, Start: c.Start, Duration: Duration(c.Duration),
		Nodes: []string{}, SearchStart: c.SearchStart, NodesToFind: c.NodesToFind, FastPath: c.FastPath, BatchHint: c.BatchHint,
		Reserve: exportStatuses(c.Reserve), Unreserve: exportStatuses(c.Unreserve), Permit: exportStatuses(c.Permit),
		PreBind: exportStatuses(c.PreBind), Bind: exportStatuses(c.Bind), PostBind: exportStatuses(c.PostBind),
		Outcome: c.Outcome,
	}
	if c.Nodes != nil {
		e.Nodes = append(e.Nodes, c.Nodes.Names...)
	}
	for _, nu := range c.NodeUse {
		e.NodeUse = append(e.NodeUse, ExportNodeUse{Node: exportName(c, nu.Node), Generation: nu.Generation, Requested: nu.Requested, Pods: nu.Pods})
	}
	if pf := c.PreFilter; pf != nil {
		e.PreFilter = &ExportPreFilter{Plugins: orEmpty(exportStatuses(pf.Plugins)), Code: pf.Code, Message: pf.Message, NodeSubset: pf.NodeSubset, SubsetPlugins: pf.SubsetPlugins}
	}
	if f := c.Filter; f != nil {
		ef := &ExportFilter{Plugins: orEmpty(f.Plugins), Skipped: f.Skipped, Feasible: orEmpty(exportNames(c, f.Feasible)), Discarded: exportNames(c, f.Discarded), Evaluated: f.Evaluated}
		for _, r := range f.Rejected {
			ef.Rejected = append(ef.Rejected, exportNodeStatus(c, f.Plugins, r.Node, r.Plugin, r.Code, r.Reasons))
		}
		for i, p := range f.Plugins {
			if i < len(f.Durations) || i < len(f.Calls) {
				pc := ExportPluginCalls{Plugin: p}
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
		ed := &ExportDiagnostic{Plugins: orEmpty(d.Plugins)}
		for _, cell := range d.Cells {
			ed.Cells = append(ed.Cells, exportNodeStatus(c, d.Plugins, cell.Node, cell.Plugin, cell.Code, cell.Reasons))
		}
		e.Diagnostic = ed
	}
	if p := c.PostFilter; p != nil {
		e.PostFilter = &ExportPostFilter{Plugins: orEmpty(exportStatuses(p.Plugins)), Code: p.Code, Message: p.Message, NominatedNode: p.NominatedNode,
			Candidates: p.Candidates, Rejected: p.Rejected, Victims: p.Victims}
	}
	if s := c.Score; s != nil {
		es := &ExportScore{PreScore: exportStatuses(s.PreScore), Plugins: []ExportScorePlugin{}, Nodes: []ExportNodeScore{}}
		for _, p := range s.Plugins {
			es.Plugins = append(es.Plugins, ExportScorePlugin{Name: p.Name, Weight: p.Weight, Duration: Duration(p.Duration), NormalizeDuration: Duration(p.NormalizeDuration)})
		}
		for i, n := range s.Nodes {
			ns := ExportNodeScore{Node: exportName(c, n), Scores: []ExportPluginScore{}}
			if i < len(s.Totals) {
				ns.Total = s.Totals[i]
			}
			for _, p := range s.Plugins {
				ps := ExportPluginScore{Plugin: p.Name}
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
		e.Selection = &ExportSelection{Node: s.Node, Rule: s.Rule, Explanation: s.Explain(c), Best: s.Best, Top: exportNames(c, s.Top)}
	}
	for _, t := range c.Timings {
		e.Timings = append(e.Timings, ExportPhaseDuration{Phase: t.Phase, Duration: Duration(t.Duration)})
	}
	return e
}

// NewExportObserved exports a binding observed on a live cluster.
func NewExportObserved(o *Observed) ExportObserved {
	return ExportObserved{Pod: o.Pod, Node: o.Node, Message: o.Message, Time: o.Time, Seq: o.Seq, Predicted: o.Predicted, TieSet: o.TieSet, Nominated: o.Nominated, Agrees: o.Agrees()}
}
