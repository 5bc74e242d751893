package engine

import (
	"cmp"
	"context"
	"slices"
	"sync"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

// With TopologyAwareWorkloadScheduling on, kube-scheduler v1.37.1's
// podGroupSchedulingPlacementAlgorithm (pkg/scheduler/
// schedule_one_podgroup.go) runs RunPlacementGeneratePlugins, then, for
// each placement in the order generated, narrows the snapshot to its nodes
// and runs podGroupSchedulingDefaultAlgorithm with a fresh placement cycle
// state (PlacementFeasible, each member's SchedulePod, PlacementFeasible
// again), reverting every tentative placement after each; when more than
// one placement fit, findBestPlacement runs RunPlacementScorePlugins and
// takes the highest total (a tie broken at random, not visible here). The
// chosen placement's results are submitted: each member's Reserve runs
// again with the cycle state of its run in that placement. When none fit,
// upstream submits the first placement's results ("first placement
// status").
//
// The engine records it from the same seams as the rest of the group
// cycle: RunPlacementGeneratePlugins and RunPlacementScorePlugins of the
// profile's framework (boundFramework), the PlacementGenerate and
// PlacementScore plugins wrapped in the framework's slices (raw and
// normalized scores), the placement cycle state each PlacementFeasible
// call and each member's cycle state carries (a new one marks the next
// placement), and Reserve's cycle state at submission (the chosen one).
// A member is run once per placement and each run starts a cycle trace;
// the trace of the run that was submitted is the member's cycle record,
// the others are summarized in the candidate (PlacementMember) and not
// written.

// placementTrace is the placements of a group cycle while it runs, under
// the group trace's lock (the score wrappers, which run in parallel, take
// scoreMu for raw and normalized).
type placementTrace struct {
	ph      *recorder.PlacementPhase
	ptrs    []*fwk.Placement
	states  []fwk.PlacementCycleState // each tried candidate's placement cycle state
	traces  [][]*cycleTrace           // candidate → member index → its run's trace
	current int                       // the candidate being tried, -1 before the first
	// reserved are the runs whose Reserve ran while their candidate was tried.
	reserved map[*cycleTrace]bool

	scoreMu sync.Mutex
	raw     map[string]map[*fwk.Placement]int64
	norm    map[string]map[*fwk.Placement]int64
}

// placements returns the running group cycle and its placement trace, the
// group trace locked, when placements are being recorded and the group's
// PostFilter is not re-running the members; the caller unlocks it when
// the trace is not nil.
func (e *Engine) placements() (*groupTrace, *placementTrace) {
	t := e.group.Load()
	if t == nil {
		return nil, nil
	}
	t.mu.Lock()
	if t.inPostFilter || t.placements == nil {
		t.mu.Unlock()
		return nil, nil
	}
	return t, t.placements
}

// isGroup says pgi is the running group cycle's (leaf) group.
func (t *groupTrace) isGroup(pgi fwk.PodGroupInfo) bool {
	return pgi != nil && pgi.GetPodGroup() != nil && pgi.GetNamespace() == t.g.Group.Namespace && pgi.GetName() == t.g.Group.Name
}

// RunPlacementGeneratePlugins records the candidate placements generated,
// in the order the wrapped generator hands them over (orderPlacements).
func (f *boundFramework) RunPlacementGeneratePlugins(ctx context.Context, state fwk.PodGroupCycleState, pgi fwk.PodGroupInfo, nodes []fwk.NodeInfo) ([]*fwk.Placement, *fwk.Status) {
	t := f.e.group.Load()
	var pt *placementTrace
	if t != nil {
		t.mu.Lock()
		if !t.inPostFilter && t.isGroup(pgi) {
			pt = &placementTrace{ph: &recorder.PlacementPhase{}, current: -1, reserved: map[*cycleTrace]bool{},
				raw: map[string]map[*fwk.Placement]int64{}, norm: map[string]map[*fwk.Placement]int64{}}
			if c := pgi.GetPodGroup().Spec.SchedulingConstraints; c != nil && len(c.Topology) > 0 {
				pt.ph.TopologyKey = c.Topology[0].Key
			}
			t.placements = pt
		}
		t.mu.Unlock()
	}
	placements, st := f.Framework.RunPlacementGeneratePlugins(ctx, state, pgi, nodes)
	if pt == nil {
		return placements, st
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	pt.ph.Code, pt.ph.Message = st.Code().String(), st.Message()
	for _, p := range placements {
		if p == nil {
			continue
		}
		c := recorder.PlacementCandidate{Name: p.Name, Nodes: make([]string, 0, len(p.Nodes))}
		domains := map[string]bool{}
		for _, ni := range p.Nodes {
			n := ni.Node()
			if n == nil {
				continue
			}
			c.Nodes = append(c.Nodes, n.Name)
			if pt.ph.TopologyKey != "" {
				domains[n.Labels[pt.ph.TopologyKey]] = true
			}
		}
		if len(domains) == 1 {
			for d := range domains {
				c.Domain = d
			}
		}
		pt.ph.Candidates = append(pt.ph.Candidates, c)
		pt.ptrs = append(pt.ptrs, p)
	}
	pt.traces = make([][]*cycleTrace, len(pt.ptrs))
	return placements, st
}

// placementTry marks the start of the next candidate when state is a
// placement cycle state not seen yet: the members' results so far were the
// previous candidate's.
func (e *Engine) placementTry(state fwk.PlacementCycleState) {
	t, pt := e.placements()
	if pt == nil {
		return
	}
	defer t.mu.Unlock()
	if pt.current >= 0 && pt.states[pt.current] == state {
		return
	}
	if pt.current+1 >= len(pt.ph.Candidates) {
		return
	}
	pt.current++
	pt.states = append(pt.states, state)
	c := &pt.ph.Candidates[pt.current]
	c.Tried = true
	c.Members = make([]recorder.PlacementMember, len(t.g.Members))
	pt.traces[pt.current] = make([]*cycleTrace, len(t.g.Members))
	for i := range t.g.Members {
		m := &t.g.Members[i]
		c.Members[i].Pod = m.Pod.Name
		m.Cycle, m.Node, m.Code, m.Message, m.Assumed = 0, "", "", "", nil
	}
}

// placementVerdict records a PlacementFeasible verdict in the candidate
// being tried.
func (e *Engine) placementVerdict(progress framework.PlacementProgress, st *fwk.Status) {
	t, pt := e.placements()
	if pt == nil {
		return
	}
	defer t.mu.Unlock()
	if pt.current < 0 {
		return
	}
	c := &pt.ph.Candidates[pt.current]
	c.Feasible = append(c.Feasible, recorder.PlacementVerdict{
		Scheduled: progress.Scheduled, Remaining: progress.Remaining,
		Code: st.Code().String(), Message: st.Message(),
	})
}

// placementMember records member pod's run in the candidate being tried
// (after memberEnded), with the trace of its cycle.
func (e *Engine) placementMember(c *cycleTrace, pod *v1.Pod) {
	t, pt := e.placements()
	if pt == nil {
		return
	}
	defer t.mu.Unlock()
	i, ok := t.member[pod.Namespace+"/"+pod.Name]
	if !ok || pt.current < 0 {
		return
	}
	m := t.g.Members[i]
	pt.ph.Candidates[pt.current].Members[i] = recorder.PlacementMember{Pod: m.Pod.Name, Node: m.Node, Code: m.Code, Message: m.Message}
	pt.traces[pt.current][i] = c
}

// submitted is the candidate whose results upstream submits: the chosen
// one, else the first tried (its status is the one reported), else the
// last tried when it ended in an error (upstream returns at once). -1 when
// none was tried.
func (pt *placementTrace) submitted() int {
	if pt.ph.Chosen > 0 {
		return pt.ph.Chosen - 1
	}
	if pt.current < 0 {
		return -1
	}
	if last := &pt.ph.Candidates[pt.current]; candidateCode(last) == recorder.CodeError {
		return pt.current
	}
	return 0
}

// placementSubmitted points the recorder at member pod's run in the
// candidate submitted, before Reserve or FailureHandler records anything of
// the submission: the chosen candidate is the one whose run's cycle state
// Reserve is handed (state, nil from FailureHandler).
func (e *Engine) placementSubmitted(pod *v1.Pod, state fwk.CycleState) {
	t, pt := e.placements()
	if pt == nil {
		return
	}
	defer t.mu.Unlock()
	i, ok := t.member[pod.Namespace+"/"+pod.Name]
	if !ok {
		return
	}
	k := -1
	if state != nil {
		for j := range pt.traces {
			if i < len(pt.traces[j]) && pt.traces[j][i] != nil && pt.traces[j][i].state == state {
				k = j
			}
		}
		if k < 0 {
			return
		}
		// A member's run reserves its node once while its candidate is
		// tried; a second Reserve with that run's state, or one with an
		// earlier candidate's, is the submission of the chosen one.
		tr := pt.traces[k][i]
		if k == pt.current && !pt.reserved[tr] {
			pt.reserved[tr] = true
			return
		}
		pt.ph.Chosen = k + 1
	} else {
		k = pt.submitted()
	}
	if k < 0 {
		return
	}
	c := pt.traces[k][i]
	if c != nil {
		carryUnwritten(c, pt.discarded(k))
	}
	e.trace.pointAt(pod, c)
}

// pointAt makes c the trace pod's phases are recorded on from here (none
// when c is nil), also when pod's cycle is the one running.
func (r *traceState) pointAt(pod *v1.Pod, c *cycleTrace) {
	r.mu.Lock()
	if c != nil {
		r.byUID[pod.UID] = c
	} else {
		delete(r.byUID, pod.UID)
	}
	r.mu.Unlock()
	if cur := r.current.Load(); cur != nil && cur.uid == pod.UID && cur != c {
		r.current.CompareAndSwap(cur, c)
	}
}

// discarded are the traces of the members' runs in every candidate but k:
// they are not written.
func (pt *placementTrace) discarded(k int) []*cycleTrace {
	var out []*cycleTrace
	for j, trs := range pt.traces {
		if j == k {
			continue
		}
		for _, tr := range trs {
			if tr != nil {
				out = append(out, tr)
			}
		}
	}
	return out
}

// A cycle records the use of only the nodes whose use changed since the
// cycle started before it (traceState.nodeUseFor), and the runs of the
// candidates not submitted are never written: what one of them recorded
// first would be missing from the recording. So a submitted run carries
// the entries of the discarded runs started before it, for the nodes it
// has none of (what it saw of them: a reader keeps a node's highest
// generation, and a later written entry wins), and once the group cycle
// ends, the nodes whose last entry was a discarded run's are recorded
// again by the next cycle (forgetUnwritten).

// carryUnwritten adds to w's node use the entries of discarded runs that
// started before it, for the nodes w records nothing of.
func carryUnwritten(w *cycleTrace, discarded []*cycleTrace) {
	w.mu.Lock()
	defer w.mu.Unlock()
	have := map[int]bool{}
	for _, nu := range w.c.NodeUse {
		have[nu.Node] = true
	}
	carried := map[int]recorder.NodeUse{}
	for _, d := range discarded {
		if d.c.Seq > w.c.Seq || d.c.NodeSetID != w.c.NodeSetID {
			continue
		}
		for _, nu := range d.c.NodeUse {
			if b, ok := carried[nu.Node]; !have[nu.Node] && (!ok || nu.Generation > b.Generation) {
				carried[nu.Node] = nu
			}
		}
	}
	if len(carried) == 0 {
		return
	}
	for _, nu := range carried {
		w.c.NodeUse = append(w.c.NodeUse, nu)
	}
	slices.SortFunc(w.c.NodeUse, func(a, b recorder.NodeUse) int { return cmp.Compare(a.Node, b.Node) })
}

// forgetUnwritten makes the next cycle record again every node whose last
// recorded use came from a discarded run.
func (r *traceState) forgetUnwritten(discarded []*cycleTrace) {
	gens := map[int64]bool{}
	for _, d := range discarded {
		for _, nu := range d.c.NodeUse {
			gens[nu.Generation] = true
		}
	}
	if len(gens) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, lu := range r.lastUse {
		if lu != nil && gens[lu.Generation] && i < len(r.nodeGens) {
			r.lastUse[i] = nil
			r.nodeGens[i] = -1
		}
	}
}

// candidateCode is a tried candidate's result: its members' algorithm
// ended in Error, or its last PlacementFeasible verdict (Wait left at the
// end is Unschedulable, as upstream turns it).
func candidateCode(c *recorder.PlacementCandidate) string {
	for _, m := range c.Members {
		if m.Code == recorder.CodeError {
			return recorder.CodeError
		}
	}
	if len(c.Feasible) == 0 {
		return ""
	}
	code := c.Feasible[len(c.Feasible)-1].Code
	if code == fwk.Wait.String() {
		return fwk.Unschedulable.String()
	}
	return code
}

// finishPlacements completes the placements of t's cycle when it ends,
// under t's lock: each tried candidate's result, and the group's members
// and PlacementFeasible verdicts as the candidate submitted had them.
func (t *groupTrace) finishPlacements(r *traceState) {
	pt := t.placements
	if pt == nil {
		return
	}
	defer func() { r.forgetUnwritten(pt.discarded(pt.submitted())) }()
	t.g.Placements = pt.ph
	for k := range pt.ph.Candidates {
		c := &pt.ph.Candidates[k]
		if !c.Tried {
			continue
		}
		c.Code = candidateCode(c)
		if n := len(c.Feasible); n > 0 && c.Code != recorder.CodeSuccess {
			c.Message = c.Feasible[n-1].Message
		}
		for _, m := range c.Members {
			if c.Message == "" && m.Code == recorder.CodeError {
				c.Message = m.Message
			}
		}
	}
	if pt.ph.Chosen == 0 && pt.ph.Fitting() == 1 && t.g.Outcome.Result == recorder.ResultBound {
		for k := range pt.ph.Candidates {
			if pt.ph.Candidates[k].Fit() {
				pt.ph.Chosen = k + 1
			}
		}
	}
	k := pt.submitted()
	if k < 0 {
		t.g.Feasible = nil
		return
	}
	c := pt.ph.Candidates[k]
	t.g.Feasible = c.Feasible
	for i := range t.g.Members {
		m := &t.g.Members[i]
		m.Cycle, m.Node, m.Code, m.Message, m.Assumed = 0, "", "", "", nil
		if i >= len(c.Members) {
			continue
		}
		pm := c.Members[i]
		m.Node, m.Code, m.Message = pm.Node, pm.Code, pm.Message
		if tr := pt.traces[k][i]; tr != nil {
			m.Cycle = tr.c.Seq
		}
		for _, o := range c.Members[:i] {
			if o.Node != "" {
				m.Assumed = append(m.Assumed, recorder.Placement{Pod: o.Pod, Node: o.Node})
			}
		}
	}
}

// RunPlacementScorePlugins records each candidate's scores, unchanged.
func (f *boundFramework) RunPlacementScorePlugins(ctx context.Context, state fwk.PodGroupCycleState, pgi fwk.PodGroupInfo, assignments []*fwk.PodGroupAssignments, states []fwk.PlacementCycleState) ([]fwk.PlacementPluginScores, *fwk.Status) {
	scores, st := f.Framework.RunPlacementScorePlugins(ctx, state, pgi, assignments, states)
	t, pt := f.e.placements()
	if pt == nil {
		return scores, st
	}
	defer t.mu.Unlock()
	if !t.isGroup(pgi) {
		return scores, st
	}
	pt.ph.Scored = true
	pt.scoreMu.Lock()
	defer pt.scoreMu.Unlock()
	for _, s := range scores {
		k := -1
		for j, p := range pt.ptrs {
			if p == s.Placement {
				k = j
			}
		}
		if k < 0 {
			continue
		}
		c := &pt.ph.Candidates[k]
		c.Total = s.TotalScore
		c.Scores = c.Scores[:0]
		for _, ps := range s.Scores {
			raw := pt.raw[ps.Name][s.Placement]
			norm, ok := pt.norm[ps.Name][s.Placement]
			if !ok {
				norm = raw
			}
			c.Scores = append(c.Scores, recorder.PlacementPluginScore{Plugin: ps.Name, Raw: raw, Normalized: norm, Score: ps.Score})
		}
	}
	return scores, st
}

// RunReservePluginsReserve points the recorder at the member's run in the
// placement being submitted before recording Reserve, and records, for a
// member of the running pod-group cycle, the node it is reserved on: with
// placements (a CompositePodGroup's zones, TopologyAwareWorkloadScheduling),
// each placement's members are assumed and reverted in turn, and the chosen
// placement's are assumed again last (assumeSubtreeWithRevert), so the last
// reservation is where the member stands when the cycle ends, not its run in
// the last placement tried. Nothing the scheduler is handed or returns
// changes.
func (f *boundFramework) RunReservePluginsReserve(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	f.e.placementSubmitted(pod, state)
	f.e.compositeReserved(pod, state)
	st := f.recordingFramework.RunReservePluginsReserve(ctx, state, pod, nodeName)
	if st.IsSuccess() {
		f.e.withMember(pod, func(t *groupTrace, i int) {
			m := &t.g.Members[i]
			m.Node, m.Code, m.Message = nodeName, recorder.CodeSuccess, ""
		})
	}
	return st
}

// installPlacementWrappers wraps fw's PlacementGenerate and PlacementScore
// plugins in place, as installPluginWrappers does the others.
func (e *Engine) installPlacementWrappers(fw framework.Framework) error {
	v, err := frameworkStruct(fw)
	if err != nil {
		return err
	}
	return firstErr(
		wrapSlice(v, "placementGeneratePlugins", func(_ int, p fwk.PlacementGeneratePlugin) fwk.PlacementGeneratePlugin {
			return &placementGenerateWrapper{p, e}
		}),
		wrapSlice(v, "placementScorePlugins", func(_ int, p fwk.PlacementScorePlugin) fwk.PlacementScorePlugin {
			return &placementScoreWrapper{p, e}
		}),
	)
}

var (
	_ fwk.PlacementGeneratePlugin  = (*placementGenerateWrapper)(nil)
	_ fwk.PlacementScorePlugin     = (*placementScoreWrapper)(nil)
	_ fwk.PlacementScoreExtensions = (*placementScoreExtensionsWrapper)(nil)
)

type placementGenerateWrapper struct {
	fwk.PlacementGeneratePlugin
	e *Engine
}

// GeneratePlacements names the plugin that generated the candidates and
// hands the scheduler the candidates in a defined order (orderPlacements).
func (w *placementGenerateWrapper) GeneratePlacements(ctx context.Context, state fwk.PodGroupCycleState, pgi fwk.PodGroupInfo, parent *fwk.Placement) (*fwk.GeneratePlacementsResult, *fwk.Status) {
	res, st := w.PlacementGeneratePlugin.GeneratePlacements(ctx, state, pgi, parent)
	if res != nil {
		res.Placements = orderPlacements(res.Placements)
	}
	if t, pt := w.e.placements(); pt != nil {
		if t.isGroup(pgi) {
			pt.ph.Generator = w.Name()
		}
		t.mu.Unlock()
	}
	return res, st
}

type placementScoreWrapper struct {
	fwk.PlacementScorePlugin
	e *Engine
}

// placementScores returns the running cycle's placement trace, for the
// score wrappers: they run on parallel workers and take scoreMu alone.
func (e *Engine) placementScores() *placementTrace {
	t, pt := e.placements()
	if pt == nil {
		return nil
	}
	t.mu.Unlock()
	return pt
}

// ScorePlacement records the plugin's raw score of a candidate.
func (w *placementScoreWrapper) ScorePlacement(ctx context.Context, state fwk.PlacementCycleState, pgi fwk.PodGroupInfo, a *fwk.PodGroupAssignments) (int64, *fwk.Status) {
	s, st := w.PlacementScorePlugin.ScorePlacement(ctx, state, pgi, a)
	if pt := w.e.placementScores(); pt != nil && a != nil {
		pt.scoreMu.Lock()
		if pt.raw[w.Name()] == nil {
			pt.raw[w.Name()] = map[*fwk.Placement]int64{}
		}
		pt.raw[w.Name()][a.Placement] = s
		pt.scoreMu.Unlock()
	}
	return s, st
}

func (w *placementScoreWrapper) PlacementScoreExtensions() fwk.PlacementScoreExtensions {
	ext := w.PlacementScorePlugin.PlacementScoreExtensions()
	if ext == nil {
		return nil
	}
	return &placementScoreExtensionsWrapper{ext: ext, name: w.Name(), e: w.e}
}

type placementScoreExtensionsWrapper struct {
	ext  fwk.PlacementScoreExtensions
	name string
	e    *Engine
}

// NormalizePlacementScore records the normalized scores.
func (w *placementScoreExtensionsWrapper) NormalizePlacementScore(ctx context.Context, state fwk.PodGroupCycleState, pgi fwk.PodGroupInfo, scores []fwk.PlacementScore) *fwk.Status {
	st := w.ext.NormalizePlacementScore(ctx, state, pgi, scores)
	if pt := w.e.placementScores(); pt != nil {
		pt.scoreMu.Lock()
		m := map[*fwk.Placement]int64{}
		for _, s := range scores {
			m[s.Placement] = s.Score
		}
		pt.norm[w.name] = m
		pt.scoreMu.Unlock()
	}
	return st
}

// The one decision schedscope adds to the scheduler's: the order in which
// the candidate placements are tried. kube-scheduler v1.37.1's
// TopologyPlacementGenerator (pkg/scheduler/framework/plugins/topologyaware)
// builds its candidates by ranging over a map of topology domain to nodes,
// so the real scheduler tries them in a different order from run to run,
// at every level that generates placements (a PodGroup with a topology
// constraint, and each CompositePodGroup of a hierarchy: both run
// RunPlacementGeneratePlugins over the same plugins). The order changes
// which failed placement's status is reported when none fits (the first
// tried); not the winner among those that fit (findBestPlacement ranges
// over a map of them and breaks a tie of totals at random). The wrapper
// sorts the candidates the plugin returns, so that the same fixture,
// configuration and binary give the same cycles: it picks one of the orders
// the real scheduler can take, and nothing else changes (not the
// candidates, not the nodes in each, nor their order).

// orderPlacements returns the candidates ordered by name (the topology
// domain, for TopologyPlacementGenerator), then by their nodes' names, in
// a new slice.
func orderPlacements(ps []*fwk.Placement) []*fwk.Placement {
	out := slices.Clone(ps)
	slices.SortStableFunc(out, func(a, b *fwk.Placement) int {
		if a == nil || b == nil {
			return cmp.Compare(boolInt(a == nil), boolInt(b == nil))
		}
		if c := cmp.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return slices.Compare(placementNodeNames(a), placementNodeNames(b))
	})
	return out
}

// placementNodeNames are the names of p's nodes, in p's order.
func placementNodeNames(p *fwk.Placement) []string {
	names := make([]string, 0, len(p.Nodes))
	for _, ni := range p.Nodes {
		if ni != nil && ni.Node() != nil {
			names = append(names, ni.Node().Name)
		}
	}
	return names
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
