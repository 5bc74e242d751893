package otel

import (
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/schedscope/schedscope/recorder"
)

// placementAttributes are the attributes a pod-group cycle run with
// TopologyAwareWorkloadScheduling adds to its SchedulePodGroup span: how
// its candidate placements were generated, how many fit, which was chosen.
func placementAttributes(g *recorder.PodGroupCycle) []attribute.KeyValue {
	p := g.Placements
	if p == nil {
		return nil
	}
	attrs := []attribute.KeyValue{
		attribute.Int("schedscope.pod_group.placement.candidates", len(p.Candidates)),
		attribute.Int("schedscope.pod_group.placement.fitting", p.Fitting()),
		attribute.Bool("schedscope.pod_group.placement.scored", p.Scored),
		attribute.String("schedscope.pod_group.placement.generate_code", p.Code),
	}
	if p.Generator != "" {
		attrs = append(attrs, attribute.String("schedscope.pod_group.placement.generator", p.Generator))
	}
	if p.TopologyKey != "" {
		attrs = append(attrs, attribute.String("schedscope.pod_group.placement.topology_key", p.TopologyKey))
	}
	if c := p.ChosenCandidate(); c != nil {
		attrs = append(attrs, attribute.String("schedscope.pod_group.placement.chosen", c.Name))
	}
	return attrs
}

// addPlacementEvents adds an event "placement" a candidate, in the order
// the cycle tried them: its name, domain and nodes, whether it was tried
// and chosen, its result, its members' nodes and its scores.
func addPlacementEvents(s trace.Span, g *recorder.PodGroupCycle, at time.Time) {
	p := g.Placements
	if p == nil {
		return
	}
	for k := range p.Candidates {
		c := &p.Candidates[k]
		attrs := []attribute.KeyValue{
			attribute.String("schedscope.pod_group.placement.name", c.Name),
			attribute.Int("schedscope.pod_group.placement.index", k+1),
			attribute.StringSlice("schedscope.pod_group.placement.nodes", c.Nodes),
			attribute.Bool("schedscope.pod_group.placement.tried", c.Tried),
			attribute.Bool("schedscope.pod_group.placement.is_chosen", p.Chosen == k+1),
		}
		if c.Domain != "" {
			attrs = append(attrs, attribute.String("schedscope.pod_group.placement.domain", c.Domain))
		}
		if c.Code != "" {
			attrs = append(attrs, attribute.String("schedscope.plugin.code", c.Code))
		}
		if c.Message != "" {
			attrs = append(attrs, attribute.String("schedscope.message", c.Message))
		}
		if c.Tried {
			var members []string
			for _, m := range c.Members {
				if m.Node != "" {
					members = append(members, m.Pod+"@"+m.Node)
				}
			}
			attrs = append(attrs, attribute.StringSlice("schedscope.pod_group.placement.members", members))
		}
		if len(c.Scores) > 0 {
			scores := make([]string, len(c.Scores))
			for i, sc := range c.Scores {
				scores[i] = sc.Plugin + "=" + strconv.FormatInt(sc.Score, 10)
			}
			attrs = append(attrs,
				attribute.StringSlice("schedscope.pod_group.placement.scores", scores),
				attribute.Int64("schedscope.pod_group.placement.total", c.Total))
		}
		s.AddEvent("placement", trace.WithTimestamp(at), trace.WithAttributes(attrs...))
	}
}
