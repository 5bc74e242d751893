package commands

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/source"
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

	var evs []source.Event
	if err := src.Run(context.Background(), func(ev source.Event) bool { evs = append(evs, ev); return true }); err != nil {
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
		if narrate.PodHint(p) == "" {
			t.Errorf("%s comes without a hint: %+v", p.Pod.Name, p)
		}
	}
}

// TestSimShowsAPauseMadeBeforeTheHeader is space pressed before the first
// frame, or sim --paused: sim's source says, right after the header, that
// the engine is paused, and no cycle starts until the user resumes.
func TestSimShowsAPauseMadeBeforeTheHeader(t *testing.T) {
	for _, c := range []struct {
		flag bool
		why  string
	}{{false, "paused by you"}, {true, "started with --paused: space runs, s steps a cycle, . a phase"}} {
		o := &SimOptions{simOptions: newSimOptions(genericiooptions.IOStreams{}), Paused: c.flag}
		fs := pflag.NewFlagSet("sim", pflag.ContinueOnError)
		o.addFlags(fs)
		if err := fs.Parse([]string{"-f", writeTemp(t, "story.yaml", storyFixture)}); err != nil {
			t.Fatal(err)
		}
		if err := o.Complete(nil, nil); err != nil {
			t.Fatal(err)
		}
		if !c.flag {
			o.ctl.Pause()
		}
		ctx, cancel := context.WithCancel(context.Background())
		stream := tui.NewStream(ctx, 16)
		go func() {
			defer stream.Close()
			o.source.Run(ctx, stream.Send)
		}()
		var names []string
		for len(names) < 2 {
			var ev source.Event
			select {
			case ev = <-stream.Events():
			case <-time.After(10 * time.Second):
				t.Fatalf("no paused state after the header (got %q)", names)
			}
			if ev.Queue != nil {
				continue
			}
			names = append(names, eventNames([]source.Event{ev})[0])
			if ev.State != nil {
				names[len(names)-1] += " (" + ev.State.Why + ")"
			}
		}
		if diff := cmp.Diff([]string{"header", "state paused (" + c.why + ")"}, names); diff != "" {
			t.Errorf("first events (-want +got):\n%s", diff)
		}
		o.ctl.Resume()
		ended := false
		for _, name := range eventNames(drain(t, stream)) {
			ended = ended || name == "done"
		}
		if !ended {
			t.Error("the run did not end after resuming")
		}
		cancel()
	}
}

// sim waits a moment for its fixture, then opens the debugger while the
// fixture loads; the run reads the fixture that load read (once), and a bad
// fixture found later is the run's error.
func TestSimOpensWhileTheFixtureLoads(t *testing.T) {
	bad := writeTemp(t, "bad.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n")
	for _, wait := range []time.Duration{0, time.Minute} {
		o := &SimOptions{}
		fs := pflag.NewFlagSet("sim", pflag.ContinueOnError)
		o.addFlags(fs)
		if err := fs.Parse([]string{"-f", bad}); err != nil {
			t.Fatal(err)
		}
		err := o.checkInputsWithin(wait)
		if wait > 0 && (err == nil || !strings.Contains(err.Error(), "bad.yaml:5:")) {
			t.Errorf("waiting for the load: error %v, want the fixture's line 5", err)
		}
		if wait == 0 && err != nil && !strings.Contains(err.Error(), "bad.yaml:5:") {
			t.Errorf("not waiting: error %v", err)
		}
		src := &fixtureSource{o: &o.simOptions, ctl: newLiveControl(nil)}
		if err := src.Run(context.Background(), func(source.Event) bool { return true }); err == nil || !strings.Contains(err.Error(), "bad.yaml:5:") {
			t.Errorf("the run's error is %v, want the fixture's line 5", err)
		}
	}
	good := &SimOptions{}
	fs := pflag.NewFlagSet("sim", pflag.ContinueOnError)
	good.addFlags(fs)
	if err := fs.Parse([]string{"-f", writeTemp(t, "story.yaml", storyFixture)}); err != nil {
		t.Fatal(err)
	}
	if err := good.checkInputsWithin(0); err != nil {
		t.Fatal(err)
	}
	first, err := good.loadFixture()
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := good.loadFixture(); again != first {
		t.Error("the fixture was loaded twice")
	}
}
