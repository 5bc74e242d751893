package live

import (
	"context"
	"slices"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedscope/schedscope/recorder"
)

// decisions holds the engine's last finished cycle of each pod, for the
// cluster's decision to be set beside it.
type decisions struct {
	mu   sync.Mutex
	last map[types.UID]*recorder.Cycle
	// changed is closed and replaced whenever a cycle finishes.
	changed chan struct{}
}

func newDecisions() *decisions {
	return &decisions{last: map[types.UID]*recorder.Cycle{}, changed: make(chan struct{})}
}

// decided takes a finished cycle (engine.Options.OnDecided).
func (d *decisions) decided(c *recorder.Cycle) {
	d.mu.Lock()
	d.last[types.UID(c.Pod.UID)] = c
	close(d.changed)
	d.changed = make(chan struct{})
	d.mu.Unlock()
}

// lastOf returns uid's last finished cycle, and a channel closed when the
// next cycle of any pod finishes.
func (d *decisions) lastOf(uid types.UID) (*recorder.Cycle, <-chan struct{}) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.last[uid], d.changed
}

func (d *decisions) forget(uid types.UID) {
	d.mu.Lock()
	delete(d.last, uid)
	d.mu.Unlock()
}

// observe waits (bounded) for the engine's own decision on pod, then reports
// what the cluster did next to it.
func (s *Session) observe(ctx context.Context, pod *v1.Pod, since time.Time, mirrored bool) {
	var c *recorder.Cycle
	if mirrored {
		c = s.waitDecision(ctx, pod.UID, since)
		// A cycle that preempted is held back until its victims are known;
		// the cluster has decided, so hand it over first: an observation
		// never comes before the cycle it refers to.
		s.engine.FlushHeld(pod.UID)
	}
	o := &recorder.Observed{Pod: observedPod(pod), Node: pod.Spec.NodeName, Time: time.Now()}
	if o.Node == "" {
		for _, cond := range pod.Status.Conditions {
			if cond.Type == v1.PodScheduled {
				o.Message = cond.Message
			}
		}
	}
	if c != nil {
		o.Seq = c.Seq
		o.Predicted = c.Outcome.Node
		o.Nominated = c.Outcome.NominatedNode
		if c.Outcome.Result == recorder.ResultBound && c.Selection != nil && len(c.Selection.Top) > 1 {
			for _, i := range c.Selection.Top {
				o.TieSet = append(o.TieSet, c.NodeName(i))
			}
			slices.Sort(o.TieSet)
		}
	}
	if s.opts.OnObserved != nil {
		s.opts.OnObserved(o)
	}
}

// observedPod names the pod an observation is about; its node is the
// observation's.
func observedPod(p *v1.Pod) recorder.PodRef {
	ref := recorder.PodRef{Namespace: p.Namespace, Name: p.Name, UID: string(p.UID)}
	if p.Spec.Priority != nil {
		ref.Priority = *p.Spec.Priority
	}
	return ref
}

// waitDecision returns the engine's last cycle for uid that started after
// since, waiting up to the decision timeout (not counting time paused).
func (s *Session) waitDecision(ctx context.Context, uid types.UID, since time.Time) *recorder.Cycle {
	if !s.running.Load() {
		c, _ := s.decisions.lastOf(uid)
		return c
	}
	deadline := time.Now().Add(s.opts.DecisionTimeout)
	for {
		c, ch := s.decisions.lastOf(uid)
		if c != nil && !c.Start.Before(since) {
			return c
		}
		if s.gated.Load() {
			deadline = time.Now().Add(s.opts.DecisionTimeout)
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			return c
		}
		t := time.NewTimer(min(wait, 200*time.Millisecond))
		select {
		case <-ch:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return c
		}
		t.Stop()
	}
}
