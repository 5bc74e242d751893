package narrate

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
)

// SummaryOutcome says how a cycle summary ended, in one line.
func SummaryOutcome(s recorder.CycleSummary) string {
	return outcome(s.Result, s.Node, s.NominatedNode, s.Message)
}

// Diff words the diff for a person, most important first (the outcomes
// themselves are the caller's to print, see SummaryOutcome): winner,
// filter changes, score changes, sampling. At most maxRows nodes are listed
// per section; the rest are counted.
func Diff(d *recorder.CycleDiff, maxRows int) []string {
	return diff(d, maxRows, true)
}

// DiffBelowWinner is Diff without the winner, for a view that shows the
// winner above it.
func DiffBelowWinner(d *recorder.CycleDiff, maxRows int) []string {
	return diff(d, maxRows, false)
}

func diff(d *recorder.CycleDiff, maxRows int, winner bool) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if d.Same {
		return []string{"no difference: the same feasible nodes, scores, node and message"}
	}
	if !d.OutcomeChanged && d.Before.Message != d.After.Message {
		add("message: %q  →  %q", d.Before.Message, d.After.Message)
	}
	if w := d.Winner; w != nil && winner {
		add("winner: %s  →  %s: %s", orNone(w.Before), orNone(w.After), Winner(w))
	}
	if len(d.NodesAdded) > 0 {
		add("nodes added: %s", strings.Join(limitNames(d.NodesAdded, maxRows), ", "))
	}
	if len(d.NodesRemoved) > 0 {
		add("nodes removed: %s", strings.Join(limitNames(d.NodesRemoved, maxRows), ", "))
	}
	if len(d.Weights) > 0 {
		var ws []string
		for _, w := range d.Weights {
			ws = append(ws, fmt.Sprintf("%s %d → %d", w.Plugin, w.Before, w.After))
		}
		add("score weights: %s", strings.Join(ws, ", "))
	}
	section := func(title string, rows []recorder.NodeFilterChange, line func(recorder.NodeFilterChange) string) {
		if len(rows) == 0 {
			return
		}
		add("%s (%d):", title, len(rows))
		for i, r := range rows {
			if i == maxRows {
				add("  … %d more", len(rows)-maxRows)
				break
			}
			add("  %s", line(r))
		}
	}
	section("became feasible", d.BecameFeasible, func(r recorder.NodeFilterChange) string {
		return fmt.Sprintf("%s  (was rejected by %s)", r.Node, r.Before)
	})
	section("became infeasible", d.BecameInfeasible, func(r recorder.NodeFilterChange) string {
		return fmt.Sprintf("%s  (now rejected by %s)", r.Node, r.After)
	})
	section("rejected for another reason", d.RejectionChanged, func(r recorder.NodeFilterChange) string {
		return fmt.Sprintf("%s  %s  →  %s", r.Node, r.Before, r.After)
	})
	if len(d.Scores) > 0 {
		// Nodes whose scores changed the same way share a row: a large
		// cluster of identical nodes reads as one line, not hundreds.
		type row struct {
			nodes []string
			line  string
		}
		var rows []*row
		byLine := map[string]*row{}
		for _, s := range d.Scores {
			var parts []string
			for _, p := range s.Plugins {
				parts = append(parts, fmt.Sprintf("%s %+d", p.Plugin, p.After-p.Before))
			}
			detail := ""
			if len(parts) > 0 {
				detail = "  (" + strings.Join(parts, ", ") + ")"
			}
			line := fmt.Sprintf("%s → %s%s", total(s.TotalBefore), total(s.TotalAfter), detail)
			r := byLine[line]
			if r == nil {
				r = &row{line: line}
				byLine[line] = r
				rows = append(rows, r)
			}
			r.nodes = append(r.nodes, s.Node)
		}
		add("scores (weighted, %d node(s) changed):", len(d.Scores))
		for i, r := range rows {
			if i == maxRows {
				add("  … %d more", len(rows)-maxRows)
				break
			}
			names := r.nodes[0]
			switch n := len(r.nodes); {
			case n == 2:
				names += ", " + r.nodes[1]
			case n > 2:
				names += fmt.Sprintf(", %s and %d more", r.nodes[1], n-2)
			}
			add("  %s  %s", names, r.line)
		}
	}
	if s := d.Sampling; s != nil {
		add("search window: started at node %d → %d, stops after %d → %d feasible, %d → %d evaluated (%d only before, %d only after)",
			s.SearchStartBefore, s.SearchStartAfter, s.NodesToFindBefore, s.NodesToFindAfter,
			s.EvaluatedBefore, s.EvaluatedAfter, s.OnlyBefore, s.OnlyAfter)
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func total(t *int64) string {
	if t == nil {
		return "not scored"
	}
	return fmt.Sprint(*t)
}

func limitNames(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(s[:n:n], fmt.Sprintf("… %d more", len(s)-n))
}
