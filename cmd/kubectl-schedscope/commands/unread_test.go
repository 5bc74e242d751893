package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/fixtures"
)

const unreadNode = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
`

const unreadPod = `---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers: [{name: c, image: nginx}]
`

// chartKinds are objects of the kinds a Helm chart or a kubectl get dump
// holds beside its workloads: RBAC, webhooks, policies, a definition and
// its custom resource, a StatefulSet with its headless Service, and a
// kind nothing defines.
const chartKinds = `---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: reader}
subjects: [{kind: ServiceAccount, name: web, namespace: default}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: r, namespace: default}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: r, namespace: default}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
subjects: [{kind: ServiceAccount, name: web}]
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: web, namespace: default}
---
apiVersion: v1
kind: Secret
metadata: {name: s, namespace: default}
stringData: {a: b}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: m}
webhooks:
- name: m.example.com
  clientConfig: {service: {name: hook, namespace: default}}
  admissionReviewVersions: [v1]
  sideEffects: None
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: v.example.com
  clientConfig: {service: {name: hook, namespace: default}}
  admissionReviewVersions: [v1]
  sideEffects: None
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: np, namespace: default}
spec: {podSelector: {}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: default}
spec:
  rules:
  - http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: web}
  maxReplicas: 3
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: servicemonitors.monitoring.coreos.com}
spec:
  group: monitoring.coreos.com
  names: {kind: ServiceMonitor, plural: servicemonitors}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: web, namespace: default}
spec: {endpoints: [{port: http}]}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  clusterIP: None
  selector: {app: web}
  ports: [{name: http, port: 80}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: default}
spec:
  serviceName: web
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: default}
data: {a: b}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
`

func workload(kind, apiVersion, name string) string {
	spec := `  replicas: 2
  selector: {matchLabels: {app: ` + name + `}}
  template:
    metadata: {labels: {app: ` + name + `}}
    spec:
      containers: [{name: c, image: nginx}]
`
	if kind == "Job" {
		spec = `  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
`
	}
	return "---\napiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata: {name: " + name + ", namespace: default}\nspec:\n" + spec
}

// TestExplainNamesWhatNothingReads gives explain fixtures holding objects
// the run does not act on: each kind is named once, with the file:line of
// its first object, in the text output and the JSON export's warnings; the
// workloads and budgets the run's controllers act on are not, nor a
// workload whose pods the fixture holds (as a snapshot's). Every kind a
// chart holds loads; a kind nothing defines is named as skipped; the
// pending pods are scheduled all the same.
func TestExplainNamesWhatNothingReads(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		docs string
		want []string
	}{
		{
			name: "a Deployment and a ConfigMap",
			docs: unreadNode + workload("Deployment", "apps/v1", "web") + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: default}\ndata: {a: b}\n" + unreadPod,
			want: []string{
				"F:17: ConfigMap default/cfg: not read by the scheduler, admission or any controller a run has; ignored",
			},
		},
		{
			name: "a ReplicaSet, a Job and a budget the controllers run; two Secrets, a CronJob",
			docs: unreadNode + workload("ReplicaSet", "apps/v1", "rs") + workload("Job", "batch/v1", "j") +
				"---\napiVersion: v1\nkind: Secret\nmetadata: {name: s1, namespace: default}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s2, namespace: default}\n" +
				"---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: pdb, namespace: default}\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: rs}}\n" +
				"---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: nightly, namespace: default}\nspec:\n  schedule: \"0 3 * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{name: c, image: busybox}]\n" + unreadPod,
			want: []string{
				"F:26: Secret default/s1 and 1 more: not read by the scheduler, admission or any controller a run has; ignored",
				"F:41: CronJob default/nightly: none of its pods is scheduled: schedscope runs no CronJob controller to make them; list its pods as Pods, or snapshot a cluster that runs it",
			},
		},
		{
			name: "the kinds of a chart",
			docs: unreadNode + chartKinds + unreadPod,
			want: []string{
				"F:119: unknown kind example.com/v1 Widget: neither built in nor defined by a CustomResourceDefinition in the fixture; skipped",
				"F:6: ClusterRole reader: not read by the scheduler, admission or any controller a run has; ignored",
				"F:11: ClusterRoleBinding reader: not read by the scheduler, admission or any controller a run has; ignored",
				"F:17: Role default/r: not read by the scheduler, admission or any controller a run has; ignored",
				"F:22: RoleBinding default/r: not read by the scheduler, admission or any controller a run has; ignored",
				"F:28: ServiceAccount default/web: not read by the scheduler, admission or any controller a run has; ignored",
				"F:32: Secret default/s: not read by the scheduler, admission or any controller a run has; ignored",
				"F:37: MutatingWebhookConfiguration m: not read by the scheduler, admission or any controller a run has; ignored",
				"F:46: ValidatingWebhookConfiguration v: not read by the scheduler, admission or any controller a run has; ignored",
				"F:55: NetworkPolicy default/np: not read by the scheduler, admission or any controller a run has; ignored",
				"F:60: Ingress default/web: not read by the scheduler, admission or any controller a run has; ignored",
				"F:69: HorizontalPodAutoscaler default/web: not read by the scheduler, admission or any controller a run has; ignored",
				"F:76: CustomResourceDefinition servicemonitors.monitoring.coreos.com: not read by the scheduler, admission or any controller a run has; ignored",
				"F:89: ServiceMonitor default/web: not read by the scheduler, admission or any controller a run has; ignored",
				"F:114: ConfigMap default/cfg: not read by the scheduler, admission or any controller a run has; ignored",
			},
		},
		{
			name: "a ReplicaSet whose pod the fixture holds",
			docs: unreadNode + workload("ReplicaSet", "apps/v1", "rs") + `---
apiVersion: v1
kind: Pod
metadata:
  name: rs-abcde
  namespace: default
  labels: {app: rs}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: 3f1e1b7e-0000-4000-8000-000000000001, controller: true}]
spec:
  containers: [{name: c, image: nginx}]
`,
			want: nil,
		},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, string(rune('a'+i))+".yaml")
			if err := os.WriteFile(path, []byte(tt.docs), 0o600); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, strings.Replace(w, "F:", path+":", 1))
			}
			out, errOut, code := run(t, "explain", "-f", path)
			if code != 0 {
				t.Fatalf("explain: exit %d: %s", code, errOut)
			}
			var got []string
			results := 0
			for _, l := range strings.Split(out, "\n") {
				if w, ok := strings.CutPrefix(l, "warning: "); ok {
					got = append(got, w)
				}
				if r, ok := strings.CutPrefix(l, "result: "); ok {
					results++
					if !strings.HasPrefix(r, "bound to") {
						t.Errorf("a pod was not scheduled: %s", l)
					}
				}
			}
			if results == 0 {
				t.Errorf("no pod was scheduled:\n%s", out)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("text warnings (-want +got):\n%s", diff)
			}
			out, errOut, code = run(t, "explain", "-f", path, "-o", "json")
			if code != 0 {
				t.Fatalf("explain -o json: exit %d: %s", code, errOut)
			}
			var doc struct {
				Warnings []string `json:"warnings"`
				Problems []string `json:"problems"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, doc.Warnings); diff != "" {
				t.Errorf("JSON warnings (-want +got):\n%s", diff)
			}
			if len(doc.Problems) != 0 {
				t.Errorf("JSON problems %q, want none", doc.Problems)
			}
		})
	}
}

// TestEmbeddedFixturesUseEveryObject: the embedded fixtures hold nothing a
// run leaves unused.
func TestEmbeddedFixturesUseEveryObject(t *testing.T) {
	for _, name := range fixtures.Names() {
		out, errOut, code := run(t, "explain", "-f", name)
		if code != 0 {
			t.Fatalf("explain -f %s: exit %d: %s", name, code, errOut)
		}
		if strings.Contains(out, "not read by the scheduler") || strings.Contains(out, "none of its pods is scheduled") {
			t.Errorf("%s leaves objects unused:\n%s", name, out)
		}
	}
}
