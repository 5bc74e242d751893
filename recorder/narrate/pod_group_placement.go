package narrate

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
)

// PlacementsHeading says how a pod-group cycle's candidate placements were
// made: by which plugin, over which topology key, and how many fit.
func PlacementsHeading(p *recorder.PlacementPhase) string {
	gen := p.Generator
	if gen == "" {
		gen = "no PlacementGenerate plugin (one placement of every node)"
	}
	s := fmt.Sprintf("placements: %d candidate(s) from %s", len(p.Candidates), gen)
	if p.TopologyKey != "" {
		s += ", one per " + p.TopologyKey
	}
	if p.Code != "" && p.Code != recorder.CodeSuccess {
		s += "; PlacementGenerate " + p.Code
		if p.Message != "" {
			s += ": " + p.Message
		}
		return s
	}
	s += fmt.Sprintf("; the group fit in %d", p.Fitting())
	switch {
	case p.Scored:
		s += ", scored by the PlacementScore plugins"
	case p.Fitting() == 1:
		s += ", taken without scoring"
	}
	return s
}

// PlacementName is a candidate's name for a list: its generator's name, or
// "(all nodes)" for the unnamed placement of every node.
func PlacementName(c *recorder.PlacementCandidate) string {
	if c.Name == "" {
		return "(all nodes)"
	}
	return c.Name
}

// PlacementResult says what became of one candidate: not tried, fit (and
// whether chosen), or why the group did not fit in it.
func PlacementResult(p *recorder.PlacementPhase, k int) string {
	c := &p.Candidates[k]
	if !c.Tried {
		return "not tried"
	}
	placed := fmt.Sprintf("%d of %d member(s) placed", c.Placed(), len(c.Members))
	if c.Fit() {
		s := "fit, " + placed
		if p.Chosen == k+1 {
			s = "chosen: " + s
		}
		return s
	}
	s := c.Code
	if s == "" {
		s = "did not fit"
	}
	if c.Message != "" {
		s += ": " + c.Message
	}
	return s + " (" + placed + ")"
}

// PlacementMembers lists where each member went in a candidate.
func PlacementMembers(c *recorder.PlacementCandidate) string {
	var parts []string
	for _, m := range c.Members {
		switch {
		case m.Node != "":
			parts = append(parts, m.Pod+"→"+m.Node)
		case m.Code != "":
			parts = append(parts, m.Pod+" ✗")
		default:
			parts = append(parts, m.Pod+" not reached")
		}
	}
	return strings.Join(parts, ", ")
}

// PlacementScores lists a scored candidate's scores per plugin, raw →
// normalized → weighted where they differ, and its total.
func PlacementScores(c *recorder.PlacementCandidate) string {
	if len(c.Scores) == 0 {
		return ""
	}
	var parts []string
	for _, s := range c.Scores {
		v := fmt.Sprint(s.Raw)
		if s.Normalized != s.Raw {
			v += fmt.Sprintf("→%d", s.Normalized)
		}
		if s.Score != s.Normalized {
			v += fmt.Sprintf("→%d", s.Score)
		}
		parts = append(parts, s.Plugin+" "+v)
	}
	return fmt.Sprintf("total %d = %s", c.Total, strings.Join(parts, " + "))
}

// PlacementChosen says which candidate the cycle submitted and why, or
// that none fit.
func PlacementChosen(p *recorder.PlacementPhase) string {
	c := p.ChosenCandidate()
	switch {
	case c != nil && p.Scored:
		return fmt.Sprintf("chosen: %s, the highest total (a tie is broken at random)", PlacementName(c))
	case c != nil:
		return fmt.Sprintf("chosen: %s, the only candidate the group fit in", PlacementName(c))
	case len(p.Candidates) > 0 && p.Fitting() == 0:
		return fmt.Sprintf("no candidate fit: the members' rows and PlacementFeasible's verdicts are those of the first one tried, %s, whose status upstream reports", PlacementName(&p.Candidates[0]))
	}
	return ""
}

// FeasibleHeading is the heading of a pod-group cycle's PlacementFeasible
// verdicts: with placements, the candidate they were given in (the one
// submitted: the chosen, or the first tried when none fit).
func FeasibleHeading(g *recorder.PodGroupCycle) string {
	p := g.Placements
	if p == nil || len(p.Candidates) == 0 {
		return "PlacementFeasible"
	}
	if c := p.ChosenCandidate(); c != nil {
		return "PlacementFeasible in " + PlacementName(c) + " (chosen)"
	}
	return "PlacementFeasible in " + PlacementName(&p.Candidates[0]) + " (first tried)"
}

// inPlacement says which candidate placement a member's recorded run was
// in, for MemberThroughGroup: " in placement zone-b (chosen of 2)", or ""
// without placements.
func inPlacement(g *recorder.PodGroupCycle) string {
	p := g.Placements
	if p == nil || len(p.Candidates) == 0 {
		return ""
	}
	if c := p.ChosenCandidate(); c != nil {
		return fmt.Sprintf(" in placement %s (chosen of %d)", PlacementName(c), len(p.Candidates))
	}
	return fmt.Sprintf(" in placement %s (the first tried of %d; the group fit in none)", PlacementName(&p.Candidates[0]), len(p.Candidates))
}

// PlacementsDoc says what a pod-group cycle's placements are, for the
// teaching panels of a cycle that has them.
const PlacementsDoc = "With TopologyAwareWorkloadScheduling (Alpha) the cycle does not place the group on the whole cluster at once. " +
	"A PlacementGenerate plugin (TopologyPlacementGenerator) cuts the nodes into candidate placements, one per value of the group's topology key " +
	"(spec.schedulingConstraints.topology), or one of every node without a constraint. " +
	"The cycle tries the group in each candidate in turn, its members seeing only that candidate's nodes, and reverts every tentative placement after each. " +
	"When the group fits in more than one, the PlacementScore plugins (PodGroupPodsCount: more members placed is better; NodeResourcesFit) score them and the highest total is submitted, a tie broken at random; " +
	"when it fits in none, the group fails with the first candidate's status. The members and verdicts shown are those of the candidate submitted."
