package engine

import (
	"errors"
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

func (e *Engine) startCycle(fw framework.Framework, state fwk.CycleState, podInfo *framework.QueuedPodInfo) *cycleTrace {
	e.flushPending(podInfo.Pod.UID)
	nodes, _ := fw.SnapshotSharedLister().NodeInfos().List()
	r := e.trace
	r.mu.Lock()
	r.seq++
	seq := r.seq
	set := r.nodeSetFor(nodes)
	index := r.nodeIndex
	use := r.nodeUseFor(nodes, state.IsPodGroupSchedulingCycle())
	r.mu.Unlock()
	requests := podRequests(podInfo.Pod)
	c := &cycleTrace{
		c: &recorder.Cycle{
			Seq:             seq,
			Pod:             e.withOwner(podRef(podInfo.Pod), podInfo.Pod),
			Profile:         fw.ProfileName(),
			Attempt:         podInfo.Attempts,
			Start:           e.now(),
			Nodes:           set,
			NodeSetID:       set.ID,
			NodeUse:         use,
			SearchStart:     *e.nextStart,
			NodesToFind:     e.nodesToFind(fw, len(nodes)),
			Requests:        requests,
			NonZeroRequests: nonZeroRequests(podInfo.Pod, requests),
		},
		uid:        podInfo.Pod.UID,
		started:    time.Now(),
		state:      state,
		nodeIndex:  index,
		results:    getResults(len(nodes)),
		normalized: map[string][]int64{},
		normNanos:  map[string]time.Duration{},
	}
	pp := r.pluginsOf(fw)
	c.weights, c.scoreIndex, c.filterIndex, c.filterPlugins = pp.weights, pp.scoreIndex, pp.filterIndex, pp.filter
	c.scoreTimers = make([]callTimer, len(pp.scoreIndex))
	c.filterTimers = make([]callTimer, len(c.filterPlugins))
	c.timeAll = len(nodes) <= timeAllNodes
	r.mu.Lock()
	r.byUID[c.uid] = c
	r.mu.Unlock()
	r.current.Store(c)
	return c
}

// nodesToFind is how many feasible nodes the search of fw stops after, as
// the scheduler computes it (see numFeasibleNodesToFind in upstream.go).
func (e *Engine) nodesToFind(fw framework.Framework, numAll int) int {
	pct := e.globalPct
	if p := fw.PercentageOfNodesToScore(); p != nil {
		pct = *p
	}
	return numFeasibleNodesToFind(numAll, pct)
}

// endAlgorithm assembles Filter, Score and Selection once SchedulePod returns.
func (e *Engine) endAlgorithm(c *cycleTrace, fw framework.Framework, res scheduler.ScheduleResult, err error) {
	if c.phaseIs(phaseFilter) && !c.phaseStart.IsZero() {
		c.timePhase(recorder.PhaseFilter, c.phaseStart)
	}
	c.setPhase(phaseIdle)
	c.mu.Lock()
	defer c.mu.Unlock()
	cy := c.c
	fp := &recorder.FilterPhase{Plugins: c.filterPlugins, Feasible: []int{}}
	skip := c.state.GetSkipFilterPlugins()
	skipped := make([]bool, len(c.filterPlugins))
	for i, p := range c.filterPlugins {
		if skip.Has(p) {
			skipped[i] = true
			fp.Skipped = append(fp.Skipped, p)
		}
	}
	// A plugin ran on every evaluated node up to the plugin that rejected it:
	// count the nodes by the last plugin they reached, and sum from the end.
	fp.Calls = make([]int, len(c.filterPlugins))
	reached := make([]int, len(c.filterPlugins))
	ranUpTo := func(last int) {
		if last >= len(reached) {
			last = len(reached) - 1
		}
		if last >= 0 {
			reached[last]++
		}
	}
	var passed []int
	for i, r := range c.results {
		switch r.state {
		case 1:
			passed = append(passed, i)
			ranUpTo(len(fp.Calls) - 1)
		case 2:
			fp.Evaluated++
			pi := -1
			if idx, ok := c.filterIndex[r.status.Plugin()]; ok {
				pi = idx
			}
			reasons := r.status.Reasons()
			if len(reasons) == 0 && r.status.AsError() != nil {
				reasons = []string{r.status.AsError().Error()}
			}
			fp.Rejected = append(fp.Rejected, recorder.NodeStatus{Node: i, Plugin: pi, Code: r.status.Code().String(), Reasons: reasons, Nominated: r.nominated})
			if pi < 0 {
				pi = len(fp.Calls) - 1
			}
			ranUpTo(pi)
		}
	}
	for i, n := len(reached)-1, 0; i >= 0; i-- {
		n += reached[i]
		if !skipped[i] {
			fp.Calls[i] = n
		}
	}
	fp.Durations = make([]time.Duration, len(c.filterPlugins))
	for i := range c.filterPlugins {
		fp.Durations[i] = c.filterTimers[i].total(fp.Calls[i])
	}
	fp.Evaluated += len(passed)
	passed = c.applyExtenderFilters(fp, passed)
	switch {
	case c.scoreNodes != nil:
		fp.Feasible = c.scoreNodes
	case err == nil && res.SuggestedHost != "" && (cy.FastPath == nil || !cy.FastPath.Feasible):
		fp.Feasible = []int{c.nodeIndex[res.SuggestedHost]}
	}
	n := len(c.results)
	inFeasible := make([]bool, n)
	for _, i := range fp.Feasible {
		if i >= 0 && i < n {
			inFeasible[i] = true
		}
	}
	// The filter pass is over: no wrapper writes results any more.
	putResults(c.results)
	c.results = nil
	for _, i := range passed {
		if !inFeasible[i] {
			fp.Discarded = append(fp.Discarded, i)
		}
	}
	// Order discarded nodes by search order, as the scheduler walked them.
	sort.Slice(fp.Discarded, func(a, b int) bool {
		return (fp.Discarded[a]-cy.SearchStart+n)%n < (fp.Discarded[b]-cy.SearchStart+n)%n
	})
	if fp.Evaluated > 0 || cy.FastPath == nil || !cy.FastPath.Feasible {
		cy.Filter = fp
	}
	if err == nil && res.SuggestedHost != "" {
		cy.Selection = selection(cy, res.SuggestedHost, c.nodeIndex)
	}
	var fitErr *framework.FitError
	if mode := e.opts.Diagnostic; mode == DiagnosticAlways || (mode == DiagnosticUnschedulable && errors.As(err, &fitErr)) {
		cy.Diagnostic = e.diagnosticPass(fw, c)
	}
}

func selection(cy *recorder.Cycle, host string, index map[string]int) *recorder.Selection {
	s := &recorder.Selection{Node: host}
	switch {
	case cy.FastPath != nil && cy.FastPath.Feasible:
		s.Rule = recorder.RuleFastPath
		return s
	case cy.Score == nil || len(cy.Score.Totals) == 0:
		s.Rule = recorder.RuleOnlyFeasible
		return s
	}
	best := cy.Score.Totals[0]
	for _, t := range cy.Score.Totals {
		best = max(best, t)
	}
	for i, t := range cy.Score.Totals {
		if t == best {
			s.Top = append(s.Top, cy.Score.Nodes[i])
		}
	}
	s.Best = best
	s.Rule = recorder.RuleHighestScore
	if len(s.Top) > 1 {
		s.Rule = recorder.RuleTie
	}
	return s
}

func (e *Engine) finishFailed(c *cycleTrace, status *fwk.Status, ni *fwk.NominatingInfo) {
	out := recorder.Outcome{Result: recorder.ResultError, Reason: v1.PodReasonSchedulerError, Message: status.Message()}
	if status.IsRejected() {
		out.Result, out.Reason = recorder.ResultUnschedulable, v1.PodReasonUnschedulable
	}
	if ni != nil && ni.Mode() == fwk.ModeOverride {
		out.NominatedNode = ni.NominatedNodeName
	}
	c.c.Outcome = out
	e.finish(c)
}

// finish completes a cycle. A cycle that preempted is held until the pod's next
// cycle starts or the engine settles, so the victims evicted asynchronously are in it.
func (e *Engine) finish(c *cycleTrace) {
	c.mu.Lock()
	if c.done {
		c.mu.Unlock()
		return
	}
	c.done = true
	c.c.Duration = time.Since(c.started)
	hold := c.postFilter && c.c.PostFilter != nil && c.c.PostFilter.NominatedNode != ""
	c.mu.Unlock()
	if e.opts.OnDecided != nil {
		e.opts.OnDecided(c.c)
	}
	e.trace.current.CompareAndSwap(c, nil)
	if hold {
		e.mu.Lock()
		e.pending = append(e.pending, c)
		e.mu.Unlock()
		e.changes.kick()
		return
	}
	e.emit(c)
}

func (e *Engine) emit(c *cycleTrace) {
	e.mu.Lock()
	e.emitted++
	e.emitting++
	e.mu.Unlock()
	e.trace.mu.Lock()
	if e.trace.byUID[c.uid] == c {
		delete(e.trace.byUID, c.uid)
	}
	e.trace.mu.Unlock()
	if e.opts.OnCycle != nil {
		e.opts.OnCycle(c.c)
	}
	e.mu.Lock()
	e.emitting--
	e.mu.Unlock()
	e.changes.kick()
}

// flushPending emits held cycles of uid (all of them when uid is empty).
func (e *Engine) flushPending(uid types.UID) {
	e.mu.Lock()
	var out, keep []*cycleTrace
	for _, c := range e.pending {
		if uid == "" || c.uid == uid {
			out = append(out, c)
		} else {
			keep = append(keep, c)
		}
	}
	e.pending = keep
	e.mu.Unlock()
	for _, c := range out {
		e.emit(c)
	}
}
