package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// runCluster runs a fixture to its end and returns the engine (to read
// the in-memory API server) and the cycles.
func runCluster(t *testing.T, data string) (*Engine, []*recorder.Cycle) {
	t.Helper()
	fx, err := fixture.Load("cluster.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	_, cycles, e := runEngine(t, fx, false)
	return e, cycles
}

func workload(t *testing.T, st *recorder.ClusterState, kind, name string) recorder.WorkloadState {
	t.Helper()
	for _, w := range st.Workloads {
		if w.Kind == kind && w.Name == name {
			return w
		}
	}
	t.Fatalf("no %s %s in %+v", kind, name, st.Workloads)
	return recorder.WorkloadState{}
}

const zonedNodes = `apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {topology.kubernetes.io/zone: a, kubernetes.io/hostname: node-a}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {topology.kubernetes.io/zone: b, kubernetes.io/hostname: node-b}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-c, labels: {topology.kubernetes.io/zone: c, kubernetes.io/hostname: node-c}}
spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
`

// TestWorkloadsMakeTheirPods: each workload kind's controller makes its pods
// as kube-controller-manager does (names, labels, owners), the scheduler
// places them, and the end state says where they went.
func TestWorkloadsMakeTheirPods(t *testing.T) {
	e, cycles := runCluster(t, zonedNodes+`---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}]
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  parallelism: 2
  completions: 5
  completionMode: Indexed
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m}}}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: c, image: agent, resources: {requests: {cpu: 100m}}}]
`)
	st := e.ClusterState()
	web := workload(t, st, "Deployment", "web")
	perNode := map[string]int{}
	for _, p := range web.Pods {
		perNode[p.Node]++
	}
	// Zone c's node is tainted, but its zone still counts as a domain of
	// the spread (nodeTaintsPolicy Ignore): one replica in a, one in b,
	// and two pending that would skew the zones by 2.
	if len(web.Pods) != 4 || perNode["node-a"] != 1 || perNode["node-b"] != 1 || web.Pending() != 2 {
		t.Fatalf("Deployment web: want 1 pod on node-a, 1 on node-b, 2 pending; got %+v", web.Pods)
	}
	for _, c := range cycles {
		if c.Pod.Owner.String() == "Deployment/web" && c.Outcome.Result != recorder.ResultBound && !strings.Contains(c.Outcome.Message, "topology spread") {
			t.Errorf("cycle %d: a pending replica's message names no topology spread: %s", c.Seq, c.Outcome.Message)
		}
	}
	job := workload(t, st, "Job", "batch")
	if len(job.Pods) != 2 {
		t.Errorf("Job batch (parallelism 2): want 2 pods, got %+v", job.Pods)
	}
	agent := workload(t, st, "DaemonSet", "agent")
	if agent.Desired != 2 || len(agent.Pods) != 2 || agent.Pending() != 0 {
		t.Errorf("DaemonSet agent: want 2 pods bound (node-c is tainted), got desired %d, %+v", agent.Desired, agent.Pods)
	}
	pods, err := e.client.CoreV1().Pods("default").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range pods.Items {
		c := metav1.GetControllerOf(&p)
		if c == nil {
			t.Errorf("pod %s has no controller", p.Name)
			continue
		}
		seen[c.Kind] = true
		switch c.Kind {
		case "ReplicaSet":
			h := p.Labels["pod-template-hash"]
			if h == "" || !strings.HasPrefix(p.Name, "web-"+h+"-") || c.Name != "web-"+h {
				t.Errorf("Deployment pod %s (owner %s, hash %q): not named web-<pod-template-hash>-<suffix>", p.Name, c.Name, h)
			}
		case "Job":
			if p.Labels["batch.kubernetes.io/job-completion-index"] == "" || p.Labels["batch.kubernetes.io/job-name"] != "batch" {
				t.Errorf("Job pod %s: labels %v lack the Job controller's", p.Name, p.Labels)
			}
		case "DaemonSet":
			a := p.Spec.Affinity
			if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil ||
				a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0].Values[0] != p.Spec.NodeName {
				t.Errorf("DaemonSet pod %s on %s: no node affinity to its node as the controller writes it: %+v", p.Name, p.Spec.NodeName, a)
			}
		}
		if p.Spec.NodeName != "" && (p.Status.Phase != v1.PodRunning || !ready(&p)) {
			t.Errorf("pod %s: want Running and Ready from the simulated kubelet, got %s %v", p.Name, p.Status.Phase, p.Status.Conditions)
		}
		if p.UID == "" || p.CreationTimestamp.IsZero() {
			t.Errorf("pod %s: no UID or creation time", p.Name)
		}
	}
	for _, k := range []string{"ReplicaSet", "Job", "DaemonSet"} {
		if !seen[k] {
			t.Errorf("no pod owned by a %s", k)
		}
	}
	if len(cycles) < 8 {
		t.Errorf("want a cycle for each of 8 pods (4 + 2 + 2), got %d", len(cycles))
	}
	for _, c := range cycles {
		if c.Pod.Owner == nil {
			t.Errorf("cycle %d (%s) has no owner", c.Seq, c.Pod.Key())
		} else if strings.HasPrefix(c.Pod.Name, "web-") && c.Pod.Owner.String() != "Deployment/web" {
			t.Errorf("cycle %d: owner %s, want Deployment/web", c.Seq, c.Pod.Owner)
		}
	}
}

func ready(p *v1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == v1.PodReady {
			return c.Status == v1.ConditionTrue
		}
	}
	return false
}

// TestStatefulSetClaimsAreProvisionedAndBudgetsComputed: a StatefulSet's
// claims of a WaitForFirstConsumer class are provisioned in the selected
// node's zone and bound by the real binder, its pods come one by one
// (OrderedReady needs each Ready), and the disruption controller computes
// the budget over them.
func TestStatefulSetClaimsAreProvisionedAndBudgetsComputed(t *testing.T) {
	e, cycles := runCluster(t, `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: csi, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
`+zonedNodes+`---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: c, image: postgres, resources: {requests: {cpu: "1"}}}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: db}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: db}}
`)
	st := e.ClusterState()
	db := workload(t, st, "StatefulSet", "db")
	if len(db.Pods) != 3 || db.Pending() != 0 {
		t.Fatalf("StatefulSet db: want 3 pods bound, got %+v", db.Pods)
	}
	for i, name := range []string{"db-0", "db-1", "db-2"} {
		if db.Pods[i].Name != name {
			t.Errorf("StatefulSet pod %d: want %s, got %s", i, name, db.Pods[i].Name)
		}
	}
	// OrderedReady: db-1's cycle comes after db-0 was bound.
	if len(cycles) != 3 || cycles[0].Pod.Name != "db-0" || cycles[1].Pod.Name != "db-1" || cycles[2].Pod.Name != "db-2" {
		t.Errorf("want cycles for db-0, db-1, db-2 in order, got %v", podNames(cycles))
	}
	nodeOf := map[string]string{}
	for _, p := range db.Pods {
		nodeOf[p.Name] = p.Node
	}
	if len(st.Claims) != 3 {
		t.Fatalf("want 3 claims, got %+v", st.Claims)
	}
	for _, c := range st.Claims {
		pod := strings.TrimPrefix(c.Name, "data-")
		if c.Phase != "Bound" || c.Volume == "" || c.SelectedNode != nodeOf[pod] {
			t.Errorf("claim %s: want Bound to a volume, selected node %s; got %+v", c.Name, nodeOf[pod], c)
			continue
		}
		pv, err := e.client.CoreV1().PersistentVolumes().Get(context.Background(), c.Volume, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		zone := strings.TrimPrefix(nodeOf[pod], "node-")
		terms := pv.Spec.NodeAffinity.Required.NodeSelectorTerms
		if len(terms) != 1 || terms[0].MatchExpressions[0].Key != v1.LabelTopologyZone || terms[0].MatchExpressions[0].Values[0] != zone {
			t.Errorf("volume %s: want node affinity to zone %s, got %+v", pv.Name, zone, terms)
		}
		if pv.Spec.Capacity.Storage().String() != "10Gi" || pv.Status.Phase != v1.VolumeBound {
			t.Errorf("volume %s: want 10Gi, Bound; got %s, %s", pv.Name, pv.Spec.Capacity.Storage(), pv.Status.Phase)
		}
	}
	if len(st.Budgets) != 1 {
		t.Fatalf("want 1 budget, got %+v", st.Budgets)
	}
	if b := st.Budgets[0]; b.DisruptionsAllowed != 2 || b.CurrentHealthy != 3 || b.DesiredHealthy != 1 || b.ExpectedPods != 3 {
		t.Errorf("budget db (minAvailable 1 over 3 Ready pods): want 2 allowed, 3 healthy, 1 desired, 3 expected; got %+v", b)
	}
}

func podNames(cs []*recorder.Cycle) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Pod.Name)
	}
	return out
}

// TestTimelineScalesADeployment: a later document replacing a Deployment
// with more replicas is a timeline step; its controller makes the extra
// pods, which the run waits for.
func TestTimelineScalesADeployment(t *testing.T) {
	deploy := func(n int) string {
		return `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: ` + string(rune('0'+n)) + `
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: "1"}}}]
`
	}
	e, cycles := runCluster(t, zonedNodes+deploy(2)+`---
apiVersion: v1
kind: Pod
metadata: {name: loner}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "1"}}}]
`+deploy(5))
	web := workload(t, e.ClusterState(), "Deployment", "web")
	if len(web.Pods) != 5 || web.Pending() != 0 {
		t.Fatalf("Deployment web scaled to 5: got %+v", web.Pods)
	}
	// Two replicas, the pod, then three more.
	names := podNames(cycles)
	if len(names) != 6 || names[2] != "loner" {
		t.Errorf("want 2 replicas, loner, 3 replicas; got %v", names)
	}
}

// TestOwnerReferencesFindTheirOwners: a pod exported with its owner
// reference (another cluster's UID) counts as its ReplicaSet's, whose
// controller makes one more replica, not two.
func TestOwnerReferencesFindTheirOwners(t *testing.T) {
	e, _ := runCluster(t, `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec:
  replicas: 2
  selector: {matchLabels: {app: rs}}
  template:
    metadata: {labels: {app: rs}}
    spec:
      containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata:
  name: rs-abcde
  labels: {app: rs}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: 3f1e1b7e-0000-4000-8000-000000000001, controller: true}]
spec:
  nodeName: n1
  containers: [{name: c, image: nginx}]
`)
	rs := workload(t, e.ClusterState(), "ReplicaSet", "rs")
	if len(rs.Pods) != 2 || rs.Pods[0].Name != "rs-abcde" && rs.Pods[1].Name != "rs-abcde" {
		t.Errorf("ReplicaSet rs (replicas 2, one pod in the fixture): want the fixture's pod and one more, got %+v", rs.Pods)
	}
}

// twoNodes are two nodes of 4 CPUs.
const twoNodes = `apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
`

// TestDeletedOwnerIsCollected: a timeline step deletes a Deployment; the
// garbage collector deletes its ReplicaSet and, in turn, its pods, and a
// later Deployment that needs their room is placed. A pod whose owner the
// fixture does not hold is kept (its owner is taken to exist outside it).
func TestDeletedOwnerIsCollected(t *testing.T) {
	e, cycles := runCluster(t, twoNodes+`---
apiVersion: v1
kind: Pod
metadata:
  name: copied
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: elsewhere-5d8f9, uid: 6c1f7a52-0000-4000-8000-000000000001, controller: true}]
spec:
  nodeName: node-a
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: old}
spec:
  replicas: 4
  selector: {matchLabels: {app: old}}
  template:
    metadata: {labels: {app: old}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 1500m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: marker}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: old, annotations: {schedscope.io/delete: "true"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: new}
spec:
  replicas: 4
  selector: {matchLabels: {app: new}}
  template:
    metadata: {labels: {app: new}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 1500m}}}]
`)
	ctx := context.Background()
	rss, err := e.client.AppsV1().ReplicaSets("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range rss.Items {
		if strings.HasPrefix(rs.Name, "old-") {
			t.Errorf("ReplicaSet %s of the deleted Deployment old is still there", rs.Name)
		}
	}
	pods, err := e.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kept, placed := false, 0
	for _, p := range pods.Items {
		switch {
		case strings.HasPrefix(p.Name, "old-"):
			t.Errorf("pod %s of the deleted Deployment old is still there", p.Name)
		case p.Name == "copied":
			kept = true
		case strings.HasPrefix(p.Name, "new-") && p.Spec.NodeName != "":
			placed++
		}
	}
	if !kept {
		t.Error("the pod whose owner the fixture does not hold was deleted")
	}
	if placed != 4 {
		t.Errorf("want the 4 replicas of Deployment new placed in the room old's pods left, got %d", placed)
	}
	bound := 0
	for _, c := range cycles {
		if c.Pod.Owner.String() == "Deployment/old" && c.Outcome.Result == recorder.ResultBound {
			bound++
		}
	}
	if bound != 4 {
		t.Errorf("want Deployment old's 4 replicas bound before it was deleted, got %d", bound)
	}
}

// TestKubeletStartsThousandsOfBoundPods: a snapshot of a cluster whose pods
// are bound but not started (its kubelets had not run them, as on a control
// plane without nodes) has the simulated kubelet start them all at once:
// thousands of status writes, each an event for every pod watch. The run
// once died there ("channel full").
func TestKubeletStartsThousandsOfBoundPods(t *testing.T) {
	const bound = 3000
	e, cycles := runCluster(t, fmt.Sprintf(`apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
status: {allocatable: {cpu: "1000", memory: 4Ti, pods: "5000"}}
---
apiVersion: v1
kind: Pod
metadata: {name: bound, namespace: default, annotations: {schedscope.io/replicas: "%d"}}
spec:
  nodeName: node-a
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
status: {phase: Pending}
---
apiVersion: v1
kind: Pod
metadata: {name: late, namespace: default}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
`, bound))
	if len(cycles) != 1 || cycles[0].Outcome.Result != recorder.ResultBound {
		t.Fatalf("want one cycle binding pod late, got %d cycles", len(cycles))
	}
	pods, err := e.client.CoreV1().Pods("default").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	running := 0
	for _, p := range pods.Items {
		if p.Status.Phase == v1.PodRunning {
			running++
		}
	}
	if running != bound+1 {
		t.Errorf("%d of %d pods running, want all", running, bound+1)
	}
}
