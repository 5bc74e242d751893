package engine

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// Result is the state of the cluster after a run.
type Result struct {
	// Bindings maps namespace/name of each pending pod to its node ("" if unscheduled).
	Bindings map[string]string
	// Cycles counts recorded cycles.
	Cycles int
}

// Run starts the scheduler and feeds it the fixture's pending pods one at a time,
// each after the scheduler has settled on the previous one. It returns once the
// last pod has settled.
func (e *Engine) Run(ctx context.Context) (*Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	podInformer := e.sched.Profiles[firstProfile(e)].SharedInformerFactory().Core().V1().Pods().Informer()
	if _, err := podInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj interface{}) {
			if p, ok := obj.(*v1.Pod); ok && p.Spec.NodeName != "" {
				e.settled(p.UID)
			}
		},
	}); err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		e.sched.Run(ctx)
		close(done)
	}()
	defer func() {
		cancel()
		<-done
	}()
	for _, p := range e.fixture.Pending {
		if _, err := e.client.CoreV1().Pods(p.Namespace).Create(ctx, p.DeepCopy(), metav1.CreateOptions{}); err != nil {
			return nil, fmt.Errorf("creating pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		if err := e.waitSettled(ctx, podInformer); err != nil {
			return nil, fmt.Errorf("after pod %s/%s arrived: %w", p.Namespace, p.Name, err)
		}
		e.flushPending("")
	}
	res := &Result{Bindings: map[string]string{}}
	for _, p := range e.fixture.Pending {
		got, err := e.client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			res.Bindings[p.Namespace+"/"+p.Name] = ""
			continue
		}
		res.Bindings[p.Namespace+"/"+p.Name] = got.Spec.NodeName
	}
	e.mu.Lock()
	res.Cycles = e.emitted
	e.mu.Unlock()
	return res, nil
}

func firstProfile(e *Engine) string {
	for n := range e.sched.Profiles {
		return n
	}
	return ""
}
