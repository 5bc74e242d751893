package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
)

func TestNaturalCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"web-2", "web-10", -1},
		{"db-10", "db-9", 1},
		{"a", "a", 0},
		{"a-01", "a-1", 1},
		{"web-x", "web-10", 1},
		{"web", "web-0", -1},
	}
	for _, tt := range tests {
		if got := naturalCompare(tt.a, tt.b); got != tt.want {
			t.Errorf("naturalCompare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// recordingHandler notes what it is given.
type recordingHandler struct{ got []string }

func (r *recordingHandler) OnAdd(obj interface{}, _ bool) {
	r.got = append(r.got, "add "+obj.(*v1.Pod).Name+" "+obj.(*v1.Pod).Labels["v"])
}
func (r *recordingHandler) OnUpdate(_, obj interface{}) {
	r.got = append(r.got, "update "+obj.(*v1.Pod).Name)
}
func (r *recordingHandler) OnDelete(obj interface{}) {
	r.got = append(r.got, "delete "+obj.(*v1.Pod).Name)
}

var _ cache.ResourceEventHandler = (*recordingHandler)(nil)

// TestArrivalsReleaseInOrder: a controller's new pod waits for release; a
// bare pod, a bound pod and the initial list pass at once; a held pod
// arrives as it last stood, or not at all when deleted meanwhile; release
// hands them over by workload document, then name.
func TestArrivalsReleaseInOrder(t *testing.T) {
	docs := map[string]int{"db": 0, "web": 1}
	a := newArrivals(func(p *v1.Pod) arrivalRank {
		return arrivalRank{document: docs[p.Labels["app"]], namespace: p.Namespace, name: p.Name}
	})
	h := &recordingHandler{}
	g := a.gate(h)
	owned := func(name, app string) *v1.Pod {
		yes := true
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", UID: types.UID(name), Labels: map[string]string{"app": app},
			OwnerReferences: []metav1.OwnerReference{{Kind: "ReplicaSet", Name: app, Controller: &yes}}}}
	}
	g.OnAdd(owned("web-10", "web"), false)
	g.OnAdd(owned("web-9", "web"), false)
	g.OnAdd(owned("db-1", "db"), false)
	gone := owned("gone", "web")
	g.OnAdd(gone, false)
	changed := owned("web-9", "web")
	changed.Labels["v"] = "2"
	g.OnUpdate(owned("web-9", "web"), changed)
	g.OnDelete(gone)
	g.OnAdd(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "bare", UID: "bare"}}, false)
	listed := owned("listed", "web")
	g.OnAdd(listed, true)
	if diff := cmp.Diff([]string{"add bare ", "add listed "}, h.got); diff != "" {
		t.Fatalf("before release (-want +got):\n%s", diff)
	}
	if n := a.release(); n != 3 {
		t.Errorf("released %d, want 3", n)
	}
	want := []string{"add bare ", "add listed ", "add db-1 ", "add web-9 2", "add web-10 "}
	if diff := cmp.Diff(want, h.got); diff != "" {
		t.Errorf("after release (-want +got):\n%s", diff)
	}
	g.OnUpdate(owned("web-9", "web"), owned("web-9", "web"))
	if last := h.got[len(h.got)-1]; last != "update web-9" {
		t.Errorf("a released pod's update: %q, want it passed on", last)
	}
	if n := a.release(); n != 0 {
		t.Errorf("a second release released %d", n)
	}
}
