package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine/fixture"
	v1 "k8s.io/api/core/v1"
)

func TestLoadFixtureErrors(t *testing.T) {
	node := "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"1\", pods: \"10\"}}\n"
	tests := []struct {
		name string
		data string
		want string
	}{
		{"malformed yaml", node + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p\n", "bad.yaml:8: malformed YAML: did not find expected"},
		{"unknown field", node + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containerz: []\n", `bad.yaml:6: Pod: strict decoding error: unknown field "spec.containerz"`},
		{"unknown kind", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n", "bad.yaml:1: unsupported kind example.com/v1 Widget"},
		{"missing kind", "metadata: {name: w}\n", "bad.yaml:1: document has no apiVersion or kind"},
		{"missing priority class", node + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: gold\n  containers: [{name: c, image: i}]\n", `pods "p" is forbidden: no PriorityClass with name gold was found`},
		{"bad replicas", "apiVersion: v1\nkind: Node\nmetadata: {name: node-x, annotations: {schedscope.io/replicas: lots}}\n", `bad.yaml:1: metadata.annotations[schedscope.io/replicas] of "node-x": want a whole number`},
		{"duplicate", node + "---\n" + node, `bad.yaml:6: Node "n1" is defined twice (first as object 1)`},
		{"empty", "# nothing here\n---\n# still nothing\n", "bad.yaml: the fixture holds no objects"},
		{"negative request", node + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i, resources: {requests: {cpu: \"-1\"}}}]\n",
			`bad.yaml:6: Pod "p" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0`},
		{"invalid name", node + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: Bad_Name!}\nspec:\n  containers: [{name: c, image: i}]\n",
			`bad.yaml:6: Pod "Bad_Name!" is invalid: metadata.name: Invalid value: "Bad_Name!"`},
		{"invalid node name", "apiVersion: v1\nkind: Node\nmetadata: {name: Node_1}\n", `bad.yaml:1: Node "Node_1" is invalid: metadata.name`},
		{"bound to a missing node", node + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeName: n2\n  containers: [{name: c, image: i}]\n",
			`bad.yaml:6: pod default/p: spec.nodeName: node "n2" is not in the fixture`},
		{"missing image", node + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n",
			`bad.yaml:6: Pod "p" is invalid: spec.containers[0].image: Required value`},
		{"invalid priority class", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: gold}\nvalue: 2000000001\n",
			`bad.yaml:1: PriorityClass "gold" is invalid: value`},
		{"replicas over the whole fixture", "apiVersion: v1\nkind: Node\nmetadata: {name: a, annotations: {schedscope.io/replicas: \"60000\"}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b, annotations: {schedscope.io/replicas: \"60000\"}}\n",
			`bad.yaml:5: metadata.annotations[schedscope.io/replicas] of "b": 60000 copies would make the fixture more than 100000 objects`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fixture.Load("bad.yaml", []byte(tt.data))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line containing %q", err, tt.want)
			}
		})
	}
}

func TestAdmissionDefaults(t *testing.T) {
	data := `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: normal}
value: 1000
globalDefault: true
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: nginx}]
`
	fx, err := fixture.Load("ok.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(fx.Pending) != 1 {
		t.Fatalf("want 1 pending pod, got %d", len(fx.Pending))
	}
	p := fx.Pending[0]
	if p.Namespace != "default" || p.Spec.SchedulerName != v1.DefaultSchedulerName || p.UID == "" {
		t.Errorf("namespace %q schedulerName %q uid %q", p.Namespace, p.Spec.SchedulerName, p.UID)
	}
	if p.Spec.Priority == nil || *p.Spec.Priority != 1000 || p.Spec.PriorityClassName != "normal" {
		t.Errorf("priority %v class %q, want 1000 from the global default", p.Spec.Priority, p.Spec.PriorityClassName)
	}
	var keys []string
	for _, tol := range p.Spec.Tolerations {
		keys = append(keys, tol.Key)
	}
	if strings.Join(keys, ",") != v1.TaintNodeNotReady+","+v1.TaintNodeUnreachable {
		t.Errorf("tolerations %v, want the not-ready and unreachable defaults", keys)
	}
	if p.Spec.Containers[0].ImagePullPolicy != v1.PullAlways || p.Spec.RestartPolicy != v1.RestartPolicyAlways {
		t.Errorf("pod defaults not applied: %+v", p.Spec)
	}
}

func TestLoadConfigFileErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, data, want string
	}{
		{"unknown field", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelizm: 4\n", `unknown field "parallelizm"`},
		{"invalid value", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelism: -1\n", "parallelism"},
		{"wrong kind", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n", "a Pod (v1), not a KubeSchedulerConfiguration"},
		{"not yaml", "{{{", "not YAML or JSON"},
		{"no kind", "parallelism: 4\n", "not a KubeSchedulerConfiguration: it needs apiVersion"},
		{"empty", "", "not a KubeSchedulerConfiguration: it needs apiVersion"},
		{"old version", "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n", "does not read apiVersion kubescheduler.config.k8s.io/v1beta3; use kubescheduler.config.k8s.io/v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "config.yaml")
			if err := os.WriteFile(path, []byte(tt.data), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := LoadConfigFile(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "config.yaml") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line naming the file and containing %q", err, tt.want)
			}
		})
	}
}

func TestMultipleProfiles(t *testing.T) {
	cfgPath := filepath.Join(t.TempDir(), "config.yaml")
	cfg := `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: bin-packer
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
`
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfigFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	data := embedded(t, "resources-fit.yaml")
	packed := strings.Replace(string(data), "metadata: {name: small, namespace: default}\nspec:\n", "metadata: {name: small, namespace: default}\nspec:\n  schedulerName: bin-packer\n", 1)
	res, cycles := runFixture(t, "packed", []byte(packed), Options{Config: c})
	if res.Bindings["default/small"] != "node-big" {
		t.Errorf("MostAllocated should pack small onto the fullest node node-big, got %q", res.Bindings["default/small"])
	}
	if cycles[0].Profile != "bin-packer" {
		t.Errorf("cycle profile %q", cycles[0].Profile)
	}
	for _, c := range cycles {
		checkInvariants(t, c)
	}
}

// TestInputFilesAreBounded reads endless inputs: each must fail with one line
// once past its size bound, not read until memory runs out.
func TestInputFilesAreBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	_, err := fixture.LoadFile("/dev/zero")
	if err == nil || !strings.Contains(err.Error(), "/dev/zero: larger than 64 MiB: too big for a fixture") {
		t.Errorf("fixture /dev/zero: got %v", err)
	}
	_, err = LoadConfigFile("/dev/zero")
	if err == nil || !strings.Contains(err.Error(), "/dev/zero: larger than 4 MiB: too big for a scheduler configuration") {
		t.Errorf("config /dev/zero: got %v", err)
	}
}
