package engine

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/schedscope/schedscope/recorder"
)

// Each touch of upstream internals in upstream.go, exercised on the pinned
// versions. After a Kubernetes bump, a failure here names what changed.
func TestUpstreamSeam(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e, err := New(ctx, loadEmbedded(t, "default.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("Scheduler.nextStartNodeIndex", func(t *testing.T) {
		*e.nextStart = 3
		got := reflect.ValueOf(e.sched).Elem().FieldByName("nextStartNodeIndex").Int()
		if got != 3 {
			t.Errorf("writing through the pointer gave the field %d, want 3", got)
		}
		*e.nextStart = 0
	})

	t.Run("frameworkImpl plugin slices", func(t *testing.T) {
		for name, fw := range e.sched.Profiles {
			v, err := frameworkStruct(unwrap(fw))
			if err != nil {
				t.Fatal(err)
			}
			check := func(field string, err error, n int) {
				if err != nil {
					t.Errorf("profile %s: %v", name, err)
				} else if n == 0 && (field == "filterPlugins" || field == "scorePlugins" || field == "bindPlugins") {
					t.Errorf("profile %s: %s is empty; the default profile has some", name, field)
				}
			}
			for _, f := range frameworkPluginFields {
				count, ok := pluginFieldLens[f]
				if !ok {
					t.Fatalf("no check for field %s", f)
				}
				n, err := count(v, f)
				check(f, err, n)
			}
		}
	})

	t.Run("sharedInformerFactory.informers", func(t *testing.T) {
		objs, err := informerTypes(e.informers)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, o := range objs {
			kinds = append(kinds, reflect.TypeOf(o).Elem().Name())
		}
		for _, want := range []string{reflect.TypeFor[v1.Pod]().Name(), reflect.TypeFor[v1.Node]().Name(), "PersistentVolumeClaim"} {
			if !slices.Contains(kinds, want) {
				t.Errorf("the scheduler's informers lack %s: %v", want, kinds)
			}
		}
	})

	t.Run("runtime.nanotime", func(t *testing.T) {
		// A sleep lasts at least its duration on the monotonic clock.
		start := nanotime()
		time.Sleep(2 * time.Millisecond)
		if d := time.Duration(nanotime() - start); d < 2*time.Millisecond {
			t.Errorf("nanotime advanced %v over a 2ms sleep", d)
		}
	})
}

// pluginFieldLens reads each plugin slice of frameworkPluginFields with
// the element type the engine expects there, returning its length.
var pluginFieldLens = map[string]func(reflect.Value, string) (int, error){
	"preFilterPlugins":  fieldLen[fwk.PreFilterPlugin],
	"filterPlugins":     fieldLen[fwk.FilterPlugin],
	"postFilterPlugins": fieldLen[fwk.PostFilterPlugin],
	"preScorePlugins":   fieldLen[fwk.PreScorePlugin],
	"scorePlugins":      fieldLen[fwk.ScorePlugin],
	"reservePlugins":    fieldLen[fwk.ReservePlugin],
	"permitPlugins":     fieldLen[fwk.PermitPlugin],
	"preBindPlugins":    fieldLen[fwk.PreBindPlugin],
	"bindPlugins":       fieldLen[fwk.BindPlugin],
	"postBindPlugins":   fieldLen[fwk.PostBindPlugin],
}

func fieldLen[T any](v reflect.Value, name string) (int, error) {
	p, err := pluginSlice[T](v, name)
	if err != nil {
		return 0, err
	}
	return len(*p), nil
}

// The copy of numFeasibleNodesToFind says what the scheduler does: on the
// 1 000-node fixture the search stops after exactly that many feasible nodes.
func TestNumFeasibleNodesToFindMatchesTheScheduler(t *testing.T) {
	tests := []struct {
		all  int
		pct  int32
		want int
	}{
		{50, 0, 50}, {100, 0, 100}, {1000, 0, 420}, {5000, 0, 500}, {20000, 0, 1000}, {1000, 10, 100}, {1000, 5, 100}, {1000, 100, 1000},
	}
	for _, tt := range tests {
		if got := numFeasibleNodesToFind(tt.all, tt.pct); got != tt.want {
			t.Errorf("numFeasibleNodesToFind(%d, %d) = %d, want %d", tt.all, tt.pct, got, tt.want)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var first *recorder.Cycle
	e, err := New(ctx, loadEmbedded(t, "large-cluster.yaml"), Options{OnCycle: func(c *recorder.Cycle) {
		if c.Seq == 1 {
			first = c
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if first == nil || first.Filter == nil {
		t.Fatal("no first cycle with a filter phase")
	}
	if n := first.NumNodes(); first.NodesToFind != numFeasibleNodesToFind(n, 0) || len(first.Filter.Feasible) != first.NodesToFind {
		t.Errorf("%d nodes: recorded NodesToFind %d, the scheduler kept %d feasible nodes", n, first.NodesToFind, len(first.Filter.Feasible))
	}
}
