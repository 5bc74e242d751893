package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/registry/core/pod"
)

// In a cluster a preemption victim does not vanish when the scheduler deletes
// it: the API server sets its deletionTimestamp, the kubelet stops it within
// terminationGracePeriodSeconds (30 by default), and only then is it removed.
// Meanwhile it still holds its room on the node, the preemptor stays
// nominated (DefaultPreemption does not preempt again while a victim
// terminates on the nominated node), and lower-priority pods see the
// nominated pod's room as taken. A fixture run does the same on its simulated
// clock: the scheduler's delete of a victim is the API server's graceful
// delete (rest.BeforeDelete with the pod strategy decides whether and for how
// long), and the victim is removed once the grace period has passed on the
// queue's clock, as its kubelet would finish it. A run waiting for nothing
// else skips the clock to that moment (see waitSettled).

// terminations holds the victims being terminated, until their grace period
// ends.
type terminations struct {
	mu      sync.Mutex
	pods    map[types.UID]time.Time // deletion deadline on the run's clock
	changes *changes
}

func newTerminations(c *changes) *terminations {
	return &terminations{pods: map[types.UID]time.Time{}, changes: c}
}

func (t *terminations) add(uid types.UID, deadline time.Time) {
	t.mu.Lock()
	t.pods[uid] = deadline
	t.mu.Unlock()
	t.changes.kick()
}

func (t *terminations) done(uid types.UID) {
	t.mu.Lock()
	delete(t.pods, uid)
	t.mu.Unlock()
	t.changes.kick()
}

// count says how many victims are still terminating.
func (t *terminations) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.pods)
}

const victimsTerminating = "preemption victim(s) terminating"

// terminate starts the graceful deletion of the bound pod namespace/name as
// the API server would, and removes the pod once its grace period has passed
// on the run's clock. It reports false, and changes nothing, when the API
// server would delete the pod at once (no grace period, not bound, already
// finished); the caller then deletes it.
func (e *Engine) terminate(ctx context.Context, namespace, name string, opts metav1.DeleteOptions) (bool, error) {
	e.trackerMu.Lock()
	obj, err := e.store.Get(v1.SchemeGroupVersion.WithResource("pods"), namespace, name)
	if err != nil {
		e.trackerMu.Unlock()
		return false, nil // the delete reports it
	}
	p, ok := obj.(*v1.Pod)
	if !ok || p.DeletionTimestamp != nil {
		e.trackerMu.Unlock()
		return false, nil
	}
	p = p.DeepCopy()
	graceful, err := beforeDelete(p, &opts, e.clock.Skipped())
	if err != nil || !graceful {
		e.trackerMu.Unlock()
		return false, err
	}
	// Counted as terminating before the deletionTimestamp is written: once
	// the scheduler sees it, the preemption counts as done
	// (Executor.IsPodRunningPreemption), and a settling run must see the
	// victim's grace period instead.
	e.terminating.add(p.UID, p.DeletionTimestamp.Time)
	_, err = e.client.CoreV1().Pods(namespace).Update(ctx, p, metav1.UpdateOptions{})
	e.trackerMu.Unlock()
	if err != nil {
		e.terminating.done(p.UID)
		return false, err
	}
	grace := time.Duration(*p.DeletionGracePeriodSeconds) * time.Second
	timer := e.clock.NewTimer(grace)
	go func() {
		defer e.terminating.done(p.UID)
		select {
		case <-timer.C():
		case <-e.stopped:
			timer.Stop()
			return
		}
		// As the kubelet confirms a pod has stopped: delete it for good.
		zero := int64(0)
		_ = e.client.CoreV1().Pods(namespace).Delete(context.Background(), name,
			metav1.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: metav1.NewUIDPreconditions(string(p.UID))})
	}()
	return true, nil
}

// beforeDelete runs the API server's delete path (rest.BeforeDelete with the
// pod registry strategy, which picks the grace period from the options or
// the pod's spec, or none for a pod that is not bound or has finished) on an
// internal copy of p, and on a graceful delete sets p's deletionTimestamp,
// deletionGracePeriodSeconds and generation as the API server would write
// them. skipped is how far the run's clock is ahead of the wall clock.
func beforeDelete(p *v1.Pod, opts *metav1.DeleteOptions, skipped time.Duration) (bool, error) {
	internal, err := legacyscheme.Scheme.New(v1.SchemeGroupVersion.WithKind("Pod").GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return false, err
	}
	if err := legacyscheme.Scheme.Convert(p, internal, nil); err != nil {
		return false, fmt.Errorf("pod %s/%s: %v", p.Namespace, p.Name, err)
	}
	ctx := genericapirequest.WithNamespace(context.Background(), p.Namespace)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: "delete",
		APIVersion: "v1", Resource: "pods", Namespace: p.Namespace, Name: p.Name})
	graceful, _, err := rest.BeforeDelete(pod.Strategy, ctx, internal, opts)
	if err != nil || !graceful {
		return false, err
	}
	m, err := metaOf(internal)
	if err != nil {
		return false, err
	}
	at := metav1.NewTime(m.DeletionTimestamp.Add(skipped))
	p.DeletionTimestamp = &at
	p.DeletionGracePeriodSeconds = m.DeletionGracePeriodSeconds
	p.Generation = m.Generation
	return *m.DeletionGracePeriodSeconds > 0, nil
}
