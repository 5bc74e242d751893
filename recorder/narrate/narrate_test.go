package narrate

import (
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
