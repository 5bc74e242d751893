package commands

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"

	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/visible"
)

// runPodGroup is suggest --pod-group: the changes that let a pod group
// bind, each confirmed by a run of the fixture in which the group's cycle
// binds it.
func (o *SuggestOptions) runPodGroup(ctx context.Context) error {
	silenceKlog()
	fx, group, opts, err := o.podGroupRun(o.PodGroup)
	if err != nil {
		return err
	}
	res, err := engine.SuggestPodGroup(ctx, fx, group, opts)
	if err != nil {
		return err
	}
	switch o.Output {
	case "json", "yaml":
		return writeDocument(o.streams.Out, o.Output, res)
	}
	t := newTextWriter(o.streams.Out)
	t.Printf("suggest: pod group %s in %s\n", group.Key(), fx.Name)
	if b := res.Baseline; b != nil {
		if b.Outcome.Message == "" {
			t.Printf("now: %s\n", b.Outcome.Result)
		} else {
			t.Printf("now: %s: %s\n", b.Outcome.Result, b.Outcome.Message)
		}
	}
	if res.Note != "" {
		t.Printf("%s\n", res.Note)
		return t.Err()
	}
	t.Printf("ran the fixture again %d times, one per candidate change drawn from the group's last cycle\n", res.Tried)
	if len(res.Suggestions) == 0 {
		t.Printf("no single change the search tried lets the group bind\n")
	} else {
		t.Printf("%d change(s) let it bind, smallest first:\n", len(res.Suggestions))
		for i, s := range res.Suggestions {
			what := groupSuggestionText(group, s)
			var placed []string
			for _, k := range slices.Sorted(maps.Keys(s.Bindings)) {
				node := s.Bindings[k]
				if node == "" {
					node = "unbound"
				}
				placed = append(placed, strings.TrimPrefix(k, group.Namespace+"/")+" → "+node)
			}
			t.Printf("  %d. %s: %s\n", i+1, what, strings.Join(placed, ", "))
			if c := groupSuggestionChange(s); c != nil {
				t.Printf("     try: %s\n", o.groupWhatIfCommand(group, c))
			}
		}
	}
	if res.Unconfirmed > 0 {
		t.Printf("%d other change(s) were run and did not let it bind\n", res.Unconfirmed)
	}
	return t.Err()
}

// podGroupRun checks the inputs, loads the fixture and its configuration,
// and finds the pod group name names in it: what suggest and whatif
// --pod-group both start from.
func (o *simOptions) podGroupRun(name string) (*fixture.Fixture, recorder.PodGroupRef, engine.Options, error) {
	if err := o.checkInputs(); err != nil {
		return nil, recorder.PodGroupRef{}, engine.Options{}, err
	}
	fx, err := o.loadFixture()
	if err != nil {
		return nil, recorder.PodGroupRef{}, engine.Options{}, err
	}
	cfg, err := engine.LoadConfigFile(o.Config)
	if err != nil {
		return nil, recorder.PodGroupRef{}, engine.Options{}, err
	}
	group, err := findPodGroup(fx, name)
	if err != nil {
		return nil, recorder.PodGroupRef{}, engine.Options{}, err
	}
	return fx, group, engine.Options{Config: cfg, ConfigPath: o.Config, FeatureGates: featuregates.NonDefault()}, nil
}

// findPodGroup finds the PodGroup name (name, namespace/name, pg/name or
// podgroup/name) among fx's objects; not found, it fails in one line
// naming the fixture's pod groups.
func findPodGroup(fx *fixture.Fixture, name string) (recorder.PodGroupRef, error) {
	ref := strings.TrimPrefix(strings.TrimPrefix(name, "pg/"), "podgroup/")
	var group *recorder.PodGroupRef
	var all []string
	for _, obj := range fx.Objects {
		pg, ok := obj.(*schedulingv1beta1.PodGroup)
		if !ok {
			continue
		}
		g := recorder.PodGroupRef{Namespace: pg.Namespace, Name: pg.Name}
		if g.Namespace == "" {
			g.Namespace = "default"
		}
		all = append(all, visible.String(g.Key()))
		if g.Name == ref || g.Key() == ref {
			group = &g
		}
	}
	if group == nil {
		if len(all) == 0 {
			return recorder.PodGroupRef{}, errorf("no PodGroup %q in %s: it holds none (pod groups need --feature-gates=GenericWorkload=true)", name, fx.Name)
		}
		slices.Sort(all)
		return recorder.PodGroupRef{}, errorf("no PodGroup %q in %s%s; its pod groups are %s", name, fx.Name, input.DidYouMean(ref, all), listSome(all, 20))
	}
	return *group, nil
}

// groupSuggestionChange is the whatif change that makes s.
func groupSuggestionChange(s engine.GroupSuggestion) recorder.Change {
	switch s.Kind {
	case engine.GroupChangeMinCount:
		return recorder.SetMinCount{MinCount: s.MinCount}
	case engine.GroupChangeAddNode:
		return recorder.CopyNode{From: s.LikeNode, Node: s.Node}
	case engine.GroupChangeMemberRequest:
		return recorder.PatchPod{Pod: s.Pod, Patch: s.Patch}
	case engine.GroupChangeEvict:
		var pods []string
		for _, v := range s.Victims {
			pods = append(pods, v.Pod)
		}
		return recorder.Evict{Pods: pods}
	}
	return nil
}

// groupSuggestionText says what a group suggestion changes: "lower the
// gang's minCount to 2", "add a node like s1 (s1-copy)", "lower infer-2's
// request to cpu 800m (what s2 had free)".
func groupSuggestionText(group recorder.PodGroupRef, s engine.GroupSuggestion) string {
	switch s.Kind {
	case engine.GroupChangeMinCount:
		return "lower the gang's minCount to " + strconv.Itoa(int(s.MinCount))
	case engine.GroupChangeAddNode:
		return "add a node like " + s.LikeNode + " (" + s.Node + ")"
	case engine.GroupChangeMemberRequest:
		var asks []string
		for _, r := range slices.Sorted(maps.Keys(s.Requests)) {
			asks = append(asks, r+" "+s.Requests[r])
		}
		return "lower " + strings.TrimPrefix(s.Pod, group.Namespace+"/") + "'s request to " + strings.Join(asks, ", ") + " (what " + s.Node + " had free)"
	case engine.GroupChangeEvict:
		return "evict " + victimsText(group, s.Victims)
	}
	return s.Kind
}

// victimsText names the pods an eviction suggestion evicts, where each
// runs and its priority, and whether the group's members could have
// preempted it.
func victimsText(group recorder.PodGroupRef, vs []engine.GroupVictim) string {
	var names []string
	could := 0
	for _, v := range vs {
		name := strings.TrimPrefix(v.Pod, group.Namespace+"/") + " on " + v.Node + " (priority " + strconv.Itoa(int(v.Priority))
		if v.Preemptible {
			could++
			name += ", preemptible"
		}
		names = append(names, name+")")
	}
	switch {
	case could == 0 && len(vs) == 1:
		return names[0] + ", which the members may not preempt"
	case could == 0:
		return strings.Join(names, ", ") + ", none of which the members may preempt"
	}
	return strings.Join(names, ", ")
}

// groupWhatIfCommand is the whatif --pod-group command line that makes
// changes on this fixture (a group suggestion, a what-if of the debugger).
func (o *simOptions) groupWhatIfCommand(group recorder.PodGroupRef, changes ...recorder.Change) string {
	args := append(o.commandArgs("whatif"), "--pod-group", shellQuote(group.Key()))
	for _, c := range changes {
		ca := changeArgs(c)
		for i := 0; i+1 < len(ca); i += 2 {
			args = append(args, ca[i], shellQuote(ca[i+1]))
		}
	}
	return strings.Join(args, " ")
}
