package engine

import (
	"context"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	resourcehelper "k8s.io/component-helpers/resource"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	schedutil "k8s.io/kubernetes/pkg/scheduler/util"

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

// traceState is shared by every wrapper of one engine: the trace of the
// cycle in progress and of those whose binding may still run. ("Trace", not
// "record": the recorder package is what a finished cycle becomes.)
type traceState struct {
	// current is the scheduling cycle in progress. Every plugin call of
	// every filter and score worker reads it, so it has a cache line of its
	// own: beside mu, which the binding cycles of earlier pods lock while
	// the next pod is filtered, each of their writes sent it from core to
	// core.
	_       [64]byte
	current atomic.Pointer[cycleTrace]
	_       [56]byte
	mu      sync.Mutex
	// dry is set while a pod group's PostFilter re-runs its members'
	// algorithm (upstream's pgSchedulingFunc, a dry run for group
	// preemption): no cycle is recorded and no cycle records what it runs.
	dry     atomic.Bool
	byUID   map[types.UID]*cycleTrace // cycles whose binding cycle may still run
	seq     int
	nodeSet *recorder.NodeSet
	// nodeObjs holds the Node objects the current set was built from.
	nodeObjs []*v1.Node
	// nodeGens holds each node's cache generation as last recorded.
	nodeGens []int64
	// lastUse holds each node's use as last recorded; useSeq numbers the
	// entries recorded (recorder.NodeUse.Generation).
	lastUse []*recorder.NodeUse
	useSeq  int64
	// changed are the indices of the nodes whose generation nodeSetFor
	// found differing from nodeGens, for nodeUseFor.
	changed []int
	// inGroup: the last cycle started was a member's in a pod-group cycle
	// (nodeUseFor compares every node after it).
	inGroup  bool
	profiles map[string]*profilePlugins
	// nodeIndex maps node names to their index in the current set; it is
	// replaced, never modified, so cycles may keep reading an old one.
	nodeIndex map[string]int
	// scoreOrder, set only in a fork, ranks nodes in the order the recorded
	// cycle scored them (see Fork.Run); fixed before the run starts.
	scoreOrder map[string]int
	// devices, if set, works out the numbers behind DynamicResources'
	// rejections of a pod no node fit (Engine.deviceShortfalls).
	devices func(ctx context.Context, pod *v1.Pod, nodes map[int]string) map[int][]recorder.DeviceShortfall
}

func newTraceState() *traceState {
	return &traceState{byUID: map[types.UID]*cycleTrace{}, profiles: map[string]*profilePlugins{}}
}

// profilePlugins is what cycles need to know of a profile's Filter and Score
// plugins. A profile's plugins are fixed once the framework is built, so this is
// worked out once per profile; cycles share it read-only.
type profilePlugins struct {
	filter      []string
	filterIndex map[string]int
	weights     map[string]int64
	scoreIndex  map[string]int
}

func (r *traceState) pluginsOf(fw framework.Framework) *profilePlugins {
	r.mu.Lock()
	defer r.mu.Unlock()
	if pp, ok := r.profiles[fw.ProfileName()]; ok {
		return pp
	}
	plugins := fw.ListPlugins()
	pp := &profilePlugins{filterIndex: map[string]int{}, weights: map[string]int64{}, scoreIndex: map[string]int{}}
	for i, p := range plugins.Score.Enabled {
		pp.weights[p.Name] = int64(p.Weight)
		pp.scoreIndex[p.Name] = i
	}
	for i, p := range plugins.Filter.Enabled {
		pp.filterIndex[p.Name] = i
		pp.filter = append(pp.filter, p.Name)
	}
	r.profiles[fw.ProfileName()] = pp
	return pp
}

// cycleFor returns the open cycle of pod, if any.
func (r *traceState) cycleFor(pod *v1.Pod) *cycleTrace {
	if r.dry.Load() {
		return nil
	}
	if c := r.current.Load(); c != nil && c.uid == pod.UID {
		return c
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byUID[pod.UID]
}

func (r *traceState) addPluginStatus(pod *v1.Pod, p phase, ps recorder.PluginStatus) {
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
// the previous set when neither the list nor any Node object changed.
//
// It also notes in r.changed the nodes whose generation differs from the one
// recorded (all of them in a new set), for nodeUseFor: one pass over the
// nodes reads both, as each node's info is a separate object in memory, and
// on a large cluster reading a thousand of them twice per cycle showed in
// the scheduling goroutine's profile.
func (r *traceState) nodeSetFor(nodes []fwk.NodeInfo) *recorder.NodeSet {
	if s := r.nodeSet; s != nil && len(r.nodeObjs) == len(nodes) {
		same := true
		r.changed = r.changed[:0]
		for i, n := range nodes {
			if n.GetGeneration() != r.nodeGens[i] {
				r.changed = append(r.changed, i)
			}
			node := n.Node()
			if node == r.nodeObjs[i] {
				continue
			}
			// A new Node object (a status heartbeat, say) keeps the set when
			// nothing the set records changed.
			if node.Name != s.Names[i] || !sameNodeInfo(s.Info[i], nodeInfo(node, n.GetAllocatable())) {
				same = false
				break
			}
			r.nodeObjs[i] = node
		}
		if same {
			return s
		}
	}
	names := make([]string, len(nodes))
	info := make([]recorder.NodeInfo, len(nodes))
	objs := make([]*v1.Node, len(nodes))
	for i, n := range nodes {
		node := n.Node()
		objs[i] = node
		names[i] = node.Name
		info[i] = nodeInfo(node, n.GetAllocatable())
	}
	id := 1
	if r.nodeSet != nil {
		id = r.nodeSet.ID + 1
	}
	r.nodeSet = &recorder.NodeSet{ID: id, Names: names, Info: info}
	r.nodeObjs = objs
	r.nodeGens = make([]int64, len(nodes))
	r.lastUse = make([]*recorder.NodeUse, len(nodes))
	r.nodeIndex = make(map[string]int, len(names))
	r.changed = r.changed[:0]
	for i, n := range names {
		r.nodeIndex[n] = i
		r.changed = append(r.changed, i)
	}
	return r.nodeSet
}

// sameNodeInfo compares what a node set records of a node.
func sameNodeInfo(a, b recorder.NodeInfo) bool {
	return a.Unschedulable == b.Unschedulable && maps.Equal(a.Labels, b.Labels) &&
		maps.Equal(a.Allocatable, b.Allocatable) && slices.Equal(a.Taints, b.Taints)
}

// nodeUseFor lists the nodes of the current set whose pods changed since the
// previous cycle; after a new node set, every node that holds pods. It
// looks at the nodes nodeSetFor, called first, noted as changed.
//
// In a pod-group cycle the generation does not say it: kube-scheduler
// assumes each placed member in its snapshot alone (Snapshot.AssumePod,
// v1.37.1), and keeps the node's generation as it was, as it does when it
// reverts a failed group's placements. So a member's cycle, and the first
// cycle after a group's (group true, or the one before was a member's),
// compare every node with what was last recorded of it.
func (r *traceState) nodeUseFor(nodes []fwk.NodeInfo, group bool) []recorder.NodeUse {
	all := group || r.inGroup
	r.inGroup = group
	look := r.changed
	if all {
		look = make([]int, len(nodes))
		for i := range look {
			look[i] = i
		}
	}
	var out []recorder.NodeUse
	for _, i := range look {
		n := nodes[i]
		g := n.GetGeneration()
		if i >= len(r.nodeGens) {
			continue
		}
		if r.nodeGens[i] == g {
			// Only a pod-group cycle's assumed (or reverted) members change
			// a node and keep its generation: its pods or what they ask for.
			if !all || unchangedUse(r.lastUse[i], n) {
				continue
			}
		}
		first := r.nodeGens[i] == 0
		r.nodeGens[i] = g
		pods := n.GetPods()
		// On the first node set an empty node needs no entry; on a later one
		// it does, or a reader would keep the pods it last saw there.
		if first && len(pods) == 0 && r.nodeSet.ID == 1 {
			continue
		}
		nu := recorder.NodeUse{Node: i, Requested: resourceMap(n.GetRequested(), len(pods))}
		if nz := n.GetNonZeroRequested(); nz.GetMilliCPU() != nu.Requested[string(v1.ResourceCPU)] || nz.GetMemory() != nu.Requested[string(v1.ResourceMemory)] {
			nu.NonZero = map[string]int64{string(v1.ResourceCPU): nz.GetMilliCPU(), string(v1.ResourceMemory): nz.GetMemory()}
		}
		for _, p := range pods {
			nu.Pods = append(nu.Pods, podPlaced(p.GetPod()))
		}
		// The cache keeps a node's pods in the order of its last writes
		// (a pod's status update moves it last): the recording keeps them
		// by name.
		slices.SortFunc(nu.Pods, func(a, b recorder.PodRef) int {
			return keyOrder(a.Namespace, a.Name, b.Namespace, b.Name)
		})
		// The cache's generation also moves when nothing recorded changes
		// (a pod's status written by its kubelet), earlier or later than
		// the next cycle as the run's goroutines go: only a change of what
		// is recorded is an entry, numbered in the order of entries.
		if last := r.lastUse[i]; last != nil && sameNodeUse(*last, nu) {
			continue
		}
		r.useSeq++
		nu.Generation = r.useSeq
		r.lastUse[i] = &nu
		out = append(out, nu)
	}
	return out
}

// unchangedUse reports whether n holds as many pods, asking for as much
// cpu and memory, as last recorded (nil: no entry, and no pods).
func unchangedUse(last *recorder.NodeUse, n fwk.NodeInfo) bool {
	pods := int64(len(n.GetPods()))
	if last == nil {
		return pods == 0
	}
	req := n.GetRequested()
	return last.Requested[string(v1.ResourcePods)] == pods &&
		last.Requested[string(v1.ResourceCPU)] == req.GetMilliCPU() &&
		last.Requested[string(v1.ResourceMemory)] == req.GetMemory()
}

// sameNodeUse compares what two entries record of a node's use.
func sameNodeUse(a, b recorder.NodeUse) bool {
	return maps.Equal(a.Requested, b.Requested) && maps.Equal(a.NonZero, b.NonZero) && slices.Equal(a.Pods, b.Pods)
}

func nodeInfo(node *v1.Node, alloc fwk.Resource) recorder.NodeInfo {
	ni := recorder.NodeInfo{
		Labels:        node.Labels,
		Allocatable:   resourceMap(alloc, alloc.GetAllowedPodNumber()),
		Unschedulable: node.Spec.Unschedulable,
	}
	for _, t := range node.Spec.Taints {
		ni.Taints = append(ni.Taints, recorder.Taint{Key: t.Key, Value: t.Value, Effect: string(t.Effect)})
	}
	return ni
}

// resourceMap spells a scheduler Resource in recorder units.
func resourceMap(r fwk.Resource, pods int) map[string]int64 {
	m := map[string]int64{
		string(v1.ResourceCPU):    r.GetMilliCPU(),
		string(v1.ResourceMemory): r.GetMemory(),
		string(v1.ResourcePods):   int64(pods),
	}
	if v := r.GetEphemeralStorage(); v != 0 {
		m[string(v1.ResourceEphemeralStorage)] = v
	}
	for k, v := range r.GetScalarResources() {
		m[string(k)] = v
	}
	return m
}

type nodeResult struct {
	state  uint8 // 0 not evaluated, 1 passed, 2 rejected
	status *fwk.Status
	// nominated are the pods nominated to a rejecting node that the filters
	// counted there.
	nominated []recorder.PodRef
}

// resultsPool keeps the per-node filter results of finished cycles for the
// next: one slice the size of the cluster per cycle was the recorder's
// largest allocation on the scheduling goroutine.
var resultsPool sync.Pool

// getResults returns a zeroed slice of n results.
func getResults(n int) []nodeResult {
	if p, ok := resultsPool.Get().(*[]nodeResult); ok && cap(*p) >= n {
		r := (*p)[:n]
		clear(r)
		return r
	}
	return make([]nodeResult, n)
}

// putResults gives r back once nothing reads or writes it.
func putResults(r []nodeResult) {
	if r != nil {
		resultsPool.Put(&r)
	}
}

// cycleTrace accumulates one cycle while the scheduler runs it.
type cycleTrace struct {
	c     *recorder.Cycle
	uid   types.UID
	state fwk.CycleState
	phase atomic.Int32
	// started is when the cycle started on the wall clock; c.Start is on the
	// engine's clock, which may have skipped ahead.
	started time.Time

	nodeIndex map[string]int // shared with the node set; read-only
	results   []nodeResult   // by node index, main filter pass

	// fastPathPending is set while the next filter evaluation is the single-node
	// check of a nominated node or batch hint.
	fastPathPending atomic.Bool

	filterPlugins []string
	weights       map[string]int64
	filterIndex   map[string]int
	filterTimers  []callTimer
	timeAll       bool // time every plugin call, on small clusters

	mu          sync.Mutex
	scoreIndex  map[string]int // read-only once the cycle starts
	scoreTimers []callTimer
	normalized  map[string][]int64
	normNanos   map[string]time.Duration
	scoreNodes  []int
	extFilters  []extenderFilter // in call order
	phaseStart  time.Time
	postFilter  bool
	done        bool
}

func (c *cycleTrace) setPhase(p phase) { c.phase.Store(int32(p)) }
func (c *cycleTrace) phaseIs(p phase) bool {
	return phase(c.phase.Load()) == p
}
func (c *cycleTrace) inFilter() bool { return c.phaseIs(phaseFilter) }

// filterTimer returns the timer of the Filter plugin at pos; a spare one if
// pos is out of range, so a wrapper never needs to check.
func (c *cycleTrace) filterTimer(pos int) *callTimer {
	if pos < len(c.filterTimers) {
		return &c.filterTimers[pos]
	}
	return new(callTimer)
}

// scoreTimer returns the timer of the Score plugin at pos.
func (c *cycleTrace) scoreTimer(pos int) *callTimer {
	if pos < len(c.scoreTimers) {
		return &c.scoreTimers[pos]
	}
	return new(callTimer)
}

// scoreTime returns the estimated summed Score time of plugin over calls calls.
func (c *cycleTrace) scoreTime(plugin string, calls int) time.Duration {
	if i, ok := c.scoreIndex[plugin]; ok {
		return c.scoreTimers[i].total(calls)
	}
	return 0
}

func (c *cycleTrace) addNormalized(plugin string, scores fwk.NodeScoreList, d time.Duration) {
	out := make([]int64, len(scores))
	for i, s := range scores {
		out[i] = s.Score
	}
	c.mu.Lock()
	c.normalized[plugin] = out
	c.normNanos[plugin] = d
	c.mu.Unlock()
}

func (c *cycleTrace) addPreFilter(ps recorder.PluginStatus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.c.PreFilter == nil {
		c.c.PreFilter = &recorder.PreFilterPhase{}
	}
	c.c.PreFilter.Plugins = append(c.c.PreFilter.Plugins, ps)
}

func (c *cycleTrace) addPostFilter(ps recorder.PluginStatus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.c.PostFilter == nil {
		c.c.PostFilter = &recorder.PostFilterPhase{}
	}
	c.c.PostFilter.Plugins = append(c.c.PostFilter.Plugins, ps)
}

// addCandidate records one node of the preemption dry run.
func (c *cycleTrace) addCandidate(cand recorder.Candidate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.c.PostFilter == nil {
		c.c.PostFilter = &recorder.PostFilterPhase{}
	}
	pf := c.c.PostFilter
	if cand.Code == recorder.CodeSuccess && len(cand.Victims) > 0 {
		pf.Candidates = append(pf.Candidates, cand)
	} else {
		pf.Rejected = append(pf.Rejected, cand)
	}
}

func (c *cycleTrace) addPreScore(ps recorder.PluginStatus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.c.Score == nil {
		c.c.Score = &recorder.ScorePhase{}
	}
	c.c.Score.PreScore = append(c.c.Score.PreScore, ps)
}

// timePhase appends the wall time since the last mark to the cycle's timings.
func (c *cycleTrace) timePhase(name string, start time.Time) {
	d := time.Since(start)
	c.mu.Lock()
	c.c.Timings = append(c.c.Timings, recorder.PhaseTiming{Phase: name, Duration: d, At: start.Sub(c.started)})
	c.mu.Unlock()
}

// nominated says whether the cycle's preemption nominated a node.
func (c *cycleTrace) nominated() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.c.PostFilter != nil && c.c.PostFilter.NominatedNode != ""
}

func (c *cycleTrace) addVictim(p recorder.PodRef) {
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

// podRequests are the pod's requests as NodeResourcesFit adds them up
// (its containers' and overhead, the largest init container's), in the
// units of NodeInfo.Allocatable: what the node's requested grows by.
func podRequests(p *v1.Pod) map[string]int64 {
	out := map[string]int64{}
	for name, q := range resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{}) {
		if name == v1.ResourceCPU {
			out[string(name)] = q.MilliValue()
		} else {
			out[string(name)] = q.Value()
		}
	}
	return out
}

// nonZeroRequests returns the pod's cpu and memory as NodeResourcesFit's
// score counts them, each container without a request at the scheduler's
// defaults (noderesources' calculatePodResourceRequest), or nil when that
// is plain, the pod's requests as podRequests adds them up.
func nonZeroRequests(p *v1.Pod, plain map[string]int64) map[string]int64 {
	lacks := func(cs []v1.Container) bool {
		return slices.ContainsFunc(cs, func(c v1.Container) bool {
			_, cpu := c.Resources.Requests[v1.ResourceCPU]
			_, mem := c.Resources.Requests[v1.ResourceMemory]
			return !cpu || !mem
		})
	}
	if !lacks(p.Spec.Containers) && !lacks(p.Spec.InitContainers) {
		return nil
	}
	defaults := v1.ResourceList{
		v1.ResourceCPU:    *resource.NewMilliQuantity(schedutil.DefaultMilliCPURequest, resource.DecimalSI),
		v1.ResourceMemory: *resource.NewQuantity(schedutil.DefaultMemoryRequest, resource.DecimalSI),
	}
	all := resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{NonMissingContainerRequests: defaults})
	cpu, mem := all[v1.ResourceCPU], all[v1.ResourceMemory]
	nz := map[string]int64{string(v1.ResourceCPU): cpu.MilliValue(), string(v1.ResourceMemory): mem.Value()}
	if nz[string(v1.ResourceCPU)] == plain[string(v1.ResourceCPU)] && nz[string(v1.ResourceMemory)] == plain[string(v1.ResourceMemory)] {
		return nil
	}
	return nz
}

func podRef(p *v1.Pod) recorder.PodRef {
	ref := recorder.PodRef{Namespace: p.Namespace, Name: p.Name, UID: string(p.UID), Node: p.Spec.NodeName}
	if p.Spec.Priority != nil {
		ref.Priority = *p.Spec.Priority
	}
	return ref
}

// podPlaced names a pod placed on a node, without its UID and node, which the
// NodeUse it sits in already gives.
func podPlaced(p *v1.Pod) recorder.PodRef {
	ref := podRef(p)
	ref.UID, ref.Node = "", ""
	return ref
}
