package recorder

import (
	"strings"
	"testing"
)

// cycleOn builds a cycle over nodes a, b, c: feasible holds the feasible
// nodes' indices, rejected maps a node index to its rejecting plugin, and
// scores the weighted ImageLocality score of each feasible node (weight 1).
func cycleOn(seq int, feasible []int, rejected map[int]string, scores []int64, node string) *Cycle {
	c := &Cycle{Seq: seq, Pod: PodRef{Namespace: "default", Name: "web"},
		Nodes: &NodeSet{Names: []string{"a", "b", "c"}}, NodesToFind: 3,
		Filter: &FilterPhase{Plugins: []string{"TaintToleration", "NodeResourcesFit"}, Feasible: feasible, Evaluated: 3}}
	for n, p := range rejected {
		pi := 0
		if p == "NodeResourcesFit" {
			pi = 1
		}
		c.Filter.Rejected = append(c.Filter.Rejected, NodeStatus{Node: n, Plugin: pi, Code: CodeUnschedulable, Reasons: []string{p + " says no"}})
	}
	if len(feasible) > 0 {
		c.Score = &ScorePhase{Nodes: feasible, Plugins: []ScorePlugin{{Name: "ImageLocality", Weight: 1, Raw: scores}}, Totals: scores}
		c.Selection = &Selection{Node: node, Rule: RuleHighestScore}
		c.Outcome = Outcome{Result: ResultBound, Node: node}
	} else {
		c.Outcome = Outcome{Result: ResultUnschedulable, Message: "0/3 nodes are available"}
	}
	return c
}

func TestDiffCycles(t *testing.T) {
	base := cycleOn(1, []int{0, 1}, map[int]string{2: "TaintToleration"}, []int64{50, 40}, "a")
	t.Run("same", func(t *testing.T) {
		d := DiffCycles(base, cycleOn(2, []int{0, 1}, map[int]string{2: "TaintToleration"}, []int64{50, 40}, "a"))
		if !d.Same {
			t.Errorf("identical cycles differ: %+v", d)
		}
	})
	t.Run("a node became feasible and won", func(t *testing.T) {
		d := DiffCycles(base, cycleOn(2, []int{0, 1, 2}, nil, []int64{50, 40, 90}, "c"))
		if d.Same || !d.OutcomeChanged {
			t.Fatal("no change seen")
		}
		if len(d.BecameFeasible) != 1 || d.BecameFeasible[0].Node != "c" || d.BecameFeasible[0].Before.Plugin != "TaintToleration" {
			t.Errorf("became feasible: %+v", d.BecameFeasible)
		}
		if d.Winner == nil || d.Winner.Before != "a" || d.Winner.After != "c" || d.Winner.Reason != WinnerOutscored || d.Winner.BeforeTotal != 50 || d.Winner.AfterTotal != 90 {
			t.Errorf("winner: %+v", d.Winner)
		}
		if len(d.Scores) != 1 || d.Scores[0].Node != "c" || d.Scores[0].TotalBefore != nil || *d.Scores[0].TotalAfter != 90 {
			t.Errorf("scores: %+v", d.Scores)
		}
	})
	t.Run("the winner was rejected", func(t *testing.T) {
		d := DiffCycles(base, cycleOn(2, []int{1}, map[int]string{0: "NodeResourcesFit", 2: "TaintToleration"}, []int64{40}, "b"))
		if len(d.BecameInfeasible) != 1 || d.BecameInfeasible[0].After.Plugin != "NodeResourcesFit" {
			t.Errorf("became infeasible: %+v", d.BecameInfeasible)
		}
		if d.Winner == nil || d.Winner.Reason != WinnerRejected || d.Winner.Rejection.String() != "NodeResourcesFit: NodeResourcesFit says no" {
			t.Errorf("winner: %+v", d.Winner)
		}
	})
	t.Run("nothing fits any more", func(t *testing.T) {
		d := DiffCycles(base, cycleOn(2, nil, map[int]string{0: "NodeResourcesFit", 1: "NodeResourcesFit", 2: "TaintToleration"}, nil, ""))
		if d.Winner == nil || d.Winner.After != "" || d.Winner.Reason != WinnerNoneFeasible || d.Winner.Rejection == nil {
			t.Errorf("winner: %+v", d.Winner)
		}
		if d.After.Result != ResultUnschedulable {
			t.Errorf("after: %+v", d.After)
		}
	})
	t.Run("another rejection", func(t *testing.T) {
		d := DiffCycles(base, cycleOn(2, []int{0, 1}, map[int]string{2: "NodeResourcesFit"}, []int64{50, 40}, "a"))
		if len(d.RejectionChanged) != 1 || d.RejectionChanged[0].Node != "c" || d.OutcomeChanged {
			t.Errorf("rejection changed: %+v", d.RejectionChanged)
		}
	})
	t.Run("sampling window", func(t *testing.T) {
		after := cycleOn(2, []int{0}, nil, []int64{50}, "a")
		after.NodesToFind = 1
		d := DiffCycles(base, after)
		if d.Sampling == nil || d.Sampling.OnlyBefore != 2 {
			t.Errorf("sampling: %+v", d.Sampling)
		}
		if len(d.BecameInfeasible) != 0 {
			t.Errorf("nodes not evaluated were called infeasible: %+v", d.BecameInfeasible)
		}
	})
	t.Run("nodes renamed", func(t *testing.T) {
		after := cycleOn(2, []int{0, 1}, map[int]string{2: "TaintToleration"}, []int64{50, 40}, "a")
		after.Nodes = &NodeSet{Names: []string{"a", "b", "d"}}
		d := DiffCycles(base, after)
		if strings.Join(d.NodesAdded, ",") != "d" || strings.Join(d.NodesRemoved, ",") != "c" {
			t.Errorf("added %v removed %v", d.NodesAdded, d.NodesRemoved)
		}
	})
}
