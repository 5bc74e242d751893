package narrate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedscope/schedscope/recorder"
)

// Selection says in plain words how the cycle's rule picked its host.
func Selection(c *recorder.Cycle) string {
	s := c.Selection
	if s == nil {
		return ""
	}
	kind := ""
	if c.FastPath != nil {
		kind = c.FastPath.Kind
	}
	return rule(s.Rule, kind, s.Node, len(s.Top), s.Best)
}

func rule(r, fastPath, node string, tied int, best int64) string {
	switch r {
	case recorder.RuleFastPath:
		kind := "fast path"
		if fastPath != "" {
			kind = fastPath + " fast path"
		}
		return "the " + kind + ": " + node + " passed every filter, so nothing else was filtered or scored"
	case recorder.RuleOnlyFeasible:
		return "only one node passed filtering, so it was chosen without scoring"
	case recorder.RuleHighestScore:
		return "highest total score"
	case recorder.RuleTie:
		return fmt.Sprintf("%d nodes tied at %d; the scheduler's max-heap over the nodes, in the order they passed filtering, popped %s first", tied, best, node)
	}
	return r
}

// Loss says how the scored node at row loser came to total less than the one
// at row winner: each plugin's signed part (see ScorePhase.Contributions),
// largest first, so that the parts add up to minus the gap. After three
// parts the rest are summed into one "… N more" part.
func Loss(s *recorder.ScorePhase, winner, loser int) string {
	return contributions(s.Contributions(winner, loser))
}

func contributions(parts []recorder.Contribution) string {
	if len(parts) == 0 {
		return "lower total"
	}
	signed := func(d int64) string {
		if d < 0 {
			return fmt.Sprintf("−%d", -d)
		}
		return fmt.Sprintf("+%d", d)
	}
	const shown = 3
	var out []string
	for i, p := range parts {
		if i == shown && len(parts) > shown+1 {
			var restSum int64
			for _, q := range parts[shown:] {
				restSum += q.Delta
			}
			out = append(out, fmt.Sprintf("… %d more %s", len(parts)-shown, signed(restSum)))
			break
		}
		out = append(out, p.Plugin+" "+signed(p.Delta))
	}
	return strings.Join(out, ", ")
}

// Winner says why the chosen node changed: why the former winner lost its
// place, or why no node won.
func Winner(w *recorder.WinnerChange) string {
	choice := rule(w.Rule, w.FastPath, w.After, w.Tied, w.Best)
	switch w.Reason {
	case recorder.WinnerPreempting:
		return "no node fits as the cluster stands; preemption nominated " + w.NominatedNode
	case recorder.WinnerNoneFeasible:
		s := "no node passes filtering any more"
		switch {
		case w.Rejection != nil:
			s += fmt.Sprintf("; %s is rejected by %s", w.Before, w.Rejection)
		case w.BeforeRemoved:
			s += fmt.Sprintf("; %s is no longer in the cluster", w.Before)
		}
		return s
	case recorder.WinnerNowFeasible:
		return fmt.Sprintf("%s now passes filtering (%s)", w.After, choice)
	case recorder.WinnerRemoved:
		return w.Before + " is no longer in the cluster"
	case recorder.WinnerNotEvaluated:
		return w.Before + " was not evaluated: the search stopped before reaching it (percentageOfNodesToScore)"
	case recorder.WinnerRejected:
		return fmt.Sprintf("%s is now rejected by %s", w.Before, w.Rejection)
	case recorder.WinnerNotScored:
		return fmt.Sprintf("%s passed filtering but was left out of scoring: the search had found enough feasible nodes (percentageOfNodesToScore); %s was chosen", w.Before, w.After)
	case recorder.WinnerNoScores:
		return fmt.Sprintf("%s passed filtering but %s was chosen (%s)", w.Before, w.After, choice)
	case recorder.WinnerTie:
		return fmt.Sprintf("%s and %s tie at %d; %s", w.Before, w.After, w.AfterTotal, choice)
	case recorder.WinnerOutscored:
		return fmt.Sprintf("%s scores %d against %d for %s: %s", w.Before, w.BeforeTotal, w.AfterTotal, w.After, contributions(w.Contributions))
	}
	return w.Reason
}

// Losers says, for each scored node but the chosen one (at most max), why
// it was not chosen: how much it lost by and which plugins made the
// difference (Loss), or that it tied and lost the tie-break.
func Losers(c *recorder.Cycle, max int) []string {
	s, sel := c.Score, c.Selection
	if s == nil || sel == nil || len(s.Totals) < 2 {
		return nil
	}
	// The winner is found by the recorded indices when its name cannot be
	// looked up; the best total needs no name at all.
	win := c.WinnerRow()
	best := slices.Max(s.Totals)
	if win >= 0 {
		best = s.Totals[win] // the highest, unless the recording says otherwise
	}
	var out []string
	if win < 0 {
		out = append(out, fmt.Sprintf("which scored node is %s cannot be told without the node names; the others' totals are compared with the best, %d.", sel.Node, best))
	}
	shown := 0
	for i, n := range s.Nodes {
		if i == win || shown >= max {
			continue
		}
		shown++
		name := c.NodeName(n)
		switch {
		case s.Totals[i] > best:
			out = append(out, fmt.Sprintf("%s scored %d, more than %s, and was not chosen.", name, s.Totals[i], sel.Node))
		case s.Totals[i] == best && win >= 0:
			out = append(out, fmt.Sprintf("%s tied at %d and lost the tie-break.", name, best))
		case s.Totals[i] == best:
			out = append(out, fmt.Sprintf("%s tied at %d.", name, best))
		case win >= 0:
			out = append(out, fmt.Sprintf("%s lost by %d: %s", name, best-s.Totals[i], Loss(s, win, i)))
		default:
			out = append(out, fmt.Sprintf("%s lost by %d.", name, best-s.Totals[i]))
		}
	}
	return out
}
