package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

// helmLike is what a rendered chart holds: a Deployment whose replicas
// share a claim of a WaitForFirstConsumer class, a Service, a budget and a
// ConfigMap.
const helmLike = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a, topology.kubernetes.io/zone: a}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b, topology.kubernetes.io/zone: b}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-config}
data: {LOG_LEVEL: info}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80}]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: web-data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 20Gi}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        resources: {requests: {cpu: 500m, memory: 256Mi}}
        volumeMounts: [{name: data, mountPath: /data}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: web-data}}]
`

// TestExplainRunsAChartsWorkloads gives explain what a rendered chart holds:
// every replica is made and placed (on the node the claim's volume was
// provisioned for), the claim is bound, the budget computed, the
// ConfigMap reported as ignored; --pod deploy/web tells the Deployment's
// story alone.
func TestExplainRunsAChartsWorkloads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chart.yaml")
	if err := os.WriteFile(path, []byte(helmLike), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "explain", "-f", path, "-o", "json")
	if code != 0 {
		t.Fatalf("explain: exit %d: %s", code, errOut)
	}
	var doc struct {
		Warnings []string `json:"warnings"`
		Cycles   []struct {
			Seq int             `json:"seq"`
			Pod recorder.PodRef `json:"pod"`
		} `json:"cycles"`
		Cluster *recorder.ClusterState `json:"cluster"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Warnings) != 1 || !strings.Contains(doc.Warnings[0], "ConfigMap default/web-config: not read") {
		t.Errorf("want one warning, the ConfigMap's; got %q", doc.Warnings)
	}
	if doc.Cluster == nil || len(doc.Cluster.Workloads) != 1 {
		t.Fatalf("want the Deployment in the end state, got %+v", doc.Cluster)
	}
	web := doc.Cluster.Workloads[0]
	if web.Kind != "Deployment" || web.Name != "web" || web.Desired != 3 || len(web.Pods) != 3 || web.Pending() != 0 {
		t.Fatalf("Deployment web: want 3 replicas placed, got %+v", web)
	}
	claims := doc.Cluster.Claims
	if len(claims) != 1 || claims[0].Phase != "Bound" || claims[0].Volume == "" || claims[0].SelectedNode == "" {
		t.Fatalf("claim web-data: want Bound with a selected node, got %+v", claims)
	}
	for _, p := range web.Pods {
		if p.Node != claims[0].SelectedNode {
			t.Errorf("replica %s on %s: its volume was provisioned for %s", p.Name, p.Node, claims[0].SelectedNode)
		}
	}
	if b := doc.Cluster.Budgets; len(b) != 1 || b[0].DisruptionsAllowed != 2 {
		t.Errorf("budget web (minAvailable 1 over 3): want 2 disruptions allowed, got %+v", b)
	}
	for _, c := range doc.Cycles {
		if c.Pod.Owner == nil || c.Pod.Owner.Kind != "Deployment" || c.Pod.Owner.Name != "web" {
			t.Errorf("cycle %d of %s: owner %v, want Deployment/web", c.Seq, c.Pod.Key(), c.Pod.Owner)
		}
	}

	out, errOut, code = run(t, "explain", "-f", path, "--pod", "deploy/web")
	if code != 0 {
		t.Fatalf("explain --pod deploy/web: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "Deployment default/web: 3 of 3 pod(s) placed") || strings.Contains(out, "PodDisruptionBudget") {
		t.Errorf("explain --pod deploy/web: want the Deployment's line alone at the end, got:\n%s", out)
	}
	_, errOut, code = run(t, "explain", "-f", path, "--pod", "sts/web")
	if code != 1 || !strings.Contains(errOut, "no StatefulSet default/web") || !strings.Contains(errOut, "Deployment/web") {
		t.Errorf("explain --pod sts/web: want exit 1 naming the workloads there are, got %d: %s", code, errOut)
	}
}

// TestCapacityCommand asks how many more replicas of the workloads
// fixture's Deployment fit: the answer names the count and the message of
// the replica left, and a workload without a scale is refused in one line.
func TestCapacityCommand(t *testing.T) {
	out, errOut, code := run(t, "capacity", "-f", "budgets", "deploy/guarded")
	if code != 0 {
		t.Fatalf("capacity: exit %d: %s", code, errOut)
	}
	// Node a holds the two guarded replicas (900m of 2 CPUs each): none more fits.
	if !strings.Contains(out, "asks for 2, 2 placed") || !strings.Contains(out, "0 more fit (2 in all); replica 3 stays pending: 0/2 nodes are available") {
		t.Errorf("capacity of deploy/guarded:\n%s", out)
	}
	// Then suggest's search on replica 3's own cycle: a smaller request fits.
	if !strings.Contains(out, "what would let replica 3 (pod guarded-") || !strings.Contains(out, "1. lower container c's cpu request from 900m to 200m (what a has free) → lands on a") {
		t.Errorf("capacity of deploy/guarded: want suggest's changes for replica 3:\n%s", out)
	}
	out, errOut, code = run(t, "capacity", "-f", "budgets", "deploy/guarded", "--suggest=false", "-o", "json")
	if code != 0 || strings.Contains(out, `"next"`) || !strings.Contains(out, `"stopped"`) {
		t.Errorf("capacity --suggest=false -o json: want no suggestion search, got exit %d: %s%s", code, out, errOut)
	}
	_, errOut, code = run(t, "capacity", "-f", "workloads", "ds/agent")
	if code != 1 || !strings.Contains(errOut, "a DaemonSet has no scale") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("capacity of a DaemonSet: want one error line, got exit %d: %q", code, errOut)
	}
	_, errOut, code = run(t, "capacity", "-f", "workloads", "web")
	if code != 1 || !strings.Contains(errOut, "KIND/NAME") {
		t.Errorf("capacity web: want an error asking for KIND/NAME, got exit %d: %q", code, errOut)
	}
}

// TestCapacityMin: --min N is a CI gate: it passes when N replicas fit in
// all, and otherwise exits 1 after the answer, with how many fit and what
// stopped the next one on one line; -o json is gated the same way.
func TestCapacityMin(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		code    int
		wantErr string
		wantOut string
		oneLine bool
	}{
		{"enough", []string{"--min", "2"}, 0, "", "0 more fit (2 in all)", false},
		{"too few", []string{"--min", "3"}, 1, "--min 3: 2 replica(s) of Deployment default/guarded fit; replica 3 stays pending: 0/2 nodes are available", "0 more fit (2 in all)", true},
		{"too few, json", []string{"--min", "5", "-o", "json"}, 1, "--min 5: 2 replica(s)", `"placed": 2`, true},
		{"negative", []string{"--min", "-1"}, 1, "--min must be 0 or more", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"capacity", "-f", "budgets", "deploy/guarded", "--suggest=false"}, tc.args...)
			out, errOut, code := run(t, args...)
			if code != tc.code || !strings.Contains(errOut, tc.wantErr) || !strings.Contains(out, tc.wantOut) {
				t.Errorf("capacity %v: exit %d (want %d)\nstdout: %s\nstderr: %s", tc.args, code, tc.code, out, errOut)
			}
			if tc.oneLine && strings.Count(errOut, "\n") != 1 {
				t.Errorf("capacity %v: want the reason on one line, got %q", tc.args, errOut)
			}
		})
	}
}

// TestWhatIfScale scales the budgets fixture's guarded Deployment up by one:
// the run as written places both replicas; the scaled one leaves the third
// pending for want of CPU on its node. --scale takes no other change.
func TestWhatIfScale(t *testing.T) {
	out, errOut, code := run(t, "whatif", "-f", "budgets", "--scale", "deploy/guarded=3")
	if code != 0 {
		t.Fatalf("whatif --scale: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"what-if: Deployment default/guarded asks for 3 instead of 2",
		"before: Deployment default/guarded: 2 of 2 pod(s) placed (a ×2)",
		"after : Deployment default/guarded: 2 of 3 pod(s) placed (a ×2); 1 pending",
		"1 pending: 0/2 nodes are available: 1 Insufficient cpu",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("whatif --scale: no %q in:\n%s", want, out)
		}
	}
	_, errOut, code = run(t, "whatif", "-f", "budgets", "--scale", "deploy/guarded=3", "--evict", "default/x")
	if code != 1 || !strings.Contains(errOut, "--scale re-runs the whole fixture") {
		t.Errorf("--scale with a change: want one error line, got exit %d: %q", code, errOut)
	}
}

// TestRecordCountsControllersPods: record's summary counts every pod that got
// a cycle, the pods the controllers made included.
func TestRecordCountsControllersPods(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.rec")
	_, errOut, code := run(t, "record", "-f", "workloads", "-o", out)
	if code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "wrote 11 cycles to "+out+": 11 pods through the scheduler (11 bound, 0 not) in") {
		t.Errorf("record -f workloads (6 + 3 + 2 pods, all made by controllers): %s", errOut)
	}
	// An unschedulable pod is counted, and not as bound.
	_, errOut, code = run(t, "record", "-o", filepath.Join(t.TempDir(), "d.rec"))
	if code != 0 || !strings.Contains(errOut, ": 4 pods through the scheduler (3 bound, 1 not) in") {
		t.Errorf("record of the default fixture: exit %d: %s", code, errOut)
	}
}
