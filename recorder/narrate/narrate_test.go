package narrate

import (
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder"
)

func TestAbbrev(t *testing.T) {
	for name, want := range map[string]string{
		"NodeResourcesFit":   "NRF",
		"TaintToleration":    "TT",
		"ImageLocality":      "IL",
		"zone":               "zon",
		"Zone":               "Zon",
		"ab":                 "ab",
		"ÜberPlugin":         "Übe",
		"my-scheduler/Plug":  "my-",
		"extender localhost": "ext",
	} {
		if got := Abbrev(name); got != want {
			t.Errorf("Abbrev(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                       "0s",
		812:                     "812ns",
		96 * time.Microsecond:   "96µs",
		2400 * time.Microsecond: "2.4ms",
		1254 * time.Millisecond: "1.25s",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		o    recorder.Outcome
		want string
	}{
		{recorder.Outcome{Result: recorder.ResultBound, Node: "n1"}, "bound to n1"},
		{recorder.Outcome{Result: recorder.ResultUnschedulable, Message: "0/3 nodes are available"}, "Unschedulable: 0/3 nodes are available"},
		{recorder.Outcome{Result: recorder.ResultUnschedulable, Message: "m", NominatedNode: "n2"}, "Unschedulable; preemption nominated n2 (the pod will retry there)"},
		{recorder.Outcome{Result: recorder.ResultError, Message: "boom"}, "Error: boom"},
	} {
		if got := Outcome(tc.o); got != tc.want {
			t.Errorf("Outcome(%+v) = %q, want %q", tc.o, got, tc.want)
		}
		s := recorder.CycleSummary{Result: tc.o.Result, Node: tc.o.Node, Message: tc.o.Message, NominatedNode: tc.o.NominatedNode}
		if got := SummaryOutcome(s); got != tc.want {
			t.Errorf("SummaryOutcome(%+v) = %q, want %q", s, got, tc.want)
		}
	}
}

func TestDiffOfTheSameCycleSaysSo(t *testing.T) {
	got := Diff(&recorder.CycleDiff{Same: true}, 10)
	if len(got) != 1 || got[0] != "no difference: the same feasible nodes, scores, node and message" {
		t.Errorf("Diff of identical cycles = %q", got)
	}
}

func TestWinner(t *testing.T) {
	rej := &recorder.Rejection{Plugin: "NodeResourcesFit", Code: recorder.CodeUnschedulable, Reasons: []string{"Insufficient cpu"}}
	for _, tc := range []struct {
		w    recorder.WinnerChange
		want string
	}{
		{recorder.WinnerChange{Before: "a", After: "c", Reason: recorder.WinnerOutscored, BeforeTotal: 50, AfterTotal: 90,
			Contributions: []recorder.Contribution{{Plugin: "NodeResourcesFit", Delta: -40}}},
			"a scores 50 against 90 for c: NodeResourcesFit −40"},
		{recorder.WinnerChange{Before: "a", After: "b", Reason: recorder.WinnerRejected, Rejection: rej},
			"a is now rejected by NodeResourcesFit: Insufficient cpu"},
		{recorder.WinnerChange{Before: "a", Reason: recorder.WinnerNoneFeasible, Rejection: rej},
			"no node passes filtering any more; a is rejected by NodeResourcesFit: Insufficient cpu"},
		{recorder.WinnerChange{Before: "a", Reason: recorder.WinnerNoneFeasible, BeforeRemoved: true},
			"no node passes filtering any more; a is no longer in the cluster"},
		{recorder.WinnerChange{Before: "a", Reason: recorder.WinnerPreempting, NominatedNode: "b"},
			"no node fits as the cluster stands; preemption nominated b"},
		{recorder.WinnerChange{After: "c", Reason: recorder.WinnerNowFeasible, Rule: recorder.RuleOnlyFeasible},
			"c now passes filtering (only one node passed filtering, so it was chosen without scoring)"},
		{recorder.WinnerChange{Before: "a", After: "c", Reason: recorder.WinnerTie, Rule: recorder.RuleTie, Tied: 2, Best: 70, BeforeTotal: 70, AfterTotal: 70},
			"a and c tie at 70; 2 nodes tied at 70; the scheduler's max-heap over the nodes, in the order they passed filtering, popped c first"},
		{recorder.WinnerChange{Before: "a", After: "c", Reason: recorder.WinnerRemoved}, "a is no longer in the cluster"},
	} {
		if got := Winner(&tc.w); got != tc.want {
			t.Errorf("Winner(%+v)\n got %q\nwant %q", tc.w, got, tc.want)
		}
	}
}

func TestNominated(t *testing.T) {
	if got := Nominated(nil); got != "" {
		t.Errorf("Nominated(nil) = %q, want empty", got)
	}
	one := []recorder.PodRef{{Namespace: "default", Name: "urgent", Priority: 1000}}
	if got, want := Nominated(one), "counting default/urgent (priority 1000), nominated here by an earlier preemption"; got != want {
		t.Errorf("Nominated = %q, want %q", got, want)
	}
	two := append(one, recorder.PodRef{Namespace: "batch", Name: "job", Priority: 5})
	if got, want := Nominated(two), "counting default/urgent (priority 1000), batch/job (priority 5), all nominated here by earlier preemptions"; got != want {
		t.Errorf("Nominated = %q, want %q", got, want)
	}
}

func TestPodMessageAndHint(t *testing.T) {
	pod := recorder.PodRef{Namespace: "default", Name: "p"}
	tests := []struct {
		st        recorder.PodState
		msg, hint string
	}{
		{recorder.PodState{Pod: pod, State: recorder.PodUnschedulable, Message: "0/1 nodes are available"}, "0/1 nodes are available", ""},
		{recorder.PodState{Pod: pod, State: recorder.PodPreBound, Node: "n2"}, "arrived bound to n2 (spec.nodeName); the scheduler only counts it on its node", ""},
		{recorder.PodState{Pod: pod, State: recorder.PodDeleted, Source: "f.yaml:9"}, "deleted by the fixture's timeline (f.yaml:9)", ""},
		{recorder.PodState{Pod: pod, State: recorder.PodPreempted, EvictedBy: &recorder.Eviction{Seq: 4, Preemptor: recorder.PodRef{Namespace: "default", Name: "hi"}, Node: "n1"}},
			"evicted by preemption in cycle 4, to make room for default/hi on n1", ""},
		{recorder.PodState{Pod: pod, State: recorder.PodNoProfile, SchedulerName: "mine", Profiles: []string{"default-scheduler", "batch"}},
			`no profile serves schedulerName "mine"`, "another scheduler must place it; this one has the profile(s) default-scheduler, batch"},
		{recorder.PodState{Pod: pod, State: recorder.PodGated, Message: "Scheduling is blocked due to non-empty scheduling gates", Gates: []string{"a.io/x", "b.io/y"}},
			"Scheduling is blocked due to non-empty scheduling gates", "held by scheduling gates a.io/x, b.io/y (the SchedulingGates PreEnqueue plugin); remove the gates to let the scheduler try it"},
	}
	for _, tt := range tests {
		if got := PodMessage(tt.st); got != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.st.State, got, tt.msg)
		}
		if got := PodHint(tt.st); got != tt.hint {
			t.Errorf("%s: hint %q, want %q", tt.st.State, got, tt.hint)
		}
	}
}

// Every step of the walk-through has a doc, and the extension points explain
// heads have a heading.
func TestPhaseDocs(t *testing.T) {
	for _, name := range []string{PhaseQueue, recorder.PhasePreFilter, recorder.PhaseFilter, recorder.PhasePostFilter, recorder.PhaseScore,
		recorder.PhaseNormalize, PhaseWeighted, PhaseSelect, recorder.PhaseReserve, recorder.PhasePermit, recorder.PhasePreBind,
		recorder.PhaseBind, recorder.PhasePostBind} {
		if PhaseDoc(name) == "" {
			t.Errorf("no doc for %s", name)
		}
	}
	for _, name := range []string{recorder.PhasePreFilter, recorder.PhaseFilter, recorder.PhasePostFilter, recorder.PhaseScore} {
		if PhaseHeading(name) == "" {
			t.Errorf("no heading for %s", name)
		}
	}
	if !strings.Contains(PhaseDoc(recorder.PhaseFilter), `the old "predicates"`) {
		t.Error("Filter's doc should name the legacy predicates")
	}
}

// A PostFilter plugin's Unschedulable without a reason is worded as what
// it means; a status with reasons keeps them.
func TestPostFilterStatus(t *testing.T) {
	for _, tt := range []struct {
		s    recorder.PluginStatus
		want string
	}{
		{recorder.PluginStatus{Plugin: "DynamicResources", Code: recorder.CodeUnschedulable}, "nothing to do: the pod has no resource claims to free"},
		{recorder.PluginStatus{Plugin: "Custom", Code: recorder.CodeUnschedulable, Reasons: []string{" "}}, "nothing to do: the plugin found no way to make room (it gave no reason)"},
		{recorder.PluginStatus{Plugin: "DefaultPreemption", Code: recorder.CodeUnschedulable, Reasons: []string{"preemption: 0/4 nodes are available"}}, "preemption: 0/4 nodes are available"},
		{recorder.PluginStatus{Plugin: "DefaultPreemption", Code: recorder.CodeSuccess}, ""},
	} {
		if got := PostFilterStatus(tt.s); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.s, got, tt.want)
		}
	}
}
