package live

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/schedscope/schedscope/engine/cluster"
)

var podsGVR = v1.SchemeGroupVersion.WithResource("pods")

// startMirror lists and watches every resource, copies the current state into
// the engine, and keeps applying changes.
func (s *Session) startMirror(ctx context.Context) error {
	factory := s.opts.Cluster.InformerFactory(time.Minute)
	// Succeeded and Failed pods use nothing; the scheduler does not watch them either.
	podFactory := s.opts.Cluster.InformerFactory(time.Minute,
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = "status.phase!=" + string(v1.PodSucceeded) + ",status.phase!=" + string(v1.PodFailed)
		}))
	var synced []cache.InformerSynced
	for _, gvr := range s.resources {
		f := factory
		if gvr == podsGVR {
			f = podFactory
		}
		gi, err := f.ForResource(gvr)
		if err != nil {
			return fmt.Errorf("watching %s: %w", cluster.ResourceName(gvr), err)
		}
		inf := gi.Informer()
		if err := inf.SetWatchErrorHandlerWithContext(s.watchError(gvr)); err != nil {
			return err
		}
		reg, err := inf.AddEventHandler(s.handlerFor(ctx, gvr))
		if err != nil {
			return err
		}
		// The handler's sync, not the informer's: the mirror must have
		// copied the whole first list before the scheduler starts.
		synced = append(synced, reg.HasSynced)
	}
	factory.Start(ctx.Done())
	podFactory.Start(ctx.Done())
	sctx, cancel := context.WithTimeout(ctx, s.opts.SyncTimeout)
	defer cancel()
	if !cache.WaitForCacheSync(sctx.Done(), synced...) {
		return fmt.Errorf("listing the cluster did not finish within %v", s.opts.SyncTimeout)
	}
	return nil
}

// watchError reports a failed list or watch; the informer retries by itself
// and relists when its watch expired.
func (s *Session) watchError(gvr schema.GroupVersionResource) cache.WatchErrorHandlerWithContext {
	return func(ctx context.Context, r *cache.Reflector, err error) {
		s.connection(fmt.Errorf("watching %s: %w", cluster.ResourceName(gvr), err))
		cache.DefaultWatchErrorHandler(ctx, r, err)
	}
}

func (s *Session) handlerFor(ctx context.Context, gvr schema.GroupVersionResource) cache.ResourceEventHandler {
	isPods := gvr == podsGVR
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if isPods {
				s.podChanged(ctx, nil, obj.(*v1.Pod))
				return
			}
			s.upsert(gvr, obj.(runtime.Object))
		},
		UpdateFunc: func(old, obj interface{}) {
			if isPods {
				s.podChanged(ctx, old.(*v1.Pod), obj.(*v1.Pod))
				return
			}
			s.upsert(gvr, obj.(runtime.Object))
		},
		DeleteFunc: func(obj interface{}) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			if m, err := meta.Accessor(obj); err == nil {
				s.remove(gvr, m.GetNamespace(), m.GetName())
				if isPods {
					s.forget(m.GetUID())
				}
			}
		},
	}
}

// upsert writes obj into the engine's API server unless it is already there
// unchanged (a resync delivers every object again).
func (s *Session) upsert(gvr schema.GroupVersionResource, obj runtime.Object) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	tr := s.engine.Tracker()
	if cur, err := tr.Get(gvr, m.GetNamespace(), m.GetName()); err == nil {
		if cm, err := meta.Accessor(cur); err == nil && cm.GetResourceVersion() == m.GetResourceVersion() && cm.GetUID() == m.GetUID() {
			return
		}
		_ = tr.Update(gvr, obj, m.GetNamespace())
		return
	}
	_ = tr.Create(gvr, obj, m.GetNamespace())
}

func (s *Session) remove(gvr schema.GroupVersionResource, ns, name string) {
	_ = s.engine.Tracker().Delete(gvr, ns, name)
}

func (s *Session) forget(uid types.UID) {
	s.mu.Lock()
	delete(s.mirrored, uid)
	delete(s.withheld, uid)
	delete(s.reportedUnsched, uid)
	s.mu.Unlock()
	s.decisions.forget(uid)
}

// ours reports whether one of the engine's profiles schedules pod.
func (s *Session) ours(pod *v1.Pod) bool { return s.profiles[pod.Spec.SchedulerName] }

// enginePod returns the engine's copy of a pod, or nil.
func (s *Session) enginePod(ns, name string) *v1.Pod {
	obj, err := s.engine.Tracker().Get(podsGVR, ns, name)
	if err != nil {
		return nil
	}
	p, _ := obj.(*v1.Pod)
	return p
}

// place makes the engine's copy of pod match the cluster's: a pod never moves
// between nodes by an update (the scheduler cache refuses that), so a pod the
// engine bound elsewhere is deleted and created again.
func (s *Session) place(pod *v1.Pod) {
	unlock := s.engine.LockPods()
	defer unlock()
	cur := s.enginePod(pod.Namespace, pod.Name)
	if cur != nil && (cur.UID != pod.UID || cur.Spec.NodeName != pod.Spec.NodeName) {
		s.remove(podsGVR, pod.Namespace, pod.Name)
		cur = nil
	}
	if cur != nil && cur.ResourceVersion == pod.ResourceVersion {
		return
	}
	if cur != nil {
		_ = s.engine.Tracker().Update(podsGVR, pod, pod.Namespace)
		return
	}
	_ = s.engine.Tracker().Create(podsGVR, pod, pod.Namespace)
}

func (s *Session) inScope(pod *v1.Pod) bool {
	return s.opts.Namespace == "" || pod.Namespace == s.opts.Namespace
}

// podChanged applies a pod event from the cluster.
func (s *Session) podChanged(ctx context.Context, old, pod *v1.Pod) {
	if pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed {
		s.remove(podsGVR, pod.Namespace, pod.Name)
		s.forget(pod.UID)
		return
	}
	if pod.Spec.NodeName != "" {
		s.mu.Lock()
		since, mirrored := s.mirrored[pod.UID]
		delete(s.mirrored, pod.UID)
		withheld := s.withheld[pod.UID]
		delete(s.withheld, pod.UID)
		s.mu.Unlock()
		if mirrored || withheld {
			// The cluster's scheduler bound a pod we saw pending.
			s.observe(ctx, pod, since, mirrored)
		}
		s.place(pod)
		return
	}
	// Pending in the cluster.
	if !s.ours(pod) {
		// Another scheduler's pod: mirrored once it is bound, never predicted.
		return
	}
	s.mu.Lock()
	_, mirrored := s.mirrored[pod.UID]
	withheld := s.withheld[pod.UID]
	s.mu.Unlock()
	if unschedulable(pod) && mirrored {
		s.cannotPlace(ctx, pod)
		return
	}
	if withheld {
		return
	}
	if !s.inScope(pod) {
		s.mu.Lock()
		s.withheld[pod.UID] = true
		s.mu.Unlock()
		return
	}
	unlock := s.engine.LockPods()
	defer unlock()
	if cur := s.enginePod(pod.Namespace, pod.Name); cur != nil {
		if cur.UID == pod.UID {
			if cur.Spec.NodeName != "" {
				// The engine bound it; keep that until the cluster decides.
				return
			}
			if cur.ResourceVersion != pod.ResourceVersion {
				_ = s.engine.Tracker().Update(podsGVR, pod, pod.Namespace)
			}
			return
		}
		// A new pod under an old name (seen after a relist): the old one is gone.
		s.remove(podsGVR, cur.Namespace, cur.Name)
		s.forget(cur.UID)
	}
	s.mu.Lock()
	s.mirrored[pod.UID] = time.Now()
	s.mu.Unlock()
	_ = s.engine.Tracker().Create(podsGVR, pod, pod.Namespace)
}

// unschedulable reports whether the cluster's scheduler marked pod Unschedulable.
func unschedulable(pod *v1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse && c.Reason == v1.PodReasonUnschedulable {
			return true
		}
	}
	return false
}

// cannotPlace handles the cluster's scheduler reporting a pod unschedulable:
// the verdict is reported once, and if schedscope had bound the pod it is taken
// out of the mirror, since in the cluster it uses no node.
func (s *Session) cannotPlace(ctx context.Context, pod *v1.Pod) {
	s.mu.Lock()
	since := s.mirrored[pod.UID]
	reported := s.reportedUnsched[pod.UID]
	s.reportedUnsched[pod.UID] = true
	s.mu.Unlock()
	if !reported {
		s.observe(ctx, pod, since, true)
	}
	unlock := s.engine.LockPods()
	defer unlock()
	cur := s.enginePod(pod.Namespace, pod.Name)
	switch {
	case cur != nil && cur.Spec.NodeName != "":
		s.remove(podsGVR, pod.Namespace, pod.Name)
		s.mu.Lock()
		delete(s.mirrored, pod.UID)
		s.withheld[pod.UID] = true
		s.mu.Unlock()
	case cur != nil && cur.UID == pod.UID && cur.ResourceVersion != pod.ResourceVersion:
		// Still pending on both sides: keep the engine's copy current
		// (tolerations added, gates removed, a nomination).
		_ = s.engine.Tracker().Update(podsGVR, pod, pod.Namespace)
	}
}
