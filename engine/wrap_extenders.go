package engine

import (
	"slices"
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"
	extenderv1 "k8s.io/kube-scheduler/extender/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

// Scheduler extenders take part in Filter and Score from outside the
// framework: the scheduler calls them after the filter plugins
// (findNodesThatPassExtenders) and after the score plugins (prioritizeNodes).
// Each is wrapped so that what it answered is recorded in the pod's cycle as
// a column of its own, named by the extender, next to the plugins.

// extenderWrapper forwards every call to an extender and records its Filter
// and Prioritize answers.
type extenderWrapper struct {
	fwk.Extender
	r *traceState
}

var _ fwk.Extender = (*extenderWrapper)(nil)

// extenderColumn names an extender's column in the Filter and Score phases.
func extenderColumn(name string) string { return "Extender " + name }

func (w *extenderWrapper) Filter(pod *v1.Pod, nodes []fwk.NodeInfo) ([]fwk.NodeInfo, extenderv1.FailedNodesMap, extenderv1.FailedNodesMap, error) {
	start := nanotime()
	passed, failed, unresolvable, err := w.Extender.Filter(pod, nodes)
	// An extender without a filter verb passes every node without being asked.
	if c := w.r.cycleFor(pod); c != nil && err == nil && w.IsFilter() {
		c.addExtenderFilter(extenderColumn(w.Name()), nodes, passed, failed, unresolvable, time.Duration(nanotime()-start))
	}
	return passed, failed, unresolvable, err
}

func (w *extenderWrapper) Prioritize(pod *v1.Pod, nodes []fwk.NodeInfo) (*extenderv1.HostPriorityList, int64, error) {
	start := nanotime()
	list, weight, err := w.Extender.Prioritize(pod, nodes)
	if c := w.r.cycleFor(pod); c != nil && err == nil && list != nil && w.IsPrioritizer() {
		c.addExtenderScores(extenderColumn(w.Name()), *list, weight, time.Duration(nanotime()-start))
	}
	return list, weight, err
}

// extenderFilter is one extender's Filter answer in a cycle.
type extenderFilter struct {
	column   string
	calls    int
	duration time.Duration
	rejected []recorder.NodeStatus // Plugin is set when the phase is assembled
}

// addExtenderFilter records which of nodes an extender rejected, as the
// scheduler reads its answer: a node in failedAndUnresolvable is
// UnschedulableAndUnresolvable, one in failed Unschedulable, and one the
// extender dropped without a reason is gone all the same.
func (c *cycleTrace) addExtenderFilter(column string, nodes, passed []fwk.NodeInfo, failed, unresolvable extenderv1.FailedNodesMap, d time.Duration) {
	kept := make(map[string]bool, len(passed))
	for _, n := range passed {
		kept[n.Node().Name] = true
	}
	f := extenderFilter{column: column, calls: len(nodes), duration: d}
	for _, n := range nodes {
		name := n.Node().Name
		if kept[name] {
			continue
		}
		st := recorder.NodeStatus{Node: c.nodeIndex[name], Code: fwk.Unschedulable.String()}
		switch msg, ok := unresolvable[name]; {
		case ok:
			st.Code, st.Reasons = fwk.UnschedulableAndUnresolvable.String(), []string{msg}
		default:
			if msg, ok := failed[name]; ok {
				st.Reasons = []string{msg}
			}
		}
		f.rejected = append(f.rejected, st)
	}
	c.mu.Lock()
	c.extFilters = append(c.extFilters, f)
	c.mu.Unlock()
}

// addExtenderScores adds an extender's priorities to the Score phase. The
// scheduler scales an extender's 0–MaxExtenderPriority answer to the
// plugins' 0–MaxNodeScore range and multiplies it by the extender's weight
// before adding it to each node's total (prioritizeNodes); the scaled score
// is recorded as the normalized score, so that normalized × weight is what
// the node's total gained.
func (c *cycleTrace) addExtenderScores(column string, list extenderv1.HostPriorityList, weight int64, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sp := c.c.Score
	if sp == nil || len(sp.Nodes) == 0 {
		return
	}
	at := make(map[int]int, len(sp.Nodes))
	for i, n := range sp.Nodes {
		at[n] = i
	}
	pl := recorder.ScorePlugin{Name: column, Weight: weight, Duration: d,
		Raw: make([]int64, len(sp.Nodes)), Normalized: make([]int64, len(sp.Nodes))}
	for _, hp := range list {
		idx, ok := c.nodeIndex[hp.Host]
		if !ok {
			continue
		}
		i, ok := at[idx]
		if !ok {
			continue
		}
		scaled := hp.Score * (fwk.MaxNodeScore / extenderv1.MaxExtenderPriority)
		pl.Raw[i] += hp.Score
		pl.Normalized[i] += scaled
		sp.Totals[i] += scaled * weight
	}
	sp.Plugins = append(sp.Plugins, pl)
}

// applyExtenderFilters adds each extender's column to the Filter phase and
// its rejections; passed lists the nodes every filter plugin passed and
// loses those an extender rejected.
func (c *cycleTrace) applyExtenderFilters(fp *recorder.FilterPhase, passed []int) []int {
	if len(c.extFilters) == 0 {
		return passed
	}
	fp.Plugins = slices.Clone(fp.Plugins)
	gone := map[int]bool{}
	for _, f := range c.extFilters {
		col := slices.Index(fp.Plugins, f.column)
		if col < 0 {
			fp.Plugins = append(fp.Plugins, f.column)
			fp.Calls = append(fp.Calls, 0)
			fp.Durations = append(fp.Durations, 0)
			col = len(fp.Plugins) - 1
		}
		fp.Calls[col] += f.calls
		fp.Durations[col] += f.duration
		for _, st := range f.rejected {
			st.Plugin = col
			fp.Rejected = append(fp.Rejected, st)
			gone[st.Node] = true
		}
	}
	sort.SliceStable(fp.Rejected, func(i, j int) bool { return fp.Rejected[i].Node < fp.Rejected[j].Node })
	return slices.DeleteFunc(passed, func(n int) bool { return gone[n] })
}
