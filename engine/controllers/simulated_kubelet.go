package controllers

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientset "k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	"k8s.io/utils/ptr"
)

// The simulated kubelet stands for every node's kubelet, as far as what the
// scheduler and the controllers see of it: a pod bound to a node starts at
// once and is Ready (Running, every container started and ready, readiness
// probes passing at once), written through the status path. It runs until
// it is deleted: a Job's pods never complete. A pod whose status a fixture states (a Ready
// condition, or a finished phase) is left as it is. Deleted pods are the
// engine's (a preemption victim's graceful termination).
type kubelet struct {
	client clientset.Interface
	pods   corelisters.PodLister
	queue  *countedQueue
}

func newKubelet(deps Deps) (*kubelet, error) {
	inf := deps.Informers.Core().V1().Pods()
	k := &kubelet{
		client: deps.Client,
		pods:   inf.Lister(),
		queue: newCountedQueue("simulated kubelet", workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "simulated_kubelet"}), deps.Changed),
	}
	enqueue := func(obj any) {
		if p, ok := obj.(*v1.Pod); ok && toStart(p) {
			if key, err := cache.MetaNamespaceKeyFunc(p); err == nil {
				k.queue.Add(key)
			}
		}
	}
	if _, err := inf.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
	}); err != nil {
		return nil, err
	}
	return k, nil
}

// toStart says whether the kubelet would start p: bound, not deleted, not
// finished, and not yet Ready or stated not Ready.
func toStart(p *v1.Pod) bool {
	if p.Spec.NodeName == "" || p.DeletionTimestamp != nil {
		return false
	}
	if p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == v1.PodReady {
			return false
		}
	}
	return true
}

func (k *kubelet) run(ctx context.Context) { work(ctx, k.queue, k.start) }

// start writes the status of a started, Ready pod.
func (k *kubelet) start(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	p, err := k.pods.Pods(ns).Get(name)
	if apierrors.IsNotFound(err) || err == nil && !toStart(p) {
		return nil
	}
	if err != nil {
		return err
	}
	p = p.DeepCopy()
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	p.Status.Phase = v1.PodRunning
	p.Status.StartTime = &now
	for _, t := range []v1.PodConditionType{v1.PodReadyToStartContainers, v1.PodInitialized, v1.ContainersReady, v1.PodReady} {
		podutil.UpdatePodCondition(&p.Status, &v1.PodCondition{Type: t, Status: v1.ConditionTrue, LastTransitionTime: now})
	}
	p.Status.ContainerStatuses = nil
	for _, c := range p.Spec.Containers {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, v1.ContainerStatus{
			Name: c.Name, Image: c.Image, Ready: true, Started: ptr.To(true),
			State: v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: now}},
		})
	}
	_, err = k.client.CoreV1().Pods(ns).UpdateStatus(ctx, p, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
