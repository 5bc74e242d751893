package commands

import (
	"slices"
	"strings"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/report"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/visible"
)

// memberGroups keeps the pod-group cycles cycles were members' cycles of.
func memberGroups(groups []*recorder.PodGroupCycle, cycles []*recorder.Cycle) []*recorder.PodGroupCycle {
	var kept []*recorder.PodGroupCycle
	for _, g := range groups {
		for _, c := range cycles {
			if g.Member(c.Seq) != nil {
				kept = append(kept, g)
				break
			}
		}
	}
	return kept
}

// printPodGroup explains one pod group: its pod-group cycles, each with its
// members' own cycles, and where its members stand.
func (o *ExplainOptions) printPodGroup(header recorder.Header, fx *fixture.Fixture, warnings []string, problems []error,
	cycles []*recorder.Cycle, groups []*recorder.PodGroupCycle, queue []*recorder.QueueEvent, pods []recorder.PodState) error {
	ref := strings.TrimPrefix(strings.TrimPrefix(o.PodGroup, "pg/"), "podgroup/")
	var kept []*recorder.PodGroupCycle
	names := map[string]bool{}
	var all []string
	for _, g := range groups {
		if !names[g.Group.Key()] {
			names[g.Group.Key()] = true
			all = append(all, visible.String(g.Group.Key()))
		}
		if g.Group.Name == ref || g.Group.Key() == ref || g.HoldsPodGroup(ref) {
			kept = append(kept, g)
		}
	}
	if len(kept) == 0 {
		if len(all) == 0 {
			return errorf("no pod-group cycle for %q in %s: it ran none (pod groups need --feature-gates=GenericWorkload=true, and a group waits until minCount members exist)", o.PodGroup, fx.Name)
		}
		return errorf("no pod-group cycle for %q in %s%s; its pod groups are %s", o.PodGroup, fx.Name, input.DidYouMean(ref, all), listSome(all, 20))
	}
	members := map[string]bool{}
	seqs := map[int]bool{}
	for _, g := range kept {
		for _, m := range g.Members {
			members[m.Pod.Key()] = true
			seqs[m.Cycle] = true
		}
	}
	var keptCycles []*recorder.Cycle
	for _, c := range cycles {
		if seqs[c.Seq] {
			keptCycles = append(keptCycles, c)
		}
	}
	var keptPods []recorder.PodState
	for _, p := range pods {
		if members[p.Pod.Key()] {
			keptPods = append(keptPods, p)
		}
	}
	out := report.Cycles{Header: header, Source: "fixture " + fx.Name, Warnings: append(slices.Clone(fx.Warnings), warnings...),
		Problems: problems, Cycles: keptCycles, Groups: kept, GroupsOnly: true, GroupQueue: queue, Pods: keptPods}
	return o.finish(out, problems, keptPods)
}
