package engine

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

// recordingFramework forwards every call to the profile's framework and marks
// where each phase of the scheduling algorithm begins and ends, so plugin wrappers
// know whether a call belongs to filtering, the batch hint check, preemption or
// scoring. Only calls the scheduler makes through the Framework interface pass
// here; calls a framework makes on itself (batch re-scoring, preemption dry runs)
// do not.
type recordingFramework struct {
	framework.Framework
	r *traceState
	// inSearchOrder hands PreScore and Score the feasible nodes in the
	// order a sequential search from the cycle's start index finds them
	// (searchOrder). Not with extenders: upstream adds an extender's
	// scores by the index of its own list of nodes.
	inSearchOrder bool
}

var _ framework.Framework = (*recordingFramework)(nil)

func (f *recordingFramework) RunPreFilterPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod) (*fwk.PreFilterResult, *fwk.Status, sets.Set[string]) {
	c := f.r.cycleFor(pod)
	if c == nil {
		return f.Framework.RunPreFilterPlugins(ctx, state, pod)
	}
	start := time.Now()
	c.setPhase(phasePreFilter)
	res, st, subsetPlugins := f.Framework.RunPreFilterPlugins(ctx, state, pod)
	c.timePhase(recorder.PhasePreFilter, start)
	c.mu.Lock()
	if c.c.PreFilter == nil {
		c.c.PreFilter = &recorder.PreFilterPhase{}
	}
	pf := c.c.PreFilter
	pf.Code = st.Code().String()
	pf.Message = st.Message()
	if res != nil && !res.AllNodes() {
		pf.NodeSubset = sets.List(res.NodeNames)
		if pf.NodeSubset == nil {
			pf.NodeSubset = []string{}
		}
	}
	pf.SubsetPlugins = sets.List(subsetPlugins)
	c.mu.Unlock()
	c.setPhase(phaseFilter)
	if pod.Status.NominatedNodeName != "" {
		c.c.FastPath = &recorder.FastPath{Kind: recorder.FastPathNominated, Node: pod.Status.NominatedNodeName}
		c.fastPathPending.Store(true)
	}
	c.phaseStart = time.Now()
	return res, st, subsetPlugins
}

func (f *recordingFramework) GetNodeHint(ctx context.Context, pod *v1.Pod, signature fwk.PodSignature, state fwk.CycleState, cycleCount int64) string {
	c := f.r.cycleFor(pod)
	if c == nil {
		return f.Framework.GetNodeHint(ctx, pod, signature, state, cycleCount)
	}
	start := time.Now()
	c.setPhase(phaseBatchHint)
	hint := f.Framework.GetNodeHint(ctx, pod, signature, state, cycleCount)
	c.setPhase(phaseFilter)
	c.timePhase(recorder.PhaseBatchHint, start)
	c.c.BatchHint = hint
	if hint != "" && c.c.FastPath == nil {
		c.c.FastPath = &recorder.FastPath{Kind: recorder.FastPathBatch, Node: hint}
		c.fastPathPending.Store(true)
	}
	c.phaseStart = time.Now()
	return hint
}

func (f *recordingFramework) RunFilterPluginsWithNominatedPods(ctx context.Context, state fwk.CycleState, pod *v1.Pod, info fwk.NodeInfo) *fwk.Status {
	st := f.Framework.RunFilterPluginsWithNominatedPods(ctx, state, pod, info)
	c := f.r.current.Load()
	if c == nil || c.uid != pod.UID || !c.inFilter() {
		return st
	}
	// Load first: a compare-and-swap takes the cache line for writing even
	// when it fails, and every filter worker, on every core, reads the
	// cycle's state beside this flag on every node.
	if c.fastPathPending.Load() && c.fastPathPending.CompareAndSwap(true, false) {
		fp := c.c.FastPath
		fp.Feasible = st.IsSuccess()
		if !fp.Feasible {
			fp.Code = st.Code().String()
			fp.Reasons = st.Reasons()
		}
		return st
	}
	if i, ok := c.nodeIndex[info.Node().Name]; ok {
		res := nodeResult{state: 1}
		if !st.IsSuccess() {
			res = nodeResult{state: 2, status: st, nominated: nominatedCounted(f.Framework, pod, info.Node().Name)}
		}
		c.results[i] = res
	}
	return st
}

func (f *recordingFramework) RunPostFilterPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod, m fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	c := f.r.cycleFor(pod)
	if c == nil {
		return f.Framework.RunPostFilterPlugins(ctx, state, pod, m)
	}
	// The numbers behind DynamicResources' rejections, read before
	// preemption changes anything.
	if nodes := c.rejectedBy(recorder.PluginDynamicResources); len(nodes) > 0 && f.r.devices != nil {
		ds := f.r.devices(ctx, pod, nodes)
		c.mu.Lock()
		c.c.DeviceShortfalls = ds
		c.mu.Unlock()
	}
	start := time.Now()
	c.setPhase(phasePostFilter)
	res, st := f.Framework.RunPostFilterPlugins(ctx, state, pod, m)
	c.setPhase(phaseIdle)
	c.timePhase(recorder.PhasePostFilter, start)
	c.mu.Lock()
	if c.c.PostFilter == nil {
		c.c.PostFilter = &recorder.PostFilterPhase{}
	}
	c.c.PostFilter.Code = st.Code().String()
	c.c.PostFilter.Message = st.Message()
	if res != nil && res.NominatingInfo != nil {
		c.c.PostFilter.NominatedNode = res.NominatedNodeName
	}
	// The dry run examines nodes in parallel; order them by name.
	byNode := func(a, b recorder.Candidate) int { return strings.Compare(a.Node, b.Node) }
	slices.SortFunc(c.c.PostFilter.Candidates, byNode)
	slices.SortFunc(c.c.PostFilter.Rejected, byNode)
	c.postFilter = true
	c.mu.Unlock()
	return res, st
}

func (f *recordingFramework) RunPreScorePlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) *fwk.Status {
	c := f.r.cycleFor(pod)
	if c == nil {
		return f.Framework.RunPreScorePlugins(ctx, state, pod, nodes)
	}
	if !c.phaseStart.IsZero() {
		c.timePhase(recorder.PhaseFilter, c.phaseStart)
	}
	if f.inSearchOrder && len(f.r.scoreOrder) == 0 {
		nodes = c.searchOrder(nodes)
	}
	idx := make([]int, len(nodes))
	for i, n := range nodes {
		idx[i] = c.nodeIndex[n.Node().Name]
	}
	c.mu.Lock()
	c.scoreNodes = idx
	c.mu.Unlock()
	start := time.Now()
	c.setPhase(phaseScore)
	st := f.Framework.RunPreScorePlugins(ctx, state, pod, nodes)
	c.timePhase(recorder.PhasePreScore, start)
	return st
}

func (f *recordingFramework) RunScorePlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) ([]fwk.NodePluginScores, *fwk.Status) {
	c := f.r.cycleFor(pod)
	if c == nil {
		return f.Framework.RunScorePlugins(ctx, state, pod, nodes)
	}
	reordered := len(f.r.scoreOrder) > 0
	switch {
	case reordered:
		nodes = inScoreOrder(nodes, f.r.scoreOrder)
	case f.inSearchOrder:
		// As PreScore had them.
		nodes = c.searchOrder(nodes)
	}
	start := time.Now()
	scores, st := f.Framework.RunScorePlugins(ctx, state, pod, nodes)
	c.setPhase(phaseIdle)
	c.timePhase(recorder.PhaseScore, start)
	if st.IsSuccess() {
		c.recordScores(nodes, scores, !reordered)
	}
	return scores, st
}

// searchOrder returns a copy of nodes in the order a sequential search
// from the cycle's start index visits them. The scheduler filters nodes on
// parallel workers, which append each feasible node as it passes: the order
// they are scored in, and with it which of several nodes of the same top
// score the scheduler picks (the first a heap over that order pops), changes
// from run to run. The order they would pass in one after another is one of
// those orders, and the same every run.
func (c *cycleTrace) searchOrder(nodes []fwk.NodeInfo) []fwk.NodeInfo {
	n := len(c.nodeIndex)
	at := func(ni fwk.NodeInfo) int {
		i, ok := c.nodeIndex[ni.Node().Name]
		if !ok {
			return n
		}
		return (i - c.c.SearchStart + n) % n
	}
	out := slices.Clone(nodes)
	slices.SortStableFunc(out, func(a, b fwk.NodeInfo) int { return cmp.Compare(at(a), at(b)) })
	return out
}

// inScoreOrder returns a copy of nodes in the order rank gives (nodes it does
// not rank last, in their order). In a fork it hands the framework the
// feasible nodes in the order the recorded cycle had them: the scheduler
// breaks a tie by popping a max-heap built over the scores in that order, and
// the recorded order came from a parallel filter the fork does not repeat.
func inScoreOrder(nodes []fwk.NodeInfo, rank map[string]int) []fwk.NodeInfo {
	out := slices.Clone(nodes)
	slices.SortStableFunc(out, func(a, b fwk.NodeInfo) int {
		ra, oka := rank[a.Node().Name]
		rb, okb := rank[b.Node().Name]
		switch {
		case oka && okb:
			return cmp.Compare(ra, rb)
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	return out
}

// recordScores stores raw scores and totals as the framework computed them, and
// the normalized scores the NormalizeScore wrappers saw. asPreScored says
// nodes are those PreScore had, in its order (its indices are copied, not
// looked up again).
func (c *cycleTrace) recordScores(nodes []fwk.NodeInfo, scores []fwk.NodePluginScores, asPreScored bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sp := c.c.Score
	if sp == nil {
		sp = &recorder.ScorePhase{}
		c.c.Score = sp
	}
	if asPreScored && len(c.scoreNodes) == len(nodes) {
		sp.Nodes = slices.Clone(c.scoreNodes)
	} else {
		sp.Nodes = make([]int, len(nodes))
		for i, n := range nodes {
			sp.Nodes[i] = c.nodeIndex[n.Node().Name]
		}
	}
	sp.Totals = make([]int64, len(scores))
	for i, s := range scores {
		sp.Totals[i] = s.TotalScore
	}
	if len(scores) == 0 {
		return
	}
	for p, ps := range scores[0].RawScores {
		pl := recorder.ScorePlugin{Name: ps.Name, Raw: make([]int64, len(scores)), Duration: c.scoreTime(ps.Name, len(scores))}
		for i := range scores {
			pl.Raw[i] = scores[i].RawScores[p].Score
		}
		if norm, ok := c.normalized[ps.Name]; ok {
			pl.Normalized = norm
			pl.NormalizeDuration = c.normNanos[ps.Name]
		}
		pl.Weight = c.weights[ps.Name]
		sp.Plugins = append(sp.Plugins, pl)
	}
}

func (f *recordingFramework) RunReservePluginsReserve(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	start := time.Now()
	st := f.Framework.RunReservePluginsReserve(ctx, state, pod, nodeName)
	if c := f.r.cycleFor(pod); c != nil {
		c.timePhase(recorder.PhaseReserve, start)
	}
	return st
}

func (f *recordingFramework) RunPermitPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) (map[string]time.Duration, *fwk.Status) {
	start := time.Now()
	waits, st := f.Framework.RunPermitPlugins(ctx, state, pod, nodeName)
	if c := f.r.cycleFor(pod); c != nil {
		c.timePhase(recorder.PhasePermit, start)
	}
	return waits, st
}

func (f *recordingFramework) WaitOnPermit(ctx context.Context, pod *v1.Pod) *fwk.Status {
	start := time.Now()
	st := f.Framework.WaitOnPermit(ctx, pod)
	if c := f.r.cycleFor(pod); c != nil {
		c.timePhase(recorder.PhaseWaitOnPermit, start)
	}
	return st
}

func (f *recordingFramework) RunPreBindPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	start := time.Now()
	st := f.Framework.RunPreBindPlugins(ctx, state, pod, nodeName)
	if c := f.r.cycleFor(pod); c != nil {
		c.timePhase(recorder.PhasePreBind, start)
	}
	return st
}

func (f *recordingFramework) RunBindPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	start := time.Now()
	st := f.Framework.RunBindPlugins(ctx, state, pod, nodeName)
	if c := f.r.cycleFor(pod); c != nil {
		c.timePhase(recorder.PhaseBind, start)
	}
	return st
}

// rejectedBy names, by index, the nodes plugin rejected in c's Filter.
func (c *cycleTrace) rejectedBy(plugin string) map[int]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.c.Filter
	if f == nil {
		return nil
	}
	col := slices.Index(f.Plugins, plugin)
	if col < 0 {
		return nil
	}
	out := map[int]string{}
	for _, r := range f.Rejected {
		if r.Plugin == col && r.Node >= 0 {
			out[r.Node] = c.c.NodeName(r.Node)
		}
	}
	return out
}
