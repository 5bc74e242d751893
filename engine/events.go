package engine

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
)

// eventRecorder drops events except "Preempted", which names a victim and its preemptor.
type eventRecorder struct {
	events.FakeRecorder
	e *Engine
}

func (r *eventRecorder) Eventf(regarding runtime.Object, related runtime.Object, eventtype, reason, action, note string, args ...interface{}) {
	if reason != "Preempted" {
		return
	}
	victim, ok1 := regarding.(*v1.Pod)
	// The preemption executor passes a wrapper of the preemptor pod.
	preemptor, ok2 := related.(interface{ GetUID() types.UID })
	if !ok1 || !ok2 {
		return
	}
	r.e.mu.Lock()
	var target *cycleTrace
	for _, c := range r.e.pending {
		if c.uid == preemptor.GetUID() {
			target = c
		}
	}
	r.e.mu.Unlock()
	if target == nil {
		target = r.e.trace.cycleFor(&v1.Pod{ObjectMeta: metav1.ObjectMeta{UID: preemptor.GetUID()}})
	}
	// The event may come late, while the preemptor's next cycle (its retry on
	// the nominated node) runs: the victim belongs to the cycle that
	// preempted, which the deletion already recorded it on.
	if target != nil && target.nominated() {
		target.addVictim(podRef(victim))
	}
}

func (r *eventRecorder) WithLogger(klog.Logger) events.EventRecorderLogger { return r }
