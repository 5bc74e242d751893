package commands

import (
	"context"
	"slices"
	"strings"

	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/text"
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
		return export.Write(o.streams.Out, o.Output, res)
	}
	commands := make([]string, len(res.Suggestions))
	for i, s := range res.Suggestions {
		if c := groupSuggestionChange(s); c != nil {
			commands[i] = o.groupWhatIfCommand(group, c)
		}
	}
	t := text.New(o.streams.Out)
	t.GroupSuggest(fx.Name, group, res, commands)
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
