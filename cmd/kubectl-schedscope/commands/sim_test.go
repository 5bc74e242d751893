package commands

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui"
)

// TestSimSendsNeverAttemptedPods drives sim's source without a
// terminal: after the cycles, the pods that never got one come with why,
// before the run's end.
func TestSimSendsNeverAttemptedPods(t *testing.T) {
	o := &SimOptions{}
	fs := pflag.NewFlagSet("sim", pflag.ContinueOnError)
	o.addFlags(fs) // the flags' defaults
	if err := fs.Parse([]string{"-f", writeTemp(t, "story.yaml", storyFixture)}); err != nil {
		t.Fatal(err)
	}
	src := &fixtureSource{o: &o.simOptions, ctl: newLiveControl(nil)}

	var evs []tui.Event
	if err := src.Run(context.Background(), func(ev tui.Event) bool { evs = append(evs, ev); return true }); err != nil {
		t.Fatal(err)
	}
	var cycled []string
	var never []recorder.PodState
	neverAt, doneAt := -1, -1
	for i, ev := range evs {
		switch {
		case ev.Cycle != nil:
			cycled = append(cycled, ev.Cycle.Pod.Name)
			if neverAt >= 0 {
				t.Errorf("cycle of %s sent after the never-attempted pods", ev.Cycle.Pod.Name)
			}
		case ev.NeverAttempted != nil:
			never, neverAt = ev.NeverAttempted, i
		case ev.Done:
			doneAt = i
		}
	}
	if diff := cmp.Diff([]string{"web", "big"}, cycled); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
	if neverAt < 0 || doneAt < neverAt {
		t.Fatalf("never-attempted pods at event %d, done at %d", neverAt, doneAt)
	}
	got := map[string]string{}
	for _, p := range never {
		got[p.Pod.Name] = p.State
	}
	if diff := cmp.Diff(map[string]string{"gated": recorder.PodGated, "other": recorder.PodNoProfile}, got); diff != "" {
		t.Errorf("never attempted (-want +got):\n%s", diff)
	}
	for _, p := range never {
		if p.Hint == "" {
			t.Errorf("%s comes without a hint: %+v", p.Pod.Name, p)
		}
	}
}
