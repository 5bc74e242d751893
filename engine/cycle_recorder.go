package engine

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

type phase int32

const (
	phaseIdle phase = iota
	phasePreFilter
	phaseBatchHint
	phaseFilter
	phasePostFilter
	phaseScore
	phaseReserve
	phasePermit
	phaseUnreserve
	phasePreBind
	phaseBind
	phasePostBind
)

// recorderState is shared by every wrapper of one engine.
type recorderState struct {
	current atomic.Pointer[cycleRec] // the scheduling cycle in progress
	mu      sync.Mutex
	byUID   map[types.UID]*cycleRec // cycles whose binding cycle may still run
	seq     int
	nodeSet *recorder.NodeSet
}

func newRecorderState() *recorderState {
	return &recorderState{byUID: map[types.UID]*cycleRec{}}
}

// cycleFor returns the open cycle of pod, if any.
func (r *recorderState) cycleFor(pod *v1.Pod) *cycleRec {
	if c := r.current.Load(); c != nil && c.uid == pod.UID {
		return c
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byUID[pod.UID]
}

func (r *recorderState) addPluginStatus(pod *v1.Pod, p phase, ps recorder.PluginStatus) {
	c := r.cycleFor(pod)
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch p {
	case phaseReserve:
		c.c.Reserve = append(c.c.Reserve, ps)
	case phaseUnreserve:
		c.c.Unreserve = append(c.c.Unreserve, ps)
	case phasePermit:
		c.c.Permit = append(c.c.Permit, ps)
	case phasePreBind:
		c.c.PreBind = append(c.c.PreBind, ps)
	case phaseBind:
		c.c.Bind = append(c.c.Bind, ps)
	case phasePostBind:
		c.c.PostBind = append(c.c.PostBind, ps)
	}
}

// nodeSetFor returns the recorded node set for the snapshot's node list, reusing
// the previous set when the list did not change.
func (r *recorderState) nodeSetFor(nodes []fwk.NodeInfo) *recorder.NodeSet {
	if s := r.nodeSet; s != nil && len(s.Names) == len(nodes) {
		same := true
		for i, n := range nodes {
			if n.Node().Name != s.Names[i] {
				same = false
				break
			}
		}
		if same {
			return s
		}
	}
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Node().Name
	}
	id := 1
	if r.nodeSet != nil {
		id = r.nodeSet.ID + 1
	}
	r.nodeSet = &recorder.NodeSet{ID: id, Names: names}
	return r.nodeSet
}

type nodeResult struct {
	state  uint8 // 0 not evaluated, 1 passed, 2 rejected
	status *fwk.Status
}

// cycleRec accumulates one cycle while the scheduler runs it.
type cycleRec struct {
	c     *recorder.Cycle
	uid   types.UID
	state fwk.CycleState
	phase atomic.Int32

	nodeIndex map[string]int
	results   []nodeResult // by node index, main filter pass

	// fastPathPending is set while the next filter evaluation is the single-node
	// check of a nominated node or batch hint.
	fastPathPending atomic.Bool

	filterPlugins []string
	weights       map[string]int64
	filterIndex   map[string]int
	filterNanos   []atomic.Int64
	filterCalls   []atomic.Int64

	mu         sync.Mutex
	scoreNanos map[string]time.Duration
	normalized map[string][]int64
	normNanos  map[string]time.Duration
	scoreNodes []int
	phaseStart time.Time
	postFilter bool
	done       bool
}

func (c *cycleRec) setPhase(p phase) { c.phase.Store(int32(p)) }
func (c *cycleRec) phaseIs(p phase) bool {
	return phase(c.phase.Load()) == p
}
func (c *cycleRec) inFilter() bool { return c.phaseIs(phaseFilter) }

func (c *cycleRec) addFilterTime(plugin string, d time.Duration) {
	if i, ok := c.filterIndex[plugin]; ok {
		c.filterNanos[i].Add(int64(d))
		c.filterCalls[i].Add(1)
	}
}

func (c *cycleRec) addScoreTime(plugin string, d time.Duration) {
	c.mu.Lock()
	c.scoreNanos[plugin] += d
	c.mu.Unlock()
}

func (c *cycleRec) addNormalized(plugin string, scores fwk.NodeScoreList, d time.Duration) {
	out := make([]int64, len(scores))
	for i, s := range scores {
		out[i] = s.Score
	}
	c.mu.Lock()
	c.normalized[plugin] = out
	c.normNanos[plugin] = d
	c.mu.Unlock()
}

func (c *cycleRec) addPreFilter(ps recorder.PluginStatus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.c.PreFilter == nil {
		c.c.PreFilter = &recorder.PreFilterPhase{}
	}
	c.c.PreFilter.Plugins = append(c.c.PreFilter.Plugins, ps)
}

func (c *cycleRec) addPostFilter(ps recorder.PluginStatus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.c.PostFilter == nil {
		c.c.PostFilter = &recorder.PostFilterPhase{}
	}
	c.c.PostFilter.Plugins = append(c.c.PostFilter.Plugins, ps)
}

func (c *cycleRec) addPreScore(ps recorder.PluginStatus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.c.Score == nil {
		c.c.Score = &recorder.ScorePhase{}
	}
	c.c.Score.PreScore = append(c.c.Score.PreScore, ps)
}

// timePhase appends the wall time since the last mark to the cycle's timings.
func (c *cycleRec) timePhase(name string, start time.Time) {
	d := time.Since(start)
	c.mu.Lock()
	c.c.Timings = append(c.c.Timings, recorder.PhaseTiming{Phase: name, Duration: d})
	c.mu.Unlock()
}

func (c *cycleRec) addVictim(p recorder.PodRef) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.c.PostFilter == nil {
		c.c.PostFilter = &recorder.PostFilterPhase{}
	}
	if !slices.ContainsFunc(c.c.PostFilter.Victims, func(v recorder.PodRef) bool { return v.Key() == p.Key() }) {
		c.c.PostFilter.Victims = append(c.c.PostFilter.Victims, p)
	}
}

func pluginStatus(name string, st *fwk.Status, d time.Duration) recorder.PluginStatus {
	ps := recorder.PluginStatus{Plugin: name, Code: st.Code().String(), Duration: d}
	if !st.IsSuccess() {
		ps.Reasons = st.Reasons()
		if len(ps.Reasons) == 0 && st.AsError() != nil {
			ps.Reasons = []string{st.AsError().Error()}
		}
	}
	return ps
}

func podRef(p *v1.Pod) recorder.PodRef {
	ref := recorder.PodRef{Namespace: p.Namespace, Name: p.Name, UID: string(p.UID), Node: p.Spec.NodeName}
	if p.Spec.Priority != nil {
		ref.Priority = *p.Spec.Priority
	}
	return ref
}
