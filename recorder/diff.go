package recorder

import (
	"cmp"
	"slices"
	"strings"
)

// CycleDiff is what differs between two cycles of one pod: a what-if against
// the cycle it changed, two attempts of a pod, or the pod in two recordings.
// Nodes are named, never indexed, so that cycles over different node sets
// compare.
type CycleDiff struct {
	Pod    string       `json:"pod"`
	Before CycleSummary `json:"before"`
	After  CycleSummary `json:"after"`
	// Same is set when nothing below differs.
	Same bool `json:"same"`
	// OutcomeChanged is set when the result or the node differ.
	OutcomeChanged bool `json:"outcomeChanged"`
	// NodesAdded and NodesRemoved are nodes in only one of the snapshots.
	NodesAdded   []string `json:"nodesAdded,omitempty"`
	NodesRemoved []string `json:"nodesRemoved,omitempty"`
	// BecameFeasible are nodes rejected before and feasible after; Before
	// holds the rejection that went away.
	BecameFeasible []NodeFilterChange `json:"becameFeasible,omitempty"`
	// BecameInfeasible are nodes feasible before and rejected after.
	BecameInfeasible []NodeFilterChange `json:"becameInfeasible,omitempty"`
	// RejectionChanged are nodes rejected in both, for another reason.
	RejectionChanged []NodeFilterChange `json:"rejectionChanged,omitempty"`
	// Weights are score plugins whose weight differs (0: not enabled).
	Weights []WeightChange `json:"weights,omitempty"`
	// Scores are nodes whose weighted total or per-plugin scores differ,
	// largest change of total first.
	Scores []NodeScoreChange `json:"scores,omitempty"`
	// Winner says how the choice of node changed, and why.
	Winner *WinnerChange `json:"winner,omitempty"`
	// Sampling is set when the search visited a different window of nodes.
	Sampling *SamplingChange `json:"sampling,omitempty"`
}

// CycleSummary is one side of a diff.
type CycleSummary struct {
	Seq           int    `json:"seq"`
	Result        string `json:"result"`
	Node          string `json:"node,omitempty"`
	Message       string `json:"message,omitempty"`
	NominatedNode string `json:"nominatedNode,omitempty"`
	Rule          string `json:"rule,omitempty"`
	Feasible      int    `json:"feasible"`
	Evaluated     int    `json:"evaluated"`
	Nodes         int    `json:"nodes"`
}

// Rejection is why a filter turned a node down.
type Rejection struct {
	// Plugin is the rejecting plugin, or the PreFilter plugin that rejected
	// the pod everywhere, or "" when the scheduler named none.
	Plugin  string   `json:"plugin,omitempty"`
	Code    string   `json:"code"`
	Reasons []string `json:"reasons,omitempty"`
}

// String words the rejection as "Plugin: reason; reason".
func (r *Rejection) String() string {
	if r == nil {
		return "feasible"
	}
	who := r.Plugin
	if who == "" {
		who = r.Code
	}
	if len(r.Reasons) == 0 {
		return who
	}
	return who + ": " + strings.Join(r.Reasons, "; ")
}

// NodeFilterChange is one node's filter result on both sides; nil is feasible.
type NodeFilterChange struct {
	Node   string     `json:"node"`
	Before *Rejection `json:"before,omitempty"`
	After  *Rejection `json:"after,omitempty"`
}

// WeightChange is a score plugin whose weight differs.
type WeightChange struct {
	Plugin string `json:"plugin"`
	Before int64  `json:"before"`
	After  int64  `json:"after"`
}

// NodeScoreChange is a node's weighted scores on both sides. A side where
// the node was not scored has nil totals.
type NodeScoreChange struct {
	Node        string              `json:"node"`
	TotalBefore *int64              `json:"totalBefore,omitempty"`
	TotalAfter  *int64              `json:"totalAfter,omitempty"`
	Plugins     []PluginScoreChange `json:"plugins,omitempty"`
}

// PluginScoreChange is one plugin's weighted score of one node on both sides.
type PluginScoreChange struct {
	Plugin string `json:"plugin"`
	Before int64  `json:"before"`
	After  int64  `json:"after"`
}

// WinnerChange says which node the pod went to on each side, and why the
// one that lost its place lost it, as data (narrate words it).
type WinnerChange struct {
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	// Reason is one of the Winner* constants.
	Reason string `json:"reason"`
	// NominatedNode is the node preemption nominated (WinnerPreempting).
	NominatedNode string `json:"nominatedNode,omitempty"`
	// Rejection is the status that now rejects Before (WinnerRejected, and
	// WinnerNoneFeasible when Before is still in the cluster).
	Rejection *Rejection `json:"rejection,omitempty"`
	// BeforeRemoved says Before is no longer in the cluster (WinnerNoneFeasible).
	BeforeRemoved bool `json:"beforeRemoved,omitempty"`
	// How the later cycle chose After (WinnerNowFeasible, WinnerNoScores,
	// WinnerTie): its rule, fast path kind, how many nodes tied and at what total.
	Rule     string `json:"rule,omitempty"`
	FastPath string `json:"fastPath,omitempty"`
	Tied     int    `json:"tied,omitempty"`
	Best     int64  `json:"best,omitempty"`
	// BeforeTotal and AfterTotal are both nodes' totals in the later cycle
	// (WinnerTie, WinnerOutscored).
	BeforeTotal int64 `json:"beforeTotal,omitempty"`
	AfterTotal  int64 `json:"afterTotal,omitempty"`
	// Contributions make up BeforeTotal − AfterTotal, largest first (WinnerOutscored).
	Contributions []Contribution `json:"contributions,omitempty"`
}

// Why the chosen node changed (WinnerChange.Reason).
const (
	// WinnerPreempting: no node fits; preemption nominated NominatedNode.
	WinnerPreempting = "Preempting"
	// WinnerNoneFeasible: no node passes filtering any more.
	WinnerNoneFeasible = "NoneFeasible"
	// WinnerNowFeasible: a node passes filtering where none did.
	WinnerNowFeasible = "NowFeasible"
	// WinnerRemoved: Before is no longer in the cluster.
	WinnerRemoved = "Removed"
	// WinnerNotEvaluated: the search stopped before reaching Before
	// (percentageOfNodesToScore).
	WinnerNotEvaluated = "NotEvaluated"
	// WinnerRejected: a filter now rejects Before (Rejection).
	WinnerRejected = "Rejected"
	// WinnerNotScored: Before passed filtering but was left out of scoring
	// (the search had found enough feasible nodes).
	WinnerNotScored = "NotScored"
	// WinnerNoScores: Before passed filtering, and the later cycle chose
	// without scoring (Rule).
	WinnerNoScores = "NoScores"
	// WinnerTie: Before ties with After; the tie-break chose After.
	WinnerTie = "Tie"
	// WinnerOutscored: Before's total is lower (Contributions).
	WinnerOutscored = "Outscored"
)

// SamplingChange is a difference in the window of nodes the search visited
// (percentageOfNodesToScore).
type SamplingChange struct {
	SearchStartBefore int `json:"searchStartBefore"`
	SearchStartAfter  int `json:"searchStartAfter"`
	NodesToFindBefore int `json:"nodesToFindBefore"`
	NodesToFindAfter  int `json:"nodesToFindAfter"`
	EvaluatedBefore   int `json:"evaluatedBefore"`
	EvaluatedAfter    int `json:"evaluatedAfter"`
	// OnlyBefore and OnlyAfter count nodes evaluated on one side only.
	OnlyBefore int `json:"onlyBefore"`
	OnlyAfter  int `json:"onlyAfter"`
}

// filterView is one cycle's filter result by node name: nil for a feasible
// node, a rejection, or absent when the node was not evaluated.
type filterView struct {
	nodes     []string
	status    map[string]*Rejection
	evaluated map[string]bool
}

// filterByName reads a cycle's filter results by node name.
func filterByName(c *Cycle) filterView {
	v := filterView{status: map[string]*Rejection{}, evaluated: map[string]bool{}}
	for i := 0; i < c.NumNodes(); i++ {
		v.nodes = append(v.nodes, c.NodeName(i))
	}
	if fp := c.FastPath; fp != nil && fp.Feasible {
		v.evaluated[fp.Node] = true
		v.status[fp.Node] = nil
		return v
	}
	if c.Filter == nil {
		// Rejected before any filter ran: PreFilter turned the pod down on
		// every node (or the nodes it allowed).
		if pf := c.PreFilter; pf != nil && pf.Code != "" && pf.Code != CodeSuccess {
			r := &Rejection{Code: pf.Code}
			for _, ps := range pf.Plugins {
				if ps.Code != CodeSuccess && ps.Code != CodeSkip {
					r.Plugin, r.Reasons = ps.Plugin, ps.Reasons
					break
				}
			}
			if r.Reasons == nil && pf.Message != "" {
				r.Reasons = []string{pf.Message}
			}
			for _, n := range v.nodes {
				v.evaluated[n] = true
				v.status[n] = r
			}
		}
		return v
	}
	for _, i := range c.Filter.Feasible {
		n := c.NodeName(i)
		v.evaluated[n] = true
		v.status[n] = nil
	}
	for _, i := range c.Filter.Discarded {
		n := c.NodeName(i)
		v.evaluated[n] = true
		v.status[n] = nil
	}
	for _, r := range c.Filter.Rejected {
		n := c.NodeName(r.Node)
		rej := &Rejection{Code: r.Code, Reasons: r.Reasons}
		if r.Plugin >= 0 && r.Plugin < len(c.Filter.Plugins) {
			rej.Plugin = c.Filter.Plugins[r.Plugin]
		}
		v.evaluated[n] = true
		v.status[n] = rej
	}
	return v
}

func Summarize(c *Cycle) CycleSummary {
	s := CycleSummary{Seq: c.Seq, Result: c.Outcome.Result, Node: c.Outcome.Node, Message: c.Outcome.Message,
		NominatedNode: c.Outcome.NominatedNode, Nodes: c.NumNodes()}
	if c.Selection != nil {
		s.Rule = c.Selection.Rule
	}
	switch {
	case c.FastPath != nil && c.FastPath.Feasible:
		s.Feasible, s.Evaluated = 1, 1
	case c.Filter != nil:
		s.Feasible = len(c.Filter.Feasible)
		s.Evaluated = c.Filter.Evaluated
	}
	return s
}

// DiffCycles compares two cycles of one pod, before and after.
func DiffCycles(before, after *Cycle) *CycleDiff {
	d := &CycleDiff{Pod: after.Pod.Key(), Before: Summarize(before), After: Summarize(after)}
	d.OutcomeChanged = d.Before.Result != d.After.Result || d.Before.Node != d.After.Node
	fb, fa := filterByName(before), filterByName(after)
	inBefore, inAfter := map[string]bool{}, map[string]bool{}
	for _, n := range fb.nodes {
		inBefore[n] = true
	}
	for _, n := range fa.nodes {
		inAfter[n] = true
		if !inBefore[n] {
			d.NodesAdded = append(d.NodesAdded, n)
		}
	}
	for _, n := range fb.nodes {
		if !inAfter[n] {
			d.NodesRemoved = append(d.NodesRemoved, n)
		}
	}
	sampling := &SamplingChange{SearchStartBefore: before.SearchStart, SearchStartAfter: after.SearchStart,
		NodesToFindBefore: before.NodesToFind, NodesToFindAfter: after.NodesToFind,
		EvaluatedBefore: len(fb.evaluated), EvaluatedAfter: len(fa.evaluated)}
	for _, n := range fa.nodes {
		if !inBefore[n] {
			continue
		}
		eb, ea := fb.evaluated[n], fa.evaluated[n]
		switch {
		case eb && !ea:
			sampling.OnlyBefore++
			continue
		case ea && !eb:
			sampling.OnlyAfter++
			continue
		case !eb && !ea:
			continue
		}
		rb, ra := fb.status[n], fa.status[n]
		ch := NodeFilterChange{Node: n, Before: rb, After: ra}
		switch {
		case rb != nil && ra == nil:
			d.BecameFeasible = append(d.BecameFeasible, ch)
		case rb == nil && ra != nil:
			d.BecameInfeasible = append(d.BecameInfeasible, ch)
		case rb != nil && ra != nil && rb.String() != ra.String():
			d.RejectionChanged = append(d.RejectionChanged, ch)
		}
	}
	fastPath := func(c *Cycle) bool { return c.FastPath != nil && c.FastPath.Feasible }
	// A fast path checks one node by design; that is no sampling window.
	sampled := func(c *Cycle) bool { return c.NodesToFind > 0 && c.NodesToFind < c.NumNodes() }
	if !fastPath(before) && !fastPath(after) && (sampled(before) || sampled(after)) &&
		(sampling.OnlyBefore > 0 || sampling.OnlyAfter > 0 || before.NodesToFind != after.NodesToFind) {
		d.Sampling = sampling
	}
	d.Weights = weightChanges(before.Score, after.Score)
	d.Scores = scoreChanges(before, after)
	// A node in only one snapshot is listed as added or removed, not as a
	// score that appeared or vanished.
	d.Scores = slices.DeleteFunc(d.Scores, func(s NodeScoreChange) bool {
		return slices.Contains(d.NodesAdded, s.Node) || slices.Contains(d.NodesRemoved, s.Node)
	})
	d.Winner = winnerChange(before, after, fa)
	d.Same = !d.OutcomeChanged && d.Before.Message == d.After.Message && d.Before.NominatedNode == d.After.NominatedNode &&
		len(d.NodesAdded) == 0 && len(d.NodesRemoved) == 0 && len(d.BecameFeasible) == 0 && len(d.BecameInfeasible) == 0 &&
		len(d.RejectionChanged) == 0 && len(d.Weights) == 0 && len(d.Scores) == 0 && d.Sampling == nil
	return d
}

func weightChanges(a, b *ScorePhase) []WeightChange {
	wa, wb := map[string]int64{}, map[string]int64{}
	var names []string
	if a != nil {
		for _, p := range a.Plugins {
			wa[p.Name] = p.Weight
			names = append(names, p.Name)
		}
	}
	if b != nil {
		for _, p := range b.Plugins {
			wb[p.Name] = p.Weight
			if _, ok := wa[p.Name]; !ok {
				names = append(names, p.Name)
			}
		}
	}
	// A side that scored nothing says nothing about weights.
	if a == nil || b == nil || len(a.Nodes) == 0 || len(b.Nodes) == 0 {
		return nil
	}
	var out []WeightChange
	for _, n := range names {
		if wa[n] != wb[n] {
			out = append(out, WeightChange{Plugin: n, Before: wa[n], After: wb[n]})
		}
	}
	return out
}

// scoresByName is one cycle's weighted scores: node → plugin → score, and totals.
func scoresByName(c *Cycle) (map[string]map[string]int64, map[string]int64, []string) {
	per, totals := map[string]map[string]int64{}, map[string]int64{}
	var plugins []string
	s := c.Score
	if s == nil {
		return per, totals, nil
	}
	for _, p := range s.Plugins {
		plugins = append(plugins, p.Name)
	}
	for i, ni := range s.Nodes {
		n := c.NodeName(ni)
		m := map[string]int64{}
		for p := range s.Plugins {
			if i < len(s.Plugins[p].NormalizedScores()) {
				m[s.Plugins[p].Name] = s.Weighted(p, i)
			}
		}
		per[n] = m
		if i < len(s.Totals) {
			totals[n] = s.Totals[i]
		}
	}
	return per, totals, plugins
}

func scoreChanges(before, after *Cycle) []NodeScoreChange {
	pb, tb, plb := scoresByName(before)
	pa, ta, pla := scoresByName(after)
	plugins := slices.Clone(plb)
	for _, p := range pla {
		if !slices.Contains(plugins, p) {
			plugins = append(plugins, p)
		}
	}
	var names []string
	for n := range pb {
		names = append(names, n)
	}
	for n := range pa {
		if _, ok := pb[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var out []NodeScoreChange
	for _, n := range names {
		ch := NodeScoreChange{Node: n}
		sb, okb := pb[n]
		sa, oka := pa[n]
		if okb {
			t := tb[n]
			ch.TotalBefore = &t
		}
		if oka {
			t := ta[n]
			ch.TotalAfter = &t
		}
		differs := okb != oka || tb[n] != ta[n]
		if okb && oka {
			for _, p := range plugins {
				if sb[p] != sa[p] {
					ch.Plugins = append(ch.Plugins, PluginScoreChange{Plugin: p, Before: sb[p], After: sa[p]})
					differs = true
				}
			}
		}
		if differs {
			out = append(out, ch)
		}
	}
	delta := func(c NodeScoreChange) int64 {
		var b, a int64
		if c.TotalBefore != nil {
			b = *c.TotalBefore
		}
		if c.TotalAfter != nil {
			a = *c.TotalAfter
		}
		return max(a-b, b-a)
	}
	slices.SortStableFunc(out, func(x, y NodeScoreChange) int { return cmp.Compare(delta(y), delta(x)) })
	return out
}

// winnerChange explains a change of chosen node; nil when it did not change.
func winnerChange(before, after *Cycle, fa filterView) *WinnerChange {
	wb, wa := chosen(before), chosen(after)
	if wb == wa {
		return nil
	}
	w := &WinnerChange{Before: wb, After: wa}
	switch {
	case wa == "" && after.Outcome.NominatedNode != "":
		w.Reason, w.NominatedNode = WinnerPreempting, after.Outcome.NominatedNode
	case wa == "":
		w.Reason = WinnerNoneFeasible
		if r, ok := fa.status[wb]; ok && r != nil {
			w.Rejection = r
		} else if !slices.Contains(fa.nodes, wb) {
			w.BeforeRemoved = true
		}
	case wb == "":
		w.Reason = WinnerNowFeasible
		w.choice(after)
	default:
		r, evaluated := fa.status[wb]
		switch {
		case !slices.Contains(fa.nodes, wb):
			w.Reason = WinnerRemoved
		case !evaluated:
			w.Reason = WinnerNotEvaluated
		case r != nil:
			w.Reason, w.Rejection = WinnerRejected, r
		default:
			w.lostOnScore(after)
		}
	}
	return w
}

// choice notes how c chose its node.
func (w *WinnerChange) choice(c *Cycle) {
	if c.Selection != nil {
		w.Rule, w.Tied, w.Best = c.Selection.Rule, len(c.Selection.Top), c.Selection.Best
	}
	if c.FastPath != nil {
		w.FastPath = c.FastPath.Kind
	}
}

// lostOnScore notes why Before, feasible, did not win in c.
func (w *WinnerChange) lostOnScore(c *Cycle) {
	s := c.Score
	if s == nil {
		w.Reason = WinnerNoScores
		w.choice(c)
		return
	}
	li := slices.IndexFunc(s.Nodes, func(n int) bool { return c.NodeName(n) == w.Before })
	wi := c.WinnerRow()
	if li < 0 || wi < 0 {
		w.Reason = WinnerNotScored
		return
	}
	w.BeforeTotal, w.AfterTotal = s.Totals[li], s.Totals[wi]
	if s.Totals[li] == s.Totals[wi] {
		w.Reason = WinnerTie
		w.choice(c)
		return
	}
	w.Reason, w.Contributions = WinnerOutscored, s.Contributions(wi, li)
}

// chosen is the node a cycle bound (or would bind) the pod to.
func chosen(c *Cycle) string {
	if c.Outcome.Node != "" {
		return c.Outcome.Node
	}
	if c.Selection != nil {
		return c.Selection.Node
	}
	return ""
}
