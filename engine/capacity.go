package engine

import (
	"context"
	"fmt"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// CapacityResult says how many more replicas of a workload fit, as
// recorder's plain data.
type CapacityResult = recorder.CapacityResult

// maxCapacityProbe bounds how many extra replicas a capacity search tries.
const maxCapacityProbe = 4096

// Capacity finds how many more replicas of the workload kind namespace/name
// fit: it runs the fixture with the workload scaled up, 1, 2, 4, ... more,
// until a run leaves a replica pending, and counts what that run placed.
// Each run is the whole fixture from the start, with the real scheduler and
// controllers; nothing is computed by arithmetic.
func Capacity(ctx context.Context, fx *fixture.Fixture, opts Options, kind, namespace, name string) (*CapacityResult, error) {
	at, err := workloadAt(fx, kind, namespace, name)
	if err != nil {
		return nil, err
	}
	replicas, err := scaleOf(fx.Objects[at])
	if err != nil {
		return nil, err
	}
	res := &CapacityResult{Kind: kind, Namespace: namespace, Name: name, Replicas: replicas}
	probe := func(n int) (placed int, stopped string, err error) {
		res.Runs = append(res.Runs, n)
		run, err := runScaled(ctx, fx, opts, at, kind, namespace, name, n)
		if err != nil {
			return 0, "", err
		}
		if len(run.Pending) > 0 {
			stopped = run.Pending[0].Message
		}
		return len(run.Workload.Pods) - run.Workload.Pending(), stopped, nil
	}
	placed, stopped, err := probe(replicas)
	if err != nil {
		return nil, err
	}
	res.Placed = placed
	if placed < replicas {
		res.Stopped = stopped
		return res, nil
	}
	for k := 1; ; k *= 2 {
		if k > maxCapacityProbe {
			res.Limit = maxCapacityProbe
			return res, nil
		}
		got, stopped, err := probe(replicas + k)
		if err != nil {
			return nil, err
		}
		if got < replicas+k {
			res.More, res.Stopped = got-replicas, stopped
			return res, nil
		}
		res.More = k
	}
}

// A ScaledRun is where a workload's pods went in a run of a fixture, as
// recorder's plain data; a PendingGroup, the pods left pending with one
// message.
type (
	ScaledRun    = recorder.ScaledRun
	PendingGroup = recorder.PendingGroup
)

// RunScaled runs fx with the workload kind namespace/name asking for n pods
// (its replicas, or a Job's parallelism); n < 0 runs it as written.
func RunScaled(ctx context.Context, fx *fixture.Fixture, opts Options, kind, namespace, name string, n int) (*ScaledRun, error) {
	at, err := workloadAt(fx, kind, namespace, name)
	if err != nil {
		return nil, err
	}
	return runScaled(ctx, fx, opts, at, kind, namespace, name, n)
}

// workloadAt finds the workload among the objects fx starts with.
func workloadAt(fx *fixture.Fixture, kind, namespace, name string) (int, error) {
	var there []recorder.PodHandle
	for i, o := range fx.Objects {
		m, err := fixture.ObjectMeta(o)
		if err != nil {
			continue
		}
		if k := fixture.KindName(o); k != kind {
			there = append(there, recorder.PodHandle{Kind: k, Namespace: m.Namespace, Name: m.Name})
			continue
		}
		if m.Name == name && m.Namespace == namespace {
			return i, nil
		}
		there = append(there, recorder.PodHandle{Kind: kind, Namespace: m.Namespace, Name: m.Name})
	}
	return -1, fmt.Errorf("%s has no %s %s/%s among the objects it starts with%s", fx.Name, kind, namespace, name,
		recorder.DidYouMeanWorkload(recorder.PodHandle{Kind: kind, Namespace: namespace, Name: name}, there))
}

// scaledFixture is fx with its workload at index at asking for n pods
// (n < 0: as written).
func scaledFixture(fx *fixture.Fixture, at, n int) (*fixture.Fixture, error) {
	scaled := *fx
	if n >= 0 {
		scaled.Objects = append([]runtime.Object(nil), fx.Objects...)
		obj := fx.Objects[at].DeepCopyObject()
		if err := setScale(obj, n); err != nil {
			return nil, err
		}
		scaled.Objects[at] = obj
	}
	return &scaled, nil
}

// NextReplica forks at the last cycle of the replica that did not fit in
// the capacity search res: the fixture run with the workload asking for
// one more than fit, its pods made by its controller, and the last cycle
// of one of its pods, which the scheduler found Unschedulable. Suggest
// on the fork searches what would let that replica fit.
func NextReplica(ctx context.Context, fx *fixture.Fixture, opts Options, res *CapacityResult) (*Fork, error) {
	if res.Stopped == "" {
		return nil, fmt.Errorf("no replica of %s %s/%s was left pending: the search stopped at %d more", res.Kind, res.Namespace, res.Name, res.Limit)
	}
	at, err := workloadAt(fx, res.Kind, res.Namespace, res.Name)
	if err != nil {
		return nil, err
	}
	n := res.Replicas + res.More + 1
	if res.Placed < res.Replicas {
		n = res.Replicas
	}
	scaled, err := scaledFixture(fx, at, n)
	if err != nil {
		return nil, err
	}
	owned := func(p *v1.Pod) bool {
		c := metav1.GetControllerOf(p)
		if c == nil || p.Namespace != res.Namespace {
			return false
		}
		if res.Kind == "Deployment" {
			// The Deployment's ReplicaSet, <name>-<pod-template-hash>.
			h := p.Labels[appsv1.DefaultDeploymentUniqueLabelKey]
			return c.Kind == "ReplicaSet" && h != "" && c.Name == res.Name+"-"+h
		}
		return c.Kind == res.Kind && c.Name == res.Name
	}
	forks, err := forks(ctx, scaled, opts, func(_ int, p *v1.Pod) bool { return owned(p) }, -1, false)
	if err != nil {
		return nil, err
	}
	if len(forks) == 0 || forks[0].Recorded.Outcome.Result != recorder.ResultUnschedulable {
		return nil, fmt.Errorf("the run of %s with %s %s/%s at %d found no replica left pending in its last cycle", fx.Name, res.Kind, res.Namespace, res.Name, n)
	}
	return forks[0], nil
}

func runScaled(ctx context.Context, fx *fixture.Fixture, opts Options, at int, kind, namespace, name string, n int) (*ScaledRun, error) {
	scaledp, err := scaledFixture(fx, at, n)
	if err != nil {
		return nil, err
	}
	scaled := *scaledp
	replicas, err := scaleOf(scaled.Objects[at])
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	last := map[string]*recorder.Cycle{}
	o := opts
	o.OnCycle = func(c *recorder.Cycle) {
		mu.Lock()
		if p := last[c.Pod.Key()]; p == nil || p.Seq < c.Seq {
			last[c.Pod.Key()] = c
		}
		mu.Unlock()
	}
	o.OnQueue = nil
	e, err := New(ctx, &scaled, o)
	if err != nil {
		return nil, err
	}
	if _, err := e.Run(ctx); err != nil {
		return nil, err
	}
	mu.Lock()
	defer mu.Unlock()
	for _, w := range e.ClusterState().Workloads {
		if w.Kind != kind || w.Namespace != namespace || w.Name != name {
			continue
		}
		run := &ScaledRun{Replicas: replicas, Workload: w, Pending: []PendingGroup{}}
		group := map[string]int{}
		for _, p := range w.Pods {
			if p.Node != "" {
				continue
			}
			msg := "(no cycle yet)"
			if c := last[w.Namespace+"/"+p.Name]; c != nil && c.Outcome.Result == recorder.ResultUnschedulable {
				msg = c.Outcome.Message
			}
			i, ok := group[msg]
			if !ok {
				i = len(run.Pending)
				group[msg] = i
				run.Pending = append(run.Pending, PendingGroup{Message: msg})
			}
			run.Pending[i].Pods = append(run.Pending[i].Pods, p.Name)
		}
		return run, nil
	}
	return nil, fmt.Errorf("the run of %s has no %s %s/%s", fx.Name, kind, namespace, name)
}

// scaleOf is how many pods a workload asks for at once.
func scaleOf(o runtime.Object) (int, error) {
	one := func(r *int32) int {
		if r == nil {
			return 1
		}
		return int(*r)
	}
	switch w := o.(type) {
	case *appsv1.Deployment:
		return one(w.Spec.Replicas), nil
	case *appsv1.ReplicaSet:
		return one(w.Spec.Replicas), nil
	case *appsv1.StatefulSet:
		return one(w.Spec.Replicas), nil
	case *v1.ReplicationController:
		return one(w.Spec.Replicas), nil
	case *batchv1.Job:
		return one(w.Spec.Parallelism), nil
	}
	return 0, fmt.Errorf("a %s has no scale (Deployments, ReplicaSets, StatefulSets, ReplicationControllers and Jobs do)", fixture.KindName(o))
}

// setScale makes a workload ask for n pods at once: its replicas, or a
// Job's parallelism (and completions, if fewer).
func setScale(o runtime.Object, n int) error {
	v := int32(n)
	switch w := o.(type) {
	case *appsv1.Deployment:
		w.Spec.Replicas = &v
	case *appsv1.ReplicaSet:
		w.Spec.Replicas = &v
	case *appsv1.StatefulSet:
		w.Spec.Replicas = &v
	case *v1.ReplicationController:
		w.Spec.Replicas = &v
	case *batchv1.Job:
		w.Spec.Parallelism = &v
		if w.Spec.Completions != nil && *w.Spec.Completions < v {
			w.Spec.Completions = &v
		}
	default:
		_, err := scaleOf(o)
		return err
	}
	return nil
}
