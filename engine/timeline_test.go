package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
)

// Documents for timeline tests; each starts with "---".
func nodeDoc(name, extra string) string {
	return fmt.Sprintf("---\napiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: {kubernetes.io/hostname: %s%s}}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"10\"}}\n", name, name, extra)
}

func podDoc(name, spec string) string {
	return fmt.Sprintf("---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n  containers: [{name: c, image: i}]\n%s", name, spec)
}

func deleteDoc(kind, name string) string {
	return fmt.Sprintf("---\napiVersion: v1\nkind: %s\nmetadata: {name: %s, annotations: {schedscope.io/delete: \"true\"}}\n", kind, name)
}

func TestLoadTimeline(t *testing.T) {
	data := nodeDoc("n1", "") + // content on line 2
		podDoc("first", "") + // line 7
		nodeDoc("n2", "") + // line 13
		"---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {kubernetes.io/hostname: n1, disk: ssd}}\nspec:\n  taints: [{key: k, value: v, effect: NoSchedule}]\n" + // line 18
		podDoc("second", "") + // line 24
		deleteDoc("Node", "n2") + // line 30
		podDoc("running", "  nodeName: n1\n") // line 34: a bound pod is initial
	fx, err := LoadFixture("t.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	var initial []string
	for _, o := range fx.Objects {
		m, _ := metaOf(o)
		initial = append(initial, kindName(o)+"/"+m.Name)
	}
	wantInitial := []string{"Node/n1", "Pod/running", "PriorityClass/system-node-critical", "PriorityClass/system-cluster-critical"}
	if diff := cmp.Diff(wantInitial, initial); diff != "" {
		t.Errorf("initial objects (-want +got):\n%s", diff)
	}
	var pending []string
	for _, p := range fx.Pending {
		pending = append(pending, p.Name)
	}
	if diff := cmp.Diff([]string{"first", "second"}, pending); diff != "" {
		t.Errorf("pending pods (-want +got):\n%s", diff)
	}
	type step struct {
		What   string
		After  int
		Source string
	}
	var got []step
	for _, s := range fx.Steps {
		got = append(got, step{s.String(), s.After, s.Source})
	}
	want := []step{
		{`create Node "n2"`, 1, "t.yaml:13"},
		{`replace Node "n1"`, 1, "t.yaml:18"},
		{`delete Node "n2"`, 2, "t.yaml:30"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	replaced := fx.Steps[1].Object.(*v1.Node)
	first := fx.Objects[0].(*v1.Node)
	if replaced.UID != first.UID || replaced.Labels["disk"] != "ssd" || len(replaced.Spec.Taints) != 1 {
		t.Errorf("replacement: uid %q (want %q), labels %v, taints %v", replaced.UID, first.UID, replaced.Labels, replaced.Spec.Taints)
	}
	// The replacement states no status: an update keeps the node's.
	if q := replaced.Status.Allocatable[v1.ResourceCPU]; q.String() != "4" {
		t.Errorf("replacement lost the node's status: allocatable cpu %q", q.String())
	}
	if len(first.Spec.Taints) != 0 || first.Labels["disk"] != "" {
		t.Errorf("the replacement changed the initial node: %v %v", first.Labels, first.Spec.Taints)
	}
}

// TestTimelineAdmission checks that each later document is admitted on the
// cluster as it stands at its point: a pod sees a PriorityClass created
// before it, not one created after.
func TestTimelineAdmission(t *testing.T) {
	gold := "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: gold}\nvalue: 1000\n"
	fx, err := LoadFixture("t.yaml", []byte(nodeDoc("n1", "")+podDoc("a", "")+gold+podDoc("b", "  priorityClassName: gold\n")))
	if err != nil {
		t.Fatal(err)
	}
	if p := fx.Pending[1]; p.Spec.Priority == nil || *p.Spec.Priority != 1000 {
		t.Errorf("pod b: priority %v, want 1000 from gold created before it", p.Spec.Priority)
	}
	if _, ok := fx.Steps[0].Object.(*schedulingv1.PriorityClass); !ok || fx.Steps[0].After != 1 {
		t.Errorf("step %v after %d, want gold created after pod a", fx.Steps[0], fx.Steps[0].After)
	}
	_, err = LoadFixture("t.yaml", []byte(nodeDoc("n1", "")+podDoc("b", "  priorityClassName: gold\n")+gold))
	if err == nil || !strings.Contains(err.Error(), "t.yaml:7: ") || !strings.Contains(err.Error(), "no PriorityClass with name gold was found") {
		t.Errorf("a pod before its PriorityClass: got %v", err)
	}
}

func TestLoadTimelineErrors(t *testing.T) {
	start := nodeDoc("n1", "") + podDoc("p", "") // lines 1-11; the next document's content is on line 13
	tests := []struct {
		name string
		data string
		want string
	}{
		{"delete of a missing object", start + deleteDoc("Node", "n9"),
			`bad.yaml:13: Node "n9": schedscope.io/delete: there is no Node "n9" at this point of the fixture`},
		{"delete twice", start + nodeDoc("n2", "") + deleteDoc("Node", "n2") + deleteDoc("Node", "n2"),
			`bad.yaml:22: Node "n2": schedscope.io/delete: there is no Node "n2" at this point`},
		{"delete before its create", start + deleteDoc("Node", "n2") + nodeDoc("n2", ""),
			`bad.yaml:13: Node "n2": schedscope.io/delete: there is no Node "n2"`},
		{"delete with a spec", start + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, annotations: {schedscope.io/delete: \"true\"}}\nspec: {unschedulable: true}\n",
			`bad.yaml:13: Node "n1": a deletion (schedscope.io/delete) names the object only, by kind, metadata.name and metadata.namespace; remove spec`},
		{"delete with labels", start + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {a: b}, annotations: {schedscope.io/delete: \"true\"}}\n",
			`bad.yaml:13: Node "n1": a deletion (schedscope.io/delete) names the object only, by kind, metadata.name and metadata.namespace; remove metadata.labels`},
		{"delete in the initial cluster", nodeDoc("n1", "") + deleteDoc("Node", "n1") + podDoc("p", ""),
			`bad.yaml:7: Node "n1": metadata.annotations[schedscope.io/delete]: a deletion must follow a pending pod`},
		{"delete not true", start + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, annotations: {schedscope.io/delete: \"yes\"}}\n",
			`bad.yaml:13: Node "n1": metadata.annotations[schedscope.io/delete]: want "true", got "yes"`},
		{"misspelt annotation", start + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, annotations: {schedscope.io/deleted: \"true\"}}\n",
			`bad.yaml:13: Node "n1": metadata.annotations[schedscope.io/deleted]: unknown schedscope annotation`},
		{"replace a pod", start + podDoc("p", "  tolerations: [{operator: Exists}]\n"),
			`bad.yaml:13: Pod "default/p" already exists: a pod's spec cannot be changed once created`},
		{"replace a bound pod", nodeDoc("n1", "") + podDoc("run", "  nodeName: n1\n") + podDoc("p", "") + podDoc("run", ""),
			`bad.yaml:20: Pod "default/run" already exists`},
		{"replace a kind that cannot be", "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n" + start + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {a: b}\n",
			`bad.yaml:17: ConfigMap "default/cm" cannot be replaced by a later document (kinds that can be: CSIDriver, `},
		{"replace refused by the update path", "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: gold}\nvalue: 10\n" + start +
			"---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: gold}\nvalue: 20\n",
			`bad.yaml:18: PriorityClass "gold" is invalid: value: Forbidden: may not be changed in an update`},
		{"replace with an invalid taint", start + "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  taints: [{key: k, effect: Sometimes}]\n",
			`bad.yaml:13: Node "n1" is invalid: metadata.taints[0].effect: Unsupported value: "Sometimes"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadFixture("bad.yaml", []byte(tt.data))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line containing %q", err, tt.want)
			}
		})
	}
}
