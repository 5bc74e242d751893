package engine

import (
	"context"
	"testing"
	"time"

	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

// A Runner schedules a pod-only change on the scheduler the runs before it
// used; each such run must be the run a new scheduler over the fork's
// cluster makes. On every embedded fixture, for the last fork of each pod:
// the fork itself, a relabelled pod, and every pod change suggest draws
// from the fork's diagnosis run one after another on one Runner, and each
// is compared with Fork.Run of the same fork.
func TestRunnerMatchesFreshRuns(t *testing.T) {
	compared, shared := 0, 0
	for _, name := range fixtures.Names() {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			forks, err := ForkEvery(ctx, loadEmbedded(t, name), Options{})
			if err != nil {
				t.Fatal(err)
			}
			last := map[string]*Fork{}
			var order []string
			for _, f := range forks {
				k := f.Recorded.Pod.Key()
				if last[k] == nil {
					order = append(order, k)
				}
				last[k] = f
			}
			for _, k := range order {
				f := last[k]
				variants := []*Fork{f}
				if g, err := f.With(recorder.PatchPod{Patch: `{"metadata":{"labels":{"schedscope.io/test":"relabelled"}}}`}); err == nil {
					variants = append(variants, g)
				} else {
					t.Fatalf("%s: %v", k, err)
				}
				for _, c := range f.candidates(f.Recorded, diagnosis(f.Recorded), "") {
					if !recorder.PodOnly([]recorder.Change{c.change}) {
						continue
					}
					if g, err := f.With(c.change); err == nil {
						variants = append(variants, g)
					}
				}
				runner := f.NewRunner()
				for i, g := range variants {
					if g.cluster != f.cluster {
						t.Fatalf("%s: variant %d does not share the fork's cluster", k, i)
					}
					before := runner.cur
					got, err := runner.Run(ctx, g)
					if err != nil {
						t.Fatalf("%s: variant %d on the runner: %v", k, i, err)
					}
					want, err := g.Run(ctx)
					if err != nil {
						t.Fatalf("%s: variant %d alone: %v", k, i, err)
					}
					if d := recorder.DiffCycles(want.Cycle, got.Cycle); !d.Same {
						t.Errorf("%s: variant %d (%v) differs on the runner: %s", k, i, g.Changes, describeDiff(d))
					}
					if want.Cycle.Seq != got.Cycle.Seq || len(want.Later) != len(got.Later) {
						t.Errorf("%s: variant %d: cycle %d with %d later on the runner, %d with %d alone", k, i, got.Cycle.Seq, len(got.Later), want.Cycle.Seq, len(want.Later))
					}
					compared++
					if before != nil && runner.cur == before {
						shared++
					}
				}
				runner.Close()
			}
		})
	}
	// The default fixture alone gives a dozen; a runner that rebuilt
	// every time would compare nothing shared.
	t.Logf("compared %d runs, %d on a scheduler that ran another pod before", compared, shared)
	if compared < 20 || shared < 10 {
		t.Errorf("compared %d runs, %d of them on a scheduler that ran another pod before", compared, shared)
	}
}
