package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/recorder"
)

// gangSource is the debugger's group what-if over the gang fixture, with
// GenericWorkload on in the process as sim sets it.
func gangSource(t *testing.T) *groupWhatIfSource {
	t.Helper()
	if err := featuregates.Set(map[string]bool{"GenericWorkload": true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = featuregates.Reset() })
	o := &simOptions{Fixture: gangFixture, Diagnostic: "unschedulable"}
	o.gates = featureGatesFlag{gates: map[string]bool{"GenericWorkload": true}, value: "GenericWorkload=true"}
	return newGroupWhatIfSource(context.Background(), o)
}

func TestGroupWhatIfSourceChange(t *testing.T) {
	s := gangSource(t)
	tests := []struct {
		name, flag, value string
		want              recorder.Change
		wantErr           string
	}{
		{name: "min-count", flag: "min-count", value: "2", want: recorder.SetMinCount{MinCount: 2}},
		{name: "min-count refused", flag: "min-count", value: "0", wantErr: `--min-count "0": want a whole number, 1 or more`},
		{name: "copy-node", flag: "copy-node", value: "s1", want: recorder.CopyNode{From: "s1", Node: "s1-copy"}},
		{name: "flags", value: "--remove-node s2", want: recorder.RemoveNode{Node: "s2"}},
		{name: "flags with =", value: "--set-weight=NodeResourcesFit=5", want: recorder.SetWeight{Plugin: "NodeResourcesFit", Weight: 5}},
		{name: "no such flag", value: "--remove-nod s2", wantErr: "no whatif flag --remove-nod"},
		{name: "not a flag", value: "remove-node s2", wantErr: "want one change as whatif's flags"},
		{name: "requests", flag: "requests", value: "infer-2 cpu=300m",
			want: recorder.PatchPod{Pod: "infer-2", Patch: `{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"300m"}}}]}}`, Why: "infer-2 requests cpu=300m"}},
		{name: "requests of no member", flag: "requests", value: "infer-9 cpu=300m", wantErr: `no pending pod "infer-9"`},
		{name: "requests not a quantity", flag: "requests", value: "infer-2 cpu=lots", wantErr: `"lots" is not a quantity`},
		{name: "requests without a value", flag: "requests", value: "infer-2", wantErr: "want MEMBER RESOURCE=QUANTITY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Change(tt.flag, tt.value)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestGroupWhatIfSourceRunsTheRealScheduler: a member's requests set
// through the debugger's prompt let infer bind in the re-run, as whatif
// --pod-group --patch-pod does; the command line shows the same what-if.
func TestGroupWhatIfSourceRunsTheRealScheduler(t *testing.T) {
	s := gangSource(t)
	ch, err := s.Change("requests", "infer-2 cpu=300m")
	if err != nil {
		t.Fatal(err)
	}
	group := recorder.PodGroupRef{Namespace: "default", Name: "infer"}
	res, err := s.Run(group, []recorder.Change{ch})
	if err != nil {
		t.Fatal(err)
	}
	if res.Before == nil || res.Before.Outcome.Result != recorder.ResultUnschedulable {
		t.Errorf("before: %+v, want infer Unschedulable as recorded", res.Before)
	}
	if res.After == nil || res.After.Outcome.Result != recorder.ResultBound || res.After.Placed() != 3 {
		t.Errorf("after: %+v, want infer bound with its 3 members", res.After)
	}
	want := `kubectl schedscope whatif -f ` + gangFixture + ` --feature-gates GenericWorkload=true --pod-group default/infer --patch-pod 'infer-2={"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"300m"}}}]}}'`
	if res.Command != want {
		t.Errorf("command\n got %s\nwant %s", res.Command, want)
	}
	// A change the engine refuses comes back in one line naming its flag.
	if _, err := s.Run(group, []recorder.Change{recorder.Evict{Pods: []string{"default/infer-0"}}}); err == nil || !strings.Contains(err.Error(), "--evict default/infer-0: ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("evicting a pending member: err = %v, want one line naming --evict", err)
	}
}

// TestGroupWhatIfSourceSuggest: each suggestion is confirmed by a cycle
// that bound the group, and carries the whatif command that shows it.
func TestGroupWhatIfSourceSuggest(t *testing.T) {
	s := gangSource(t)
	res, err := s.Suggest(recorder.PodGroupRef{Namespace: "default", Name: "infer"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Suggestions) == 0 {
		t.Fatalf("no suggestion for infer: %+v", res)
	}
	for _, sg := range res.Suggestions {
		if sg.Cycle == nil || sg.Cycle.Outcome.Result != recorder.ResultBound {
			t.Errorf("%s: not confirmed by a bound cycle", sg.Text)
		}
		if sg.Change == nil || !strings.Contains(sg.Command, "whatif -f "+gangFixture) || !strings.Contains(sg.Command, "--pod-group default/infer --") {
			t.Errorf("%s: change %v, command %q", sg.Text, sg.Change, sg.Command)
		}
	}
	if got := res.Suggestions[0].Text; got != "lower the gang's minCount to 2" {
		t.Errorf("first suggestion %q, want the minCount lowered to 2", got)
	}
}
