package engine

import (
	"fmt"
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedscope/schedscope/engine/fixture"
)

// eventLog is a handler that writes down what it is told.
type eventLog struct{ got []string }

func (l *eventLog) OnAdd(obj interface{}, _ bool) { l.got = append(l.got, "add "+podLine(obj)) }
func (l *eventLog) OnUpdate(_, obj interface{})   { l.got = append(l.got, "update "+podLine(obj)) }
func (l *eventLog) OnDelete(obj interface{})      { l.got = append(l.got, "delete "+podLine(obj)) }

func podLine(obj interface{}) string {
	p := obj.(*v1.Pod)
	return fmt.Sprintf("%s %s@%s", p.Name, p.Status.Phase, p.ResourceVersion)
}

// The scheduler's handlers see pods as a watch with kube-scheduler's field
// selector (status.phase!=Succeeded,status.phase!=Failed) sees them: a
// finished pod never arrives, and one that finishes is deleted.
func TestSchedulerSeesUnfinishedPods(t *testing.T) {
	pod := func(name string, phase v1.PodPhase, rv string) *v1.Pod {
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: rv}, Status: v1.PodStatus{Phase: phase}}
	}
	l := &eventLog{}
	v := countingInformer{unfinished: true}.view(l)
	v.OnAdd(pod("done", v1.PodSucceeded, "1"), true)
	v.OnAdd(pod("web", v1.PodRunning, "2"), true)
	v.OnUpdate(pod("web", v1.PodRunning, "2"), pod("web", v1.PodRunning, "3"))
	v.OnUpdate(pod("web", v1.PodRunning, "3"), pod("web", v1.PodFailed, "4"))
	v.OnUpdate(pod("done", v1.PodSucceeded, "1"), pod("done", v1.PodSucceeded, "5"))
	v.OnDelete(pod("done", v1.PodSucceeded, "6"))
	v.OnDelete(pod("job", v1.PodPending, "7"))
	want := []string{"add web Running@2", "update web Running@3", "delete web Running@3", "delete job Pending@7"}
	if !slices.Equal(l.got, want) {
		t.Errorf("the scheduler's handler was told %q, want %q", l.got, want)
	}
}

// A pod a fixture states finished frees its node for the scheduler, as on a
// real cluster (engine/e2e/testdata/finished-pods.yaml compares with
// kube-scheduler), while the informer the controllers read still holds it: a
// Job counts its finished pods.
func TestFinishedPodsFreeTheirNode(t *testing.T) {
	data := sizedNode("n1", "2", "") +
		"---\napiVersion: v1\nkind: Pod\nmetadata: {name: done}\nspec:\n  nodeName: n1\n  restartPolicy: Never\n" +
		"  containers: [{name: c, image: i, resources: {requests: {cpu: \"2\"}}}]\nstatus: {phase: Succeeded}\n" +
		cpuPod("next", "2", "")
	fx, err := fixture.Load("finished", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	res, _, e := runEngineWith(t, fx, Options{}, false)
	if got := res.Bindings["default/next"]; got != "n1" {
		t.Errorf("next went to %q, want n1: the finished pod's request is no longer on it", got)
	}
	pods, err := e.informers.Core().V1().Pods().Lister().List(labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pods {
		names = append(names, p.Name)
	}
	if !slices.Contains(names, "done") {
		t.Errorf("the controllers' informer holds %v, not the finished pod", names)
	}
}
