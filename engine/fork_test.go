package engine

import (
	"cmp"
	"context"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

func loadEmbedded(t *testing.T, name string) *fixture.Fixture {
	t.Helper()
	data, err := fixtures.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return fx
}

// describeDiff lists what a diff found, for a test failure.
func describeDiff(d *recorder.CycleDiff) string {
	var parts []string
	if d.OutcomeChanged {
		parts = append(parts, "outcome "+d.Before.Result+"/"+d.Before.Node+" → "+d.After.Result+"/"+d.After.Node)
	}
	if d.Before.Message != d.After.Message {
		parts = append(parts, "message "+d.Before.Message+" → "+d.After.Message)
	}
	for _, c := range d.BecameFeasible {
		parts = append(parts, "feasible now: "+c.Node)
	}
	for _, c := range d.BecameInfeasible {
		parts = append(parts, "rejected now: "+c.Node+" "+c.After.String())
	}
	for _, c := range d.RejectionChanged {
		parts = append(parts, "rejection of "+c.Node+": "+c.Before.String()+" → "+c.After.String())
	}
	for _, s := range d.Scores {
		parts = append(parts, "scores of "+s.Node)
	}
	if d.Sampling != nil {
		parts = append(parts, "sampling")
	}
	return strings.Join(parts, "; ")
}

// An unchanged fork reproduces every cycle of every embedded fixture: the
// same feasible nodes, rejections, scores, host and message. A sampled
// search (large-cluster) depends on the parallel filter's timing, so there
// the fork is compared with itself: two runs must agree.
func TestUnchangedForkReproducesEveryCycle(t *testing.T) {
	for _, name := range fixtures.Names() {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			fx := loadEmbedded(t, name)
			forks, err := ForkEvery(ctx, fx, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(forks) == 0 {
				t.Fatal("the run recorded no cycle to fork at")
			}
			for _, f := range forks {
				got, err := f.Run(ctx)
				if err != nil {
					t.Fatalf("cycle %d (%s): %v", f.Recorded.Seq, f.Recorded.Pod.Key(), err)
				}
				want := f.Recorded
				if !f.Reproducible() {
					again, err := f.Run(ctx)
					if err != nil {
						t.Fatal(err)
					}
					want = again.Cycle
				}
				if d := recorder.DiffCycles(want, got.Cycle); !d.Same {
					t.Errorf("cycle %d (%s, sampled %v): the unchanged re-run differs: %s", f.Recorded.Seq, f.Recorded.Pod.Key(), f.Sampled(), describeDiff(d))
				}
			}
		})
	}
}

// A fork of a burst run (every pod created at once) reproduces its cycle too.
func TestBurstForkReproducesItsCycle(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f, err := ForkAt(ctx, loadEmbedded(t, "default.yaml"), Options{}, ForkTarget{Pod: "huge", Burst: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := recorder.DiffCycles(f.Recorded, got.Cycle); !d.Same {
		t.Errorf("the unchanged re-run of a burst run's cycle differs: %s", describeDiff(d))
	}
}

// A run that filters with one goroutine records a sampled search that a
// fork's re-run reproduces: whatif compares with the recorded cycle then,
// without re-running it.
func TestSerialForkReproducesItsSampledCycle(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cfg, err := LoadConfigFile("")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Parallelism = 1
	forks, err := ForkEvery(ctx, loadEmbedded(t, "large-cluster.yaml"), Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	sampled := 0
	for _, f := range forks {
		if !f.Sampled() {
			continue
		}
		sampled++
		if !f.Reproducible() {
			t.Fatalf("cycle %d: a serial run's sampled cycle is not taken as reproducible", f.Recorded.Seq)
		}
		got, err := f.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if d := recorder.DiffCycles(f.Recorded, got.Cycle); !d.Same {
			t.Errorf("cycle %d (%s): the re-run differs from the serial run's record: %s", f.Recorded.Seq, f.Recorded.Pod.Key(), describeDiff(d))
		}
	}
	if sampled == 0 {
		t.Fatal("large-cluster recorded no sampled cycle")
	}
}

// compareKeys (keyOrder) orders pods as their keys, namespace/name, compare as
// strings, including namespaces one of which begins the other.
func TestCompareKeysIsTheKeysOrder(t *testing.T) {
	namespaces := []string{"a", "a-b", "a0", "ab", "default", "default-x", "default1", "kube-system", "b"}
	names := []string{"a", "web-0", "web-1", "z"}
	var pods []*v1.Pod
	for _, ns := range namespaces {
		for _, n := range names {
			pods = append(pods, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: n}})
		}
	}
	sign := func(c int) int { return cmp.Compare(c, 0) }
	for _, a := range pods {
		for _, b := range pods {
			want := strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
			if got := compareKeys(a, b); sign(got) != want {
				t.Errorf("compareKeys(%s/%s, %s/%s) = %d, want the sign %d", a.Namespace, a.Name, b.Namespace, b.Name, got, want)
			}
		}
	}
}

// TestBaselineIsRerun: a what-if compares with the recorded cycle only
// when a re-run gives it back and the fork is the state the cycle saw.
func TestBaselineIsRerun(t *testing.T) {
	full := &recorder.Cycle{NodesToFind: 3, Nodes: &recorder.NodeSet{Names: []string{"a", "b", "c"}}}
	sampled := &recorder.Cycle{NodesToFind: 2, Nodes: &recorder.NodeSet{Names: []string{"a", "b", "c"}}}
	if sampled.NumNodes() != 3 {
		t.Fatalf("the sampled cycle lists %d nodes", sampled.NumNodes())
	}
	serial, err := LoadConfigFile("")
	if err != nil {
		t.Fatal(err)
	}
	serial.Parallelism = 1
	for _, tt := range []struct {
		name string
		f    Fork
		want bool
	}{
		{"every node searched", Fork{Recorded: full}, false},
		{"a sample by parallel filters", Fork{Recorded: sampled}, true},
		{"a sample by one filter goroutine", Fork{Recorded: sampled, Config: serial}, false},
		{"a live fork", Fork{Recorded: full, Note: "forked from the cluster as mirrored now"}, true},
	} {
		if got := tt.f.BaselineIsRerun(); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
