package recorder

// Placements of a pod group: with kube-scheduler's
// TopologyAwareWorkloadScheduling gate on (Alpha in v1.37.1), a pod-group
// cycle does not place its members on the whole cluster at once. The
// PlacementGenerate plugin (TopologyPlacementGenerator by default) cuts the
// nodes into candidate placements (one per value of the group's topology
// key, or one of every node when the group has no constraint); the cycle
// runs its members' algorithm in each placement in turn, every tentative
// placement reverted after each; when more than one placement fits the
// group, the PlacementScore plugins (PodGroupPodsCount by default) score
// them and the best is taken (a tie broken at random). PodGroupCycle's
// Placements field holds that; it was added to schema version 2 without
// changing the version (additive: older readers ignore the field, newer
// readers find it nil in older recordings and in cycles run without the
// gate).

// PlacementPhase is the placement generation and scoring of a pod-group
// cycle.
type PlacementPhase struct {
	// Generator is the PlacementGenerate plugin that generated the
	// candidates; empty when the profile has none (upstream then tries one
	// placement of every node).
	Generator string `json:"generator,omitempty"`
	// TopologyKey is the node label of the group's topology constraint
	// (spec.schedulingConstraints.topology[0].key), empty when it has none.
	TopologyKey string `json:"topologyKey,omitempty"`
	// Code and Message are what PlacementGenerate returned: anything but
	// Success ends the cycle before any member is tried.
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
	// Candidates are the placements generated, in the order the cycle
	// tried them.
	Candidates []PlacementCandidate `json:"candidates,omitempty"`
	// Scored is set when the PlacementScore plugins ran: only when more
	// than one candidate fit the group.
	Scored bool `json:"scored,omitempty"`
	// Chosen is the number (from 1) of the candidate the cycle submitted;
	// 0 when none fit.
	Chosen int `json:"chosen,omitempty"`
}

// PlacementCandidate is one candidate placement and what became of it.
type PlacementCandidate struct {
	// Name is the name its generator gave it (TopologyPlacementGenerator:
	// the topology domain); Domain the value of the topology key all its
	// nodes share, if they do.
	Name   string   `json:"name"`
	Domain string   `json:"domain,omitempty"`
	Nodes  []string `json:"nodes"`
	// Tried says the cycle ran its members in it (an internal error in an
	// earlier candidate ends the cycle before the rest).
	Tried bool `json:"tried,omitempty"`
	// Members are the members' results in this candidate, in the order the
	// cycle took them.
	Members []PlacementMember `json:"members,omitempty"`
	// Feasible are PlacementFeasible's verdicts in this candidate.
	Feasible []PlacementVerdict `json:"placementFeasible,omitempty"`
	// Code and Message are the candidate's result: Success when the group
	// fit in it.
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// Scores are each PlacementScore plugin's score of it and Total their
	// weighted sum, when the candidates were scored.
	Scores []PlacementPluginScore `json:"scores,omitempty"`
	Total  int64                  `json:"total,omitempty"`
}

// PlacementMember is a member's result in one candidate placement.
type PlacementMember struct {
	Pod     string `json:"pod"`
	Node    string `json:"node,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

// PlacementPluginScore is one PlacementScore plugin's score of a
// candidate: Raw as ScorePlacement returned it, Normalized after
// NormalizePlacementScore (equal to Raw when the plugin has none), Score
// after its weight.
type PlacementPluginScore struct {
	Plugin     string `json:"plugin"`
	Raw        int64  `json:"raw"`
	Normalized int64  `json:"normalized"`
	Score      int64  `json:"score"`
}

// Fit says the group fit in the candidate.
func (c *PlacementCandidate) Fit() bool { return c.Code == CodeSuccess }

// Placed counts the members the candidate placed tentatively.
func (c *PlacementCandidate) Placed() int {
	n := 0
	for _, m := range c.Members {
		if m.Node != "" {
			n++
		}
	}
	return n
}

// ChosenCandidate returns the candidate the cycle submitted, or nil.
func (p *PlacementPhase) ChosenCandidate() *PlacementCandidate {
	if p == nil || p.Chosen < 1 || p.Chosen > len(p.Candidates) {
		return nil
	}
	return &p.Candidates[p.Chosen-1]
}

// Fitting counts the candidates the group fit in.
func (p *PlacementPhase) Fitting() int {
	n := 0
	for i := range p.Candidates {
		if p.Candidates[i].Fit() {
			n++
		}
	}
	return n
}
