package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/schedscope/schedscope/fixtures"
)

// The store shares a fixture's objects with the informers and every run of
// the fixture: nothing in a run may change them. Every embedded fixture —
// preemption, volumes, workloads and timelines among them — is run twice
// (sequential, then burst), and its objects must read as they did before.
func TestRunsLeaveTheFixtureAsLoaded(t *testing.T) {
	for _, name := range fixtures.Names() {
		t.Run(name, func(t *testing.T) {
			fx := loadEmbedded(t, name)
			snapshot := func() []string {
				var out []string
				for _, o := range fx.ObjectsEver() {
					b, err := json.Marshal(o)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, string(b))
				}
				for _, p := range fx.Pending {
					b, _ := json.Marshal(p)
					out = append(out, string(b))
				}
				return out
			}
			before := snapshot()
			for _, burst := range []bool{false, true} {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				e, err := New(ctx, fx, Options{})
				if err != nil {
					cancel()
					t.Fatal(err)
				}
				run := e.Run
				if burst {
					run = e.RunBurst
				}
				if _, err := run(ctx); err != nil {
					cancel()
					t.Fatal(err)
				}
				cancel()
			}
			after := snapshot()
			if len(after) != len(before) {
				t.Fatalf("%d objects before the runs, %d after", len(before), len(after))
			}
			for i := range before {
				if before[i] != after[i] {
					t.Errorf("object %d changed by a run:\nbefore %s\nafter  %s", i, before[i], after[i])
				}
			}
		})
	}
}

func TestStoreSharesOnlyWithReaders(t *testing.T) {
	s := newStore()
	pods := v1.SchemeGroupVersion.WithResource("pods")
	kind := v1.SchemeGroupVersion.WithKind("Pod")
	b := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "ns"}}
	a := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns", Labels: map[string]string{"app": "x"}}}
	if err := s.adopt([]runtime.Object{b, a}); err != nil {
		t.Fatal(err)
	}
	// An informer's list (resourceVersion "0") holds the stored objects,
	// in name order; any other list, and Get, hold copies.
	l, err := s.List(pods, kind, "", metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		t.Fatal(err)
	}
	items := l.(*v1.PodList).Items
	if len(items) != 2 || items[0].Name != "a" || items[1].Name != "b" {
		t.Fatalf("list %v, want pods a and b in that order", items)
	}
	if l.(*v1.PodList).ResourceVersion != "3" {
		t.Errorf("list at version %q after two writes, want 3 (an empty list is 1)", l.(*v1.PodList).ResourceVersion)
	}
	same := func(x, y map[string]string) bool {
		return reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer()
	}
	if !same(items[0].Labels, a.Labels) {
		t.Error("an informer's list holds a copy of the stored object")
	}
	// The engine's own reads (the cluster's state at the end, a fork's
	// claims) take the stored objects themselves, in name order, with no
	// typed list: a PodList holds its pods by value, a copy of each.
	if got, _ := s.sorted(pods, ""); len(got) != 2 || got[0] != a || got[1] != b {
		t.Errorf("sorted %v, want the stored pods a and b themselves, in that order", got)
	}
	copied, _ := s.List(pods, kind, "")
	if same(copied.(*v1.PodList).Items[0].Labels, a.Labels) {
		t.Error("a list without resourceVersion 0 holds the stored object, not a copy")
	}
	got, _ := s.Get(pods, "ns", "b")
	got.(*v1.Pod).Spec.NodeName = "n"
	if again, _ := s.Get(pods, "ns", "b"); again.(*v1.Pod).Spec.NodeName != "" {
		t.Error("changing what Get returned changed the store")
	}
	// A write stores a new object: the adopted one is left as it was.
	upd := b.DeepCopy()
	upd.Spec.NodeName = "n1"
	if err := s.Update(pods, upd, "ns"); err != nil {
		t.Fatal(err)
	}
	if b.Spec.NodeName != "" {
		t.Error("an update changed the adopted object")
	}
	// A watch from the list's version delivers only what was written
	// after it; then every write.
	w, err := s.Watch(pods, "ns", metav1.ListOptions{ResourceVersion: "3"})
	if err != nil {
		t.Fatal(err)
	}
	if ev := <-w.ResultChan(); ev.Type != watch.Added || ev.Object.(*v1.Pod).Spec.NodeName != "n1" {
		t.Errorf("first event %s %v, want the update written after version 3", ev.Type, ev.Object)
	}
	if err := s.Delete(pods, "ns", "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(pods, "ns", "a"); err == nil {
		t.Error("a deleted object is still there")
	}
	if ev := <-w.ResultChan(); ev.Type != watch.Deleted || ev.Object.(*v1.Pod).Name != "a" {
		t.Errorf("event %s %v, want a deleted", ev.Type, ev.Object)
	}
	if err := s.Create(pods, a, "ns"); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(pods, a, "ns"); err == nil {
		t.Error("creating an existing object succeeded")
	}
	if err := s.Update(pods, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "ghost", Namespace: "ns"}}, "ns"); err == nil {
		t.Error("updating a missing object succeeded")
	}
}

// An informer that lists a resource nobody has written yet, then watches
// from that list's version, gets the first object written in between (the
// first version was once the empty list's own, and the object was lost).
func TestStoreWatchAfterAnEmptyList(t *testing.T) {
	s := newStore()
	pvcs := v1.SchemeGroupVersion.WithResource("persistentvolumeclaims")
	l, err := s.List(pvcs, v1.SchemeGroupVersion.WithKind("PersistentVolumeClaim"), "", metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		t.Fatal(err)
	}
	rv := l.(*v1.PersistentVolumeClaimList).ResourceVersion
	if err := s.Create(pvcs, &v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data-db-0", Namespace: "default"}}, "default"); err != nil {
		t.Fatal(err)
	}
	w, err := s.Watch(pvcs, "", metav1.ListOptions{ResourceVersion: rv})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-w.ResultChan():
		if ev.Type != watch.Added {
			t.Errorf("event %s, want Added", ev.Type)
		}
	default:
		t.Errorf("the claim written between the empty list (version %s) and the watch was not delivered", rv)
	}
}

// A watch takes every event, however far its reader is behind, in order:
// apimachinery's fake watchers held a hundred and then panicked, which the
// simulated kubelet starting thousands of bound pods at once ran into. A
// stopped watch closes its channel and drops what it had not delivered.
func TestStoreWatchTakesAnyBacklog(t *testing.T) {
	s := newStore()
	pods := v1.SchemeGroupVersion.WithResource("pods")
	create := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			if err := s.Create(pods, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p-%05d", i), Namespace: "default"}}, "default"); err != nil {
				t.Fatal(err)
			}
		}
	}
	read := func(w watch.Interface, from, to int) {
		t.Helper()
		timeout := time.After(time.Minute)
		for i := from; i < to; i++ {
			select {
			case ev, ok := <-w.ResultChan():
				if !ok {
					t.Fatalf("the watch closed before event %d", i)
				}
				if name := ev.Object.(*v1.Pod).Name; ev.Type != watch.Added || name != fmt.Sprintf("p-%05d", i) {
					t.Fatalf("event %d: %s %s", i, ev.Type, name)
				}
			case <-timeout:
				t.Fatalf("event %d did not come", i)
			}
		}
	}
	w, err := s.Watch(pods, "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	create(0, 10000) // nobody reads yet
	read(w, 0, 10000)

	stopped, err := s.Watch(pods, "default")
	if err != nil {
		t.Fatal(err)
	}
	create(10000, 10500)
	stopped.Stop()
	create(10500, 10600)
	read(w, 10000, 10600)
	n := 0
	for range stopped.ResultChan() { // ends when the channel closes
		n++
	}
	if n > 10500-10000 {
		t.Errorf("the stopped watch delivered %d events, more than were written before it stopped", n)
	}
}

// A list gives objects in their keys' order, as etcd does: a namespace that
// begins another comes after it when the other goes on with a character
// before "/".
func TestStoreListsInKeyOrder(t *testing.T) {
	s := newStore()
	pods := v1.SchemeGroupVersion.WithResource("pods")
	for _, k := range [][2]string{{"team", "web"}, {"team-a", "web"}, {"team0", "api"}, {"team", "api"}} {
		if err := s.Create(pods, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: k[0], Name: k[1]}}, k[0]); err != nil {
			t.Fatal(err)
		}
	}
	l, err := s.List(pods, v1.SchemeGroupVersion.WithKind("Pod"), "", metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range l.(*v1.PodList).Items {
		got = append(got, p.Namespace+"/"+p.Name)
	}
	want := []string{"team-a/web", "team/api", "team/web", "team0/api"}
	if !slices.Equal(got, want) {
		t.Errorf("listed %v, want %v", got, want)
	}
}
