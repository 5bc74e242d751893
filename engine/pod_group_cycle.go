package engine

import (
	"context"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	schedulingapi "k8s.io/kubernetes/pkg/apis/scheduling"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

// A pod-group cycle, as kube-scheduler v1.37.1 runs it
// (pkg/scheduler/schedule_one_podgroup.go), has no replaceable function of
// its own: ScheduleOne calls the private scheduleOnePodGroup for a
// *framework.QueuedPodGroupInfo popped by NextEntity; podGroupCycle runs
// PlacementFeasible, then podGroupPodSchedulingAlgorithm for each member in
// turn (SchedulePod, then assume and Reserve, reverted unless the group
// binds), the group's PodGroupPostFilter when it is unschedulable, and
// submitPodGroupAlgorithmResult, which hands each member to binding or to
// FailureHandler, patches the PodGroup's PodGroupInitiallyScheduled
// condition and ends with SchedulingQueue.AddAttemptedPodGroupIfNeeded.
// The engine records the group cycle from the exported seams it passes
// through: it begins at NextEntity returning the group (hooks.go), each
// member's cycle is linked to it in SchedulePod, the framework's
// RunPlacementFeasiblePlugins and RunPodGroupPostFilterPlugins give the
// verdicts (boundFramework), FailureHandler each member's message, and it
// ends at AddAttemptedPodGroupIfNeeded (queueWrapper), when the condition is
// read back from the in-memory API server. Nothing here changes what the
// scheduler is handed or returns.

// groupTrace is a pod-group cycle while it runs. The scheduling goroutine
// runs the whole cycle; mu guards it against readers of a finished one.
type groupTrace struct {
	mu      sync.Mutex
	g       *recorder.PodGroupCycle
	started time.Time
	member  map[string]int // pod key → index in g.Members
	// inPostFilter is set while the group's PostFilter runs: its dry runs
	// of the members' algorithm are not the cycle's placements.
	inPostFilter bool
	// placements are the candidate placements, with
	// TopologyAwareWorkloadScheduling on (pod_group_placement.go).
	placements *placementTrace
	// runs are each member's runs in a composite cycle, and reserved the
	// run of each member whose Reserve came after its last run
	// (composite_pod_group.go).
	runs     map[int][]memberRun
	reserved map[int]*cycleTrace
}

// startGroup begins recording the pod-group cycle of pgi, just popped.
func (e *Engine) startGroup(pgi *framework.QueuedPodGroupInfo) {
	if pgi == nil || pgi.PodGroupInfo == nil {
		return
	}
	e.mu.Lock()
	e.groupSeq++
	seq := e.groupSeq
	e.mu.Unlock()
	g := &recorder.PodGroupCycle{
		Seq:   seq,
		Group: recorder.PodGroupRef{Namespace: pgi.Namespace, Name: pgi.Name},
		Start: e.now(),
	}
	if pg := pgi.PodGroup; pg != nil {
		switch p := pg.Spec.SchedulingPolicy; {
		case p.Gang != nil:
			g.Policy, g.MinCount = recorder.PolicyGang, p.Gang.MinCount
		case p.Basic != nil:
			g.Policy = recorder.PolicyBasic
		}
	}
	t := &groupTrace{g: g, started: time.Now(), member: map[string]int{}}
	// The members in the order the cycle takes them: a leaf group's
	// queued pods, in the queue's order (a CompositePodGroup's: its
	// leaves', composite_pod_group.go).
	composite := startHierarchy(pgi, g, t)
	for _, pi := range pgi.QueuedPodInfos[fwk.PodGroupKey(pgi.Namespace, pgi.Name)] {
		if composite {
			break
		}
		if pi == nil || pi.Pod == nil {
			continue
		}
		if g.Profile == "" {
			g.Profile = pi.Pod.Spec.SchedulerName
		}
		t.member[pi.Pod.Namespace+"/"+pi.Pod.Name] = len(g.Members)
		g.Members = append(g.Members, recorder.GroupMember{Pod: podRef(pi.Pod)})
	}
	e.groupOpen.Store(true)
	e.group.Store(t)
}

// groupMember returns the running group cycle and the index of pod in it.
func (e *Engine) groupMember(pod *v1.Pod) (*groupTrace, int) {
	t := e.group.Load()
	if t == nil {
		return nil, -1
	}
	i, ok := t.member[pod.Namespace+"/"+pod.Name]
	if !ok {
		return nil, -1
	}
	return t, i
}

// memberStarted links a member's cycle to the group cycle, with the
// placements of the members before it the scheduler has assumed.
func (e *Engine) memberStarted(c *cycleTrace, pod *v1.Pod) {
	e.withMember(pod, func(t *groupTrace, i int) {
		m := &t.g.Members[i]
		m.Cycle = c.c.Seq
		m.Assumed = nil
		for _, o := range t.g.Members[:i] {
			if o.Node != "" {
				m.Assumed = append(m.Assumed, recorder.Placement{Pod: o.Pod.Name, Node: o.Node})
			}
		}
	})
}

// withMember calls f, under the group cycle's lock, with the member pod is
// of the group cycle running; not while group PostFilter re-runs the
// members as a trial, which is no member's cycle.
func (e *Engine) withMember(pod *v1.Pod, f func(t *groupTrace, i int)) {
	t, i := e.groupMember(pod)
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.inPostFilter {
		f(t, i)
	}
}

// memberEnded records where a member's algorithm placed it, tentatively.
func (e *Engine) memberEnded(pod *v1.Pod, res scheduler.ScheduleResult, err error) {
	e.withMember(pod, func(t *groupTrace, i int) {
		m := &t.g.Members[i]
		if err != nil {
			m.Code, m.Message = recorder.CodeUnschedulable, err.Error()
			if _, fit := err.(*framework.FitError); !fit {
				m.Code = recorder.CodeError
			}
			return
		}
		m.Code, m.Node = recorder.CodeSuccess, res.SuggestedHost
	})
}

// memberFailed records the message FailureHandler sent a member back with.
func (e *Engine) memberFailed(pod *v1.Pod, status *fwk.Status) {
	t, i := e.groupMember(pod)
	if t == nil {
		return
	}
	t.mu.Lock()
	t.g.Members[i].Final = status.Message()
	t.mu.Unlock()
}

// placementFeasible records one verdict of the PlacementFeasible plugins.
func (e *Engine) placementFeasible(progress framework.PlacementProgress, st *fwk.Status) {
	t := e.group.Load()
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.inPostFilter {
		return
	}
	t.g.Feasible = append(t.g.Feasible, recorder.PlacementVerdict{
		Scheduled: progress.Scheduled, Remaining: progress.Remaining,
		Code: st.Code().String(), Message: st.Message(),
	})
}

// setInPostFilter marks the group's PostFilter running (or done).
func (e *Engine) setInPostFilter(on bool) {
	if t := e.group.Load(); t != nil {
		t.mu.Lock()
		t.inPostFilter = on
		t.mu.Unlock()
	}
}

// groupPostFilter records what the group's PostFilter returned.
func (e *Engine) groupPostFilter(res *fwk.PodGroupPostFilterResult, st *fwk.Status) {
	t := e.group.Load()
	if t == nil {
		return
	}
	t.mu.Lock()
	t.g.PostFilter = &recorder.GroupStatus{Code: st.Code().String(), Message: st.Message()}
	t.mu.Unlock()
}

// endGroup ends the group cycle of pgi: status is the root group's status
// AddAttemptedPodGroupIfNeeded is given; the condition is read back from the
// API server, where submitPodGroupAlgorithmResult patched it.
func (e *Engine) endGroup(pgi *framework.QueuedPodGroupInfo, status *fwk.Status) {
	if pgi == nil {
		return
	}
	t := e.group.Load()
	if t != nil && (t.g.Group.Namespace != pgi.Namespace || t.g.Group.Name != pgi.Name) {
		t = nil
	}
	if t == nil {
		e.settleMembers(pgi, status, nil)
		return
	}
	defer func() {
		e.groupOpen.Store(false)
		e.changes.kick()
	}()
	e.group.CompareAndSwap(t, nil)
	t.mu.Lock()
	g := t.g
	g.Duration = recorder.Duration(time.Since(t.started))
	switch {
	case status.IsSuccess():
		g.Outcome = recorder.GroupOutcome{Result: recorder.ResultBound}
	case status.IsRejected():
		g.Outcome = recorder.GroupOutcome{Result: recorder.ResultUnschedulable, Message: status.Message()}
		g.Outcome.WaitingOnPreemption = g.PostFilter != nil && g.PostFilter.Code == recorder.CodeSuccess
	default:
		g.Outcome = recorder.GroupOutcome{Result: recorder.ResultError, Message: status.Message()}
		if err := status.AsError(); err != nil {
			g.Outcome.Message = err.Error()
		}
	}
	t.finishPlacements(e.trace)
	t.finishRuns(e.trace)
	ran := false
	for _, m := range g.Members {
		ran = ran || m.Cycle != 0
	}
	t.mu.Unlock()
	if status.IsSuccess() && !ran {
		// Every member was skipped (deleted, or assumed already): upstream
		// ran no cycle (scheduleOnePodGroup's early AddAttemptedPodGroupIfNeeded).
		e.settleMembers(pgi, status, t)
		return
	}
	g.Condition = e.podGroupCondition(g.Group)
	if g.Composite() {
		g.Condition = nil
		e.endHierarchy(g)
	}
	if e.opts.OnPodGroup != nil {
		e.opts.OnPodGroup(g)
	}
	e.settleMembers(pgi, status, t)
}

// settleMembers settles the members of pgi its cycle did not hand to
// binding (a binding settles those; FailureHandler leaves a member of a
// running group cycle to this), once the cycle has been handed over: a run
// that settled before would miss it.
func (e *Engine) settleMembers(pgi *framework.QueuedPodGroupInfo, status *fwk.Status, t *groupTrace) {
	for _, pis := range pgi.QueuedPodInfos {
		for _, pi := range pis {
			if pi == nil || pi.Pod == nil {
				continue
			}
			placed := status.IsSuccess()
			if t != nil {
				t.mu.Lock()
				i, ok := t.member[pi.Pod.Namespace+"/"+pi.Pod.Name]
				placed = placed && ok && t.g.Members[i].Node != ""
				t.mu.Unlock()
			}
			if !placed {
				e.settled(pi.Pod.UID)
			}
		}
	}
}

// podGroupUID is the UID of the PodGroup pod is a member of, as the
// in-memory API server holds it, or "".
func (e *Engine) podGroupUID(pod *v1.Pod) types.UID {
	sg := pod.Spec.SchedulingGroup
	if sg == nil || sg.PodGroupName == nil {
		return ""
	}
	obj, err := e.store.stored(schedulingv1beta1.SchemeGroupVersion.WithResource("podgroups"), pod.Namespace, *sg.PodGroupName)
	if err != nil {
		return ""
	}
	if pg, ok := obj.(*schedulingv1beta1.PodGroup); ok {
		return pg.UID
	}
	return ""
}

// podGroupCondition reads a PodGroup's PodGroupInitiallyScheduled condition
// as the in-memory API server holds it, or nil.
func (e *Engine) podGroupCondition(ref recorder.PodGroupRef) *recorder.GroupCondition {
	obj, err := e.store.stored(schedulingv1beta1.SchemeGroupVersion.WithResource("podgroups"), ref.Namespace, ref.Name)
	if err != nil {
		return nil
	}
	pg, ok := obj.(*schedulingv1beta1.PodGroup)
	if !ok {
		return nil
	}
	c := apimeta.FindStatusCondition(pg.Status.Conditions, schedulingapi.PodGroupInitiallyScheduled)
	if c == nil {
		return nil
	}
	return &recorder.GroupCondition{Type: c.Type, Status: string(c.Status), Reason: c.Reason, Message: c.Message}
}

// RunPlacementFeasiblePlugins records the verdict it returns unchanged.
func (f *boundFramework) RunPlacementFeasiblePlugins(ctx context.Context, state fwk.PlacementCycleState, pgi fwk.PodGroupInfo, progress framework.PlacementProgress) *fwk.Status {
	f.e.placementTry(state)
	st := f.Framework.RunPlacementFeasiblePlugins(ctx, state, pgi, progress)
	if f.e.hierarchyVerdict(pgi, progress, st) {
		return st
	}
	f.e.placementFeasible(progress, st)
	f.e.placementVerdict(progress, st)
	return st
}

// RunPodGroupPostFilterPlugins records what the group's PostFilter
// returned, unchanged. What it runs of the members' algorithm again
// (pgSchedulingFunc, workload-aware preemption's dry run) is recorded
// nowhere: the members' cycles are those of the group cycle.
func (f *boundFramework) RunPodGroupPostFilterPlugins(ctx context.Context, state *framework.CycleState, pgi fwk.PodGroupInfo, fn fwk.PodGroupSchedulingFunc) (*fwk.PodGroupPostFilterResult, *fwk.Status) {
	f.e.setInPostFilter(true)
	cur := f.e.trace.current.Swap(nil)
	f.e.trace.dry.Store(true)
	res, st := f.Framework.RunPodGroupPostFilterPlugins(ctx, state, pgi, fn)
	f.e.trace.dry.Store(false)
	f.e.trace.current.CompareAndSwap(nil, cur)
	f.e.setInPostFilter(false)
	f.e.groupPostFilter(res, st)
	return res, st
}

// AddAttemptedPodGroupIfNeeded ends the pod-group cycle; the queue's moves
// of the group it makes (to backoffQ, or activeQ) are recorded as the
// group's queue events.
func (q *queueWrapper) AddAttemptedPodGroupIfNeeded(logger klog.Logger, pgi *framework.QueuedPodGroupInfo, cycle int64, status *fwk.Status) error {
	call := &queueCall{event: framework.ScheduleAttemptFailure}
	err := q.SchedulingQueue.AddAttemptedPodGroupIfNeeded(q.o.logger(logger, call), pgi, cycle, status)
	q.o.flushHints(call, framework.ScheduleAttemptFailure)
	q.e.endGroup(pgi, status)
	return err
}
