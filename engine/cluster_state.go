package engine

import (
	"cmp"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	storagehelpers "k8s.io/component-helpers/storage/volume"

	"github.com/schedscope/schedscope/recorder"
)

// ClusterState reads what the controllers left in the in-memory API server:
// each workload with its pods (a Deployment's through its ReplicaSets),
// each disruption budget's status, each claim's phase. Nil in live mode.
func (e *Engine) ClusterState() *recorder.ClusterState {
	if e.ctrls == nil {
		return nil
	}
	st := &recorder.ClusterState{Workloads: []recorder.WorkloadState{}, Budgets: []recorder.BudgetState{}, Claims: []recorder.ClaimState{}}
	list := e.listSorted
	at := map[string]int{} // kind/namespace/name → index in Workloads
	add := func(kind string, m metav1.ObjectMeta, desired int32) {
		at[kind+"/"+m.Namespace+"/"+m.Name] = len(st.Workloads)
		st.Workloads = append(st.Workloads, recorder.WorkloadState{Kind: kind, Namespace: m.Namespace, Name: m.Name, Desired: desired, Pods: []recorder.WorkloadPod{}})
	}
	replicas := func(r *int32) int32 {
		if r == nil {
			return 1
		}
		return *r
	}
	for _, o := range list(appsv1.SchemeGroupVersion.WithResource("deployments")) {
		d := o.(*appsv1.Deployment)
		add("Deployment", d.ObjectMeta, replicas(d.Spec.Replicas))
	}
	for _, o := range list(appsv1.SchemeGroupVersion.WithResource("replicasets")) {
		if rs := o.(*appsv1.ReplicaSet); metav1.GetControllerOf(rs) == nil {
			add("ReplicaSet", rs.ObjectMeta, replicas(rs.Spec.Replicas))
		}
	}
	for _, o := range list(appsv1.SchemeGroupVersion.WithResource("statefulsets")) {
		s := o.(*appsv1.StatefulSet)
		add("StatefulSet", s.ObjectMeta, replicas(s.Spec.Replicas))
	}
	for _, o := range list(appsv1.SchemeGroupVersion.WithResource("daemonsets")) {
		d := o.(*appsv1.DaemonSet)
		add("DaemonSet", d.ObjectMeta, d.Status.DesiredNumberScheduled)
	}
	for _, o := range list(batchv1.SchemeGroupVersion.WithResource("jobs")) {
		j := o.(*batchv1.Job)
		add("Job", j.ObjectMeta, replicas(j.Spec.Parallelism))
	}
	for _, o := range list(v1.SchemeGroupVersion.WithResource("replicationcontrollers")) {
		rc := o.(*v1.ReplicationController)
		add("ReplicationController", rc.ObjectMeta, replicas(rc.Spec.Replicas))
	}
	for _, o := range list(v1.SchemeGroupVersion.WithResource("pods")) {
		p := o.(*v1.Pod)
		ref := e.withOwner(recorder.PodRef{}, p)
		if ref.Owner == nil {
			continue
		}
		if i, ok := at[ref.Owner.Kind+"/"+p.Namespace+"/"+ref.Owner.Name]; ok {
			st.Workloads[i].Pods = append(st.Workloads[i].Pods, recorder.WorkloadPod{Name: p.Name, Node: p.Spec.NodeName})
		}
	}
	for i := range st.Workloads {
		slices.SortFunc(st.Workloads[i].Pods, func(a, b recorder.WorkloadPod) int { return cmp.Compare(a.Name, b.Name) })
	}
	for _, o := range list(policyv1.SchemeGroupVersion.WithResource("poddisruptionbudgets")) {
		b := o.(*policyv1.PodDisruptionBudget)
		bs := recorder.BudgetState{Namespace: b.Namespace, Name: b.Name,
			DisruptionsAllowed: b.Status.DisruptionsAllowed, CurrentHealthy: b.Status.CurrentHealthy,
			DesiredHealthy: b.Status.DesiredHealthy, ExpectedPods: b.Status.ExpectedPods}
		if c := meta.FindStatusCondition(b.Status.Conditions, policyv1.DisruptionAllowedCondition); c != nil && c.Reason == policyv1.SyncFailedReason {
			bs.Error = c.Message
		}
		st.Budgets = append(st.Budgets, bs)
	}
	for _, o := range list(v1.SchemeGroupVersion.WithResource("persistentvolumeclaims")) {
		c := o.(*v1.PersistentVolumeClaim)
		st.Claims = append(st.Claims, recorder.ClaimState{Namespace: c.Namespace, Name: c.Name, Phase: string(c.Status.Phase),
			Volume: c.Spec.VolumeName, StorageClass: storagehelpers.GetPersistentVolumeClaimClass(c),
			SelectedNode: c.Annotations[storagehelpers.AnnSelectedNode]})
	}
	return st
}

// listSorted reads one kind from the in-memory API server, ordered by
// namespace and name. The objects are the stored ones: read them, copy
// one before changing it.
func (e *Engine) listSorted(gvr schema.GroupVersionResource) []runtime.Object {
	items, _ := e.store.sorted(gvr, "")
	return items
}
