package engine

import (
	"context"
	"errors"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

// installHooks wraps the scheduler's replaceable functions and, unless recording
// is disabled, every profile's framework and plugins.
func (e *Engine) installHooks() error {
	s := e.sched
	origNext := s.NextEntity
	s.NextEntity = func(logger klog.Logger) (framework.QueuedEntityInfo, error) {
		ent, err := origNext(logger)
		if pgi, ok := ent.(*framework.QueuedPodGroupInfo); ok && pgi != nil {
			// A pod group's members are in its cycle as a pod is in its
			// own: FailureHandler settles each, a binding the bound ones
			// (and endGroup those the cycle left alone).
			e.mu.Lock()
			for _, pis := range pgi.QueuedPodInfos {
				for _, pi := range pis {
					if pi != nil && pi.Pod != nil {
						e.inFlight[pi.Pod.UID] = true
						delete(e.timeOnly, pi.Pod.UID)
					}
				}
			}
			e.mu.Unlock()
			if !e.opts.DisableRecording {
				e.startGroup(pgi)
			}
		}
		if pi, ok := ent.(*framework.QueuedPodInfo); ok && pi != nil && pi.Pod != nil {
			if e.queue != nil {
				e.queue.popped(pi)
			}
			e.mu.Lock()
			e.inFlight[pi.Pod.UID] = true
			delete(e.timeOnly, pi.Pod.UID)
			e.mu.Unlock()
			e.changes.kick()
			if e.opts.Gate != nil {
				// The pod's next cycle is about to start: a cycle of it held
				// for its preemption's victims (finish) is complete, and is
				// shown now rather than after a pause the user may hold.
				e.flushPending(pi.Pod.UID)
				e.gated.Store(true)
				gerr := e.opts.Gate(context.Background(), podRef(pi.Pod))
				e.gated.Store(false)
				if gerr != nil {
					return nil, gerr
				}
			}
		}
		return ent, err
	}
	origFail := s.FailureHandler
	s.FailureHandler = func(ctx context.Context, fw framework.Framework, podInfo *framework.QueuedPodInfo, status *fwk.Status, ni *fwk.NominatingInfo, start time.Time) {
		e.placementSubmitted(podInfo.Pod, nil)
		c := e.trace.cycleFor(podInfo.Pod)
		e.memberFailed(podInfo.Pod, status)
		// A failure no plugin rejected (an error, no nodes at all) is retried
		// after backoff alone, with the same result, for as long as the
		// scheduler runs. Both marks are set before the queue has the pod
		// back: an event may requeue and pop it at once. Only a fixture run
		// reads them (settle.go): a mirrored engine never settles, and would
		// keep a mark for every pod that ever failed.
		if e.opts.simulated {
			timeOnly := true
			var fitErr *framework.FitError
			if errors.As(status.AsError(), &fitErr) {
				timeOnly = fitErr.Diagnosis.UnschedulablePlugins.Len() == 0 && fitErr.Diagnosis.PendingPlugins.Len() == 0
			} else if err := status.AsError(); err != nil && (apierrors.IsConflict(err) || raced(err)) {
				// Another writer came first (a claim shared by replicas,
				// annotated for one of them): the retry sees the object
				// as it now is.
				timeOnly = false
			}
			if podInfo.Pod.Spec.SchedulingGroup != nil {
				// A pod group that failed is retried on the backoff
				// timer alone (the queue's AddAttemptedPodGroupIfNeeded),
				// whatever its members' plugins said, and with nothing
				// else to do the run has settled on it; unless its
				// PostFilter nominated nodes for it (workload-aware
				// preemption): once the victims are gone the retry
				// binds it, as kube-scheduler's does.
				timeOnly = ni == nil || ni.NominatedNodeName == ""
			}
			nominated := ni != nil && ni.Mode() == fwk.ModeOverride && ni.NominatedNodeName != ""
			// A pod group's preemption runs under the group's UID
			// (the executor's IsPodGroupRunningPreemption).
			var group types.UID
			if nominated {
				group = e.podGroupUID(podInfo.Pod)
			}
			e.mu.Lock()
			e.timeOnly[podInfo.Pod.UID] = timeOnly
			if nominated {
				e.nominated[podInfo.Pod.UID] = true
			}
			if group != "" {
				e.nominated[group] = true
			}
			e.mu.Unlock()
		}
		origFail(ctx, fw, podInfo, status, ni, start)
		if c != nil {
			e.finishFailed(c, status, ni)
		}
		if t, _ := e.groupMember(podInfo.Pod); t == nil {
			// A member of a pod-group cycle settles when the group's
			// cycle has ended and been handed over (endGroup).
			e.settled(podInfo.Pod.UID)
		}
	}
	if e.opts.DisableRecording {
		return nil
	}
	if err := e.installQueueObserver(e.opts.OnQueue); err != nil {
		return err
	}
	for i, ext := range s.Extenders {
		s.Extenders[i] = &extenderWrapper{Extender: ext, r: e.trace}
	}
	for name, fw := range s.Profiles {
		if err := e.trace.installPluginWrappers(fw); err != nil {
			return err
		}
		if err := e.installPlacementWrappers(fw); err != nil {
			return err
		}
		s.Profiles[name] = &boundFramework{recordingFramework{Framework: fw, r: e.trace, inSearchOrder: len(s.Extenders) == 0}, e}
	}
	origSchedule := s.SchedulePod
	s.SchedulePod = func(ctx context.Context, fw framework.Framework, state fwk.CycleState, podInfo *framework.QueuedPodInfo) (scheduler.ScheduleResult, error) {
		if e.trace.dry.Load() {
			// A pod group's PostFilter trying its members again: not a
			// cycle (pod_group_cycle.go).
			return origSchedule(ctx, fw, state, podInfo)
		}
		c := e.startCycle(fw, state, podInfo)
		e.memberStarted(c, podInfo.Pod)
		res, err := origSchedule(ctx, fw, state, podInfo)
		e.endAlgorithm(c, fw, res, err)
		e.memberEnded(podInfo.Pod, res, err)
		e.placementMember(c, podInfo.Pod)
		e.compositeRun(c, podInfo.Pod)
		return res, err
	}
	return nil
}

// boundFramework completes a cycle when its PostBind plugins have run.
type boundFramework struct {
	recordingFramework
	e *Engine
}

func (f *boundFramework) RunPostBindPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) {
	start := time.Now()
	f.Framework.RunPostBindPlugins(ctx, state, pod, nodeName)
	if c := f.r.cycleFor(pod); c != nil {
		c.timePhase(recorder.PhasePostBind, start)
		c.c.Outcome = recorder.Outcome{Result: recorder.ResultBound, Node: nodeName}
		f.e.finish(c)
	}
}

func (e *Engine) settled(uid types.UID) {
	e.mu.Lock()
	delete(e.inFlight, uid)
	e.mu.Unlock()
	e.changes.kick()
}

// racedErrors are the errors of a cycle that lost a race with another
// writer of an object it read (v1.37.1): the API server's Conflict, and the
// volume binder's assume cache finding a claim or volume changed since the
// cycle read it (pkg/scheduler/util/assumecache: "is out of sync").
var racedErrors = []string{staleWrite, "is out of sync (stored: "}

func raced(err error) bool {
	for _, r := range racedErrors {
		if strings.Contains(err.Error(), r) {
			return true
		}
	}
	return false
}
