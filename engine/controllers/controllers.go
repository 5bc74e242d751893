package controllers

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	scalefake "k8s.io/client-go/scale/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/controller/daemon"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"k8s.io/kubernetes/pkg/controller/disruption"
	"k8s.io/kubernetes/pkg/controller/job"
	"k8s.io/kubernetes/pkg/controller/podgc"
	"k8s.io/kubernetes/pkg/controller/replicaset"
	"k8s.io/kubernetes/pkg/controller/replication"
	"k8s.io/kubernetes/pkg/controller/statefulset"
	"k8s.io/kubernetes/pkg/controller/volume/persistentvolume"
)

// Which chooses the parts of a cluster a run has beside the scheduler.
type Which int

const (
	// DeploymentController is the Deployment controller.
	DeploymentController Which = 1 << iota
	// ReplicaSetController is the ReplicaSet controller.
	ReplicaSetController
	// ReplicationManager is the ReplicationController manager.
	ReplicationManager
	// StatefulSetController is the StatefulSet controller.
	StatefulSetController
	// JobController is the Job controller.
	JobController
	// DaemonSetController is the DaemonSet controller.
	DaemonSetController
	// DisruptionController is the disruption controller.
	DisruptionController
	// PodGC is pod garbage collection.
	PodGC
	// VolumeBinder is the persistent-volume binder.
	VolumeBinder
	// Provisioner is the simulated provisioner.
	Provisioner
	// Kubelet is the simulated kubelet.
	Kubelet
	// GarbageCollector is the garbage collector.
	GarbageCollector

	// Workloads are the controllers that make pods and keep their
	// budgets: Deployment, ReplicaSet, ReplicationController, StatefulSet,
	// Job, DaemonSet, disruption, and pod garbage collection.
	Workloads = DeploymentController | ReplicaSetController | ReplicationManager | StatefulSetController |
		JobController | DaemonSetController | DisruptionController | PodGC
	// Volumes are the binder and the provisioner.
	Volumes = VolumeBinder | Provisioner
	// All is a fixture run's cluster.
	All = Workloads | GarbageCollector | Volumes | Kubelet
)

// syncs names the kinds whose objects each workload controller syncs;
// a controller without one of them in a run has nothing to do there. A
// Deployment's ReplicaSets need the ReplicaSet controller.
var syncs = map[Which][]string{
	DeploymentController:  {"Deployment"},
	ReplicaSetController:  {"ReplicaSet", "Deployment"},
	ReplicationManager:    {"ReplicationController"},
	StatefulSetController: {"StatefulSet"},
	JobController:         {"Job"},
	DaemonSetController:   {"DaemonSet"},
	DisruptionController:  {"PodDisruptionBudget"},
}

// WorkloadsFor returns the workload controllers a run whose objects (at
// the start and in its timeline) are of the kinds has work for: each
// controller that syncs one of them, and pod garbage collection always.
// The others would only look up, for each of a snapshot's pods, an owner
// or a budget that cannot exist: at 40 000 pods that was a second of a
// question's CPU, and it changes nothing the scheduler is given.
func WorkloadsFor(kinds map[string]bool) Which {
	w := PodGC
	for c, ks := range syncs {
		for _, k := range ks {
			if kinds[k] {
				w |= c
			}
		}
	}
	return w
}

// Deps is what the controllers run on: the in-memory API server's client,
// the run's informer factory (whose handlers the run counts), and the
// function that wakes a run waiting to settle.
type Deps struct {
	Client    clientset.Interface
	Informers informers.SharedInformerFactory
	Changed   func()
	Run       Which
	// Outside are the owners the fixture's objects name but do not hold,
	// by OwnerKey, with the UID their references carry: the garbage
	// collector takes them to exist outside the fixture.
	Outside map[string]types.UID
}

// A Part is one thing that runs beside the scheduler.
type Part struct {
	Name string
	// Upstream is the package the part runs, or "" for a simulated part
	// (simulated_*.go says what it does).
	Upstream string
	Which    Which
}

// Parts lists what a fixture run has beside the scheduler, in the order
// the README lists them.
var Parts = []Part{
	{Name: "Deployment controller", Upstream: "k8s.io/kubernetes/pkg/controller/deployment", Which: DeploymentController},
	{Name: "ReplicaSet controller", Upstream: "k8s.io/kubernetes/pkg/controller/replicaset", Which: ReplicaSetController},
	{Name: "ReplicationController manager", Upstream: "k8s.io/kubernetes/pkg/controller/replication", Which: ReplicationManager},
	{Name: "StatefulSet controller", Upstream: "k8s.io/kubernetes/pkg/controller/statefulset", Which: StatefulSetController},
	{Name: "Job controller", Upstream: "k8s.io/kubernetes/pkg/controller/job", Which: JobController},
	{Name: "DaemonSet controller", Upstream: "k8s.io/kubernetes/pkg/controller/daemon", Which: DaemonSetController},
	{Name: "disruption controller", Upstream: "k8s.io/kubernetes/pkg/controller/disruption", Which: DisruptionController},
	{Name: "pod garbage collector", Upstream: "k8s.io/kubernetes/pkg/controller/podgc", Which: PodGC},
	{Name: "garbage collector", Upstream: "k8s.io/kubernetes/pkg/controller/garbagecollector", Which: GarbageCollector},
	{Name: "persistent-volume binder", Upstream: "k8s.io/kubernetes/pkg/controller/volume/persistentvolume", Which: VolumeBinder},
	{Name: "simulated provisioner", Which: Provisioner},
	{Name: "simulated kubelet", Which: Kubelet},
}

// kube-controller-manager's defaults (pkg/controller/*/config/v1alpha1):
// workers per controller, the binder's resync period.
const (
	deploymentWorkers  = 5
	replicaSetWorkers  = 5
	rcWorkers          = 5
	statefulSetWorkers = 5
	jobWorkers         = 5
	daemonSetWorkers   = 2
	disruptionWorkers  = 1
	pvSyncPeriod       = 15 * time.Second
	terminatedPodGC    = 12500
)

// Pod garbage collection looks for pods on deleted nodes this often, and
// waits this long before it deletes them (kube-controller-manager: 20 s
// and 40 s, on the wall clock; a run has no time to lose).
const (
	podGCPeriod     = 100 * time.Millisecond
	podGCQuarantine = 10 * time.Millisecond
)

// A Set is the controllers of one run.
type Set struct {
	runs   []func(ctx context.Context)
	queues []*countedQueue

	pods  cache.SharedIndexInformer
	nodes cache.SharedIndexInformer
	// nodeDeleted is set when a node is deleted and cleared once no pod
	// is left on a deleted node (pod garbage collection's work).
	nodeDeleted atomic.Bool
	garbage     *garbage

	wg sync.WaitGroup
}

// New constructs the chosen controllers over deps, as kube-controller-manager
// constructs them; nothing runs until Run.
func New(ctx context.Context, deps Deps) (*Set, error) {
	s := &Set{}
	f, c := deps.Informers, deps.Client
	count := func(name string, ctrl any) error {
		qs, err := countQueues(name, ctrl, deps.Changed)
		s.queues = append(s.queues, qs...)
		return err
	}
	if deps.Run&DeploymentController != 0 {
		dc, err := deployment.NewDeploymentController(ctx, f.Apps().V1().Deployments(), f.Apps().V1().ReplicaSets(), f.Core().V1().Pods(), c)
		if err != nil {
			return nil, fmt.Errorf("deployment controller: %w", err)
		}
		if err := count("deployment", dc); err != nil {
			return nil, err
		}
		s.runs = append(s.runs, func(ctx context.Context) { dc.Run(ctx, deploymentWorkers) })
	}
	if deps.Run&ReplicaSetController != 0 {
		rsc := replicaset.NewReplicaSetController(ctx, f.Apps().V1().ReplicaSets(), f.Core().V1().Pods(), c, replicaset.BurstReplicas)
		if err := count("replicaset", rsc); err != nil {
			return nil, err
		}
		s.runs = append(s.runs, func(ctx context.Context) { rsc.Run(ctx, replicaSetWorkers) })
	}
	if deps.Run&ReplicationManager != 0 {
		rm := replication.NewReplicationManager(ctx, f.Core().V1().Pods(), f.Core().V1().ReplicationControllers(), c, replication.BurstReplicas)
		if err := count("replicationcontroller", rm); err != nil {
			return nil, err
		}
		s.runs = append(s.runs, func(ctx context.Context) { rm.Run(ctx, rcWorkers) })
	}
	if deps.Run&StatefulSetController != 0 {
		ssc := statefulset.NewStatefulSetController(ctx, f.Core().V1().Pods(), f.Apps().V1().StatefulSets(),
			f.Core().V1().PersistentVolumeClaims(), f.Apps().V1().ControllerRevisions(), c)
		if err := count("statefulset", ssc); err != nil {
			return nil, err
		}
		s.runs = append(s.runs, func(ctx context.Context) { ssc.Run(ctx, statefulSetWorkers) })
	}
	if deps.Run&JobController != 0 {
		jc, err := job.NewController(ctx, c, f.Core().V1().Pods(), f.Batch().V1().Jobs(), nil, nil)
		if err != nil {
			return nil, fmt.Errorf("job controller: %w", err)
		}
		if err := count("job", jc); err != nil {
			return nil, err
		}
		s.runs = append(s.runs, func(ctx context.Context) { jc.Run(ctx, jobWorkers) })
	}
	if deps.Run&DaemonSetController != 0 {
		dsc, err := daemon.NewDaemonSetsController(ctx, f.Apps().V1().DaemonSets(), f.Apps().V1().ControllerRevisions(),
			f.Core().V1().Pods(), f.Core().V1().Nodes(), c, flowcontrol.NewBackOff(1*time.Second, 15*time.Minute))
		if err != nil {
			return nil, fmt.Errorf("daemonset controller: %w", err)
		}
		if err := count("daemonset", dsc); err != nil {
			return nil, err
		}
		s.runs = append(s.runs, func(ctx context.Context) { dsc.Run(ctx, daemonSetWorkers) })
	}
	if deps.Run&DisruptionController != 0 {
		dis := disruption.NewDisruptionController(ctx, f.Core().V1().Pods(), f.Policy().V1().PodDisruptionBudgets(),
			f.Core().V1().ReplicationControllers(), f.Apps().V1().ReplicaSets(), f.Apps().V1().Deployments(),
			f.Apps().V1().StatefulSets(), c, testrestmapper.TestOnlyStaticRESTMapper(legacyscheme.Scheme),
			&scalefake.FakeScaleClient{}, c.Discovery())
		if err := count("disruption", dis); err != nil {
			return nil, err
		}
		s.runs = append(s.runs, func(ctx context.Context) { dis.Run(ctx, disruptionWorkers) })
	}
	if deps.Run&PodGC != 0 {
		gc := podgc.NewPodGCInternal(ctx, c, f.Core().V1().Pods(), f.Core().V1().Nodes(), terminatedPodGC, podGCPeriod, podGCQuarantine)
		s.runs = append(s.runs, gc.Run)
		s.pods, s.nodes = f.Core().V1().Pods().Informer(), f.Core().V1().Nodes().Informer()
		if _, err := s.nodes.AddEventHandler(cache.ResourceEventHandlerFuncs{
			DeleteFunc: func(any) { s.nodeDeleted.Store(true); deps.Changed() },
		}); err != nil {
			return nil, err
		}
	}
	if deps.Run&GarbageCollector != 0 {
		g, err := newGarbage(ctx, deps)
		if err != nil {
			return nil, err
		}
		s.garbage = g
		s.runs = append(s.runs, s.garbage.run)
	}
	if deps.Run&VolumeBinder != 0 {
		pv, err := persistentvolume.NewController(ctx, persistentvolume.ControllerParameters{
			KubeClient:                c,
			SyncPeriod:                pvSyncPeriod,
			VolumeInformer:            f.Core().V1().PersistentVolumes(),
			ClaimInformer:             f.Core().V1().PersistentVolumeClaims(),
			ClassInformer:             f.Storage().V1().StorageClasses(),
			PodInformer:               f.Core().V1().Pods(),
			NodeInformer:              f.Core().V1().Nodes(),
			EnableDynamicProvisioning: true,
		})
		if err != nil {
			return nil, fmt.Errorf("persistent-volume binder: %w", err)
		}
		if err := count("persistentvolume-binder", pv); err != nil {
			return nil, err
		}
		s.runs = append(s.runs, pv.Run)
	}
	if deps.Run&Provisioner != 0 {
		p, err := newProvisioner(deps)
		if err != nil {
			return nil, err
		}
		s.queues = append(s.queues, p.queue)
		s.runs = append(s.runs, p.run)
	}
	if deps.Run&Kubelet != 0 {
		k, err := newKubelet(deps)
		if err != nil {
			return nil, err
		}
		s.queues = append(s.queues, k.queue)
		s.runs = append(s.runs, k.run)
	}
	return s, nil
}

// Run starts the controllers; they stop when ctx ends, and Wait waits for them.
func (s *Set) Run(ctx context.Context) {
	for _, run := range s.runs {
		s.wg.Go(func() { run(ctx) })
	}
}

// Wait waits until every controller has stopped.
func (s *Set) Wait() { s.wg.Wait() }

// Busy says what work a controller still has, or "" when none has any: an
// object queued or being synced, one due again soon, or a pod left on a
// deleted node for pod garbage collection.
func (s *Set) Busy() string {
	if s == nil {
		return ""
	}
	now := time.Now()
	var why []string
	for _, q := range s.queues {
		if b := q.busy(now); b != "" {
			why = append(why, b)
		}
	}
	if len(why) > 0 {
		return strings.Join(why, ", ")
	}
	if b := s.garbage.busy(); b != "" {
		return b
	}
	if s.nodeDeleted.Load() {
		if n := s.orphans(); n > 0 {
			return fmt.Sprintf("pod garbage collection: %d pod(s) on deleted nodes", n)
		}
		s.nodeDeleted.Store(false)
	}
	return ""
}

// orphans counts the pods bound to a node that no longer exists and not yet
// finished, which pod garbage collection deletes.
func (s *Set) orphans() int {
	n := 0
	for _, o := range s.pods.GetStore().List() {
		p, ok := o.(*v1.Pod)
		if !ok || p.Spec.NodeName == "" || p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
			continue
		}
		if _, exists, _ := s.nodes.GetStore().GetByKey(p.Spec.NodeName); !exists {
			n++
		}
	}
	return n
}
