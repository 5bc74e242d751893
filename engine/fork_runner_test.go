package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// A Runner schedules a pod-only change on the scheduler the runs before it
// used, and a change of nodes it can write and write back there too; each
// such run must be the run a new scheduler over the fork's cluster makes.
// On every embedded fixture, for the last fork of each pod: the fork
// itself, a relabelled pod, a relabelled node, a copy of the node named
// last, every change suggest draws from the fork's diagnosis, and the fork
// once more run one after another on one Runner, and each is compared with
// Fork.Run of the same fork. The fork run last shows that the nodes were
// written back.
func TestRunnerMatchesFreshRuns(t *testing.T) {
	compared, shared, sharedNodes := 0, 0, 0
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
				changes := []recorder.Change{
					recorder.PatchPod{Patch: `{"metadata":{"labels":{"schedscope.io/test":"relabelled"}}}`},
					recorder.PatchNode{Node: f.Nodes[0].Name, Patch: `{"metadata":{"labels":{"schedscope.io/test":"relabelled"}}}`},
				}
				lastNode := slices.MaxFunc(f.Nodes, func(a, b *v1.Node) int { return strings.Compare(a.Name, b.Name) })
				changes = append(changes, recorder.CopyNode{From: lastNode.Name, Node: lastNode.Name + "-copy"})
				for _, c := range f.candidates(f.Recorded, diagnosis(f.Recorded), "") {
					changes = append(changes, c.change)
				}
				variants := []*Fork{f}
				for _, c := range changes {
					g, err := f.With(c)
					if err != nil {
						continue // a candidate the API server refuses
					}
					if recorder.PodOnly([]recorder.Change{c}) && g.cluster != f.cluster {
						t.Fatalf("%s: %s does not share the fork's cluster", k, narrate.Change(c))
					}
					variants = append(variants, g)
				}
				if len(variants) < 4 {
					t.Fatalf("%s: only %d variants", k, len(variants))
				}
				variants = append(variants, f)
				runner := f.NewRunner()
				for i, g := range variants {
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
						if d, _ := runner.delta(g); len(d.now)+len(d.added) > 0 {
							sharedNodes++
						}
					}
				}
				runner.Close()
			}
		})
	}
	// The default fixture alone gives a dozen; a runner that rebuilt
	// every time would compare nothing shared.
	t.Logf("compared %d runs, %d on a scheduler that ran another pod before, %d of them with nodes written", compared, shared, sharedNodes)
	if compared < 20 || shared < 10 || sharedNodes < 10 {
		t.Errorf("compared %d runs, %d of them on a scheduler that ran another pod before, %d with nodes written", compared, shared, sharedNodes)
	}
}
