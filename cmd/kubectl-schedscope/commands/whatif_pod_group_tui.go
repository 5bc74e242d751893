package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/text"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/tui/pages/groupwhatif"
)

// groupWhatIfSource is the debugger's what-if on a pod group: it runs the
// session's fixture again, as whatif --pod-group and suggest --pod-group
// do, each time it is asked (a run is of the whole fixture, never the
// session's engine).
type groupWhatIfSource struct {
	ctx context.Context
	o   *simOptions
}

var _ groupwhatif.Source = (*groupWhatIfSource)(nil)

// newGroupWhatIfSource returns the debugger's group what-if over the
// fixture and configuration of o; ctx ends its runs.
func newGroupWhatIfSource(ctx context.Context, o *simOptions) *groupWhatIfSource {
	return &groupWhatIfSource{ctx: ctx, o: o}
}

// noGroupWhatIfLive says why live has no group what-if.
const noGroupWhatIfLive = "a pod group's what-if runs a fixture again, and live has none: save the cluster with kubectl schedscope snapshot, then sim -f it"

// Change implements groupwhatif.Source with whatif's flags.
func (s *groupWhatIfSource) Change(flag, value string) (recorder.Change, error) {
	switch flag {
	case "":
		return changeOfArgs(value)
	case "requests":
		return s.requestPatch(value)
	}
	return changeOfFlag(flag, value)
}

// changeOfFlag reads value as whatif's --flag takes it; errors name the
// flag.
func changeOfFlag(flag, value string) (recorder.Change, error) {
	i := slices.IndexFunc(changeFlagList, func(f changeFlag) bool { return f.name == flag })
	if i < 0 {
		names := make([]string, len(changeFlagList))
		for j, f := range changeFlagList {
			names[j] = "--" + f.name
		}
		return nil, errorf("no whatif flag --%s%s; they are %s", input.Quote(flag), input.DidYouMean(flag, names), strings.Join(names, ", "))
	}
	f := changeFlagList[i]
	ch, err := f.parse(value)
	switch {
	case err != nil && (f.file || errors.As(err, new(fileError))):
		return nil, errorf("--%s: %v", f.name, err)
	case err != nil:
		return nil, errorf("--%s %q: %v", f.name, input.Quote(value), err)
	}
	return ch, nil
}

// changeOfArgs reads one change written as whatif's flags: "--flag value"
// or "--flag=value".
func changeOfArgs(args string) (recorder.Change, error) {
	args = strings.TrimSpace(args)
	name, ok := strings.CutPrefix(args, "--")
	if !ok || name == "" {
		return nil, errorf("want one change as whatif's flags, e.g. --remove-node s2")
	}
	value := ""
	if i := strings.IndexAny(name, "= "); i >= 0 {
		name, value = name[:i], strings.TrimSpace(name[i+1:])
	}
	return changeOfFlag(name, value)
}

// requestPatch reads "MEMBER RESOURCE=QUANTITY …" as a patch that sets the
// member's requests: each resource in the one container that requests it
// (the first container when none does).
func (s *groupWhatIfSource) requestPatch(value string) (recorder.Change, error) {
	fields := strings.Fields(value)
	if len(fields) < 2 {
		return nil, errorf("want MEMBER RESOURCE=QUANTITY…, e.g. infer-2 cpu=800m")
	}
	fx, err := s.o.loadFixture()
	if err != nil {
		return nil, err
	}
	member := fields[0]
	i := slices.IndexFunc(fx.Pending, func(p *v1.Pod) bool {
		ns := p.Namespace
		if ns == "" {
			ns = "default"
		}
		return p.Name == member || ns+"/"+p.Name == member
	})
	if i < 0 {
		return nil, errorf("no pending pod %q in %s", input.Quote(member), fx.Name)
	}
	pod := fx.Pending[i]
	if len(pod.Spec.Containers) == 0 {
		return nil, errorf("pod %s has no containers", pod.Name)
	}
	byContainer := map[string]map[string]string{}
	for _, f := range fields[1:] {
		name, q, ok := strings.Cut(f, "=")
		if !ok || name == "" {
			return nil, errorf("%q: want RESOURCE=QUANTITY, e.g. cpu=800m", input.Quote(f))
		}
		if _, err := resource.ParseQuantity(q); err != nil {
			return nil, errorf("%q: %q is not a quantity (e.g. 800m, 1Gi)", input.Quote(f), input.Quote(q))
		}
		var in []string
		for _, c := range pod.Spec.Containers {
			if _, ok := c.Resources.Requests[v1.ResourceName(name)]; ok {
				in = append(in, c.Name)
			}
		}
		switch len(in) {
		case 0:
			in = []string{pod.Spec.Containers[0].Name}
		case 1:
		default:
			return nil, errorf("%s's containers %s each request %s: patch the one you mean with f and --patch-pod", pod.Name, strings.Join(in, ", "), name)
		}
		if byContainer[in[0]] == nil {
			byContainer[in[0]] = map[string]string{}
		}
		byContainer[in[0]][name] = q
	}
	var ctrs []map[string]any
	for _, name := range slices.Sorted(maps.Keys(byContainer)) {
		ctrs = append(ctrs, map[string]any{"name": name, "resources": map[string]any{"requests": byContainer[name]}})
	}
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"containers": ctrs}})
	if err != nil {
		return nil, err
	}
	return recorder.PatchPod{Pod: member, Patch: string(patch), Why: fmt.Sprintf("%s requests %s", member, strings.Join(fields[1:], " "))}, nil
}

// Run implements groupwhatif.Source: whatif --pod-group.
func (s *groupWhatIfSource) Run(group recorder.PodGroupRef, changes []recorder.Change) (*groupwhatif.Result, error) {
	silenceKlog()
	fx, _, opts, err := s.o.podGroupRun(group.Key())
	if err != nil {
		return nil, err
	}
	w, err := engine.WhatIfPodGroup(s.ctx, fx, group, opts, changes...)
	if ce := (*engine.ChangeError)(nil); errors.As(err, &ce) {
		return nil, errorf("%s: %v", strings.Join(changeArgs(ce.Change), " "), ce.Err)
	}
	if err != nil {
		return nil, err
	}
	return &groupwhatif.Result{Group: group, Changes: changes, Before: w.Before, After: w.After,
		BindingsBefore: w.BindingsBefore, BindingsAfter: w.BindingsAfter,
		Command: s.o.groupWhatIfCommand(group, changes...)}, nil
}

// Suggest implements groupwhatif.Source: suggest --pod-group.
func (s *groupWhatIfSource) Suggest(group recorder.PodGroupRef) (*groupwhatif.SuggestResult, error) {
	silenceKlog()
	fx, _, opts, err := s.o.podGroupRun(group.Key())
	if err != nil {
		return nil, err
	}
	res, err := engine.SuggestPodGroup(s.ctx, fx, group, opts)
	if err != nil {
		return nil, err
	}
	out := &groupwhatif.SuggestResult{Group: group, Now: res.Baseline, Tried: res.Tried, Unconfirmed: res.Unconfirmed, Note: res.Note}
	for _, sg := range res.Suggestions {
		c := groupSuggestionChange(sg)
		g := groupwhatif.Suggestion{Text: text.GroupSuggestion(group, sg), Change: c, Bindings: sg.Bindings, Cycle: sg.Cycle}
		if c != nil {
			g.Command = s.o.groupWhatIfCommand(group, c)
		}
		out.Suggestions = append(out.Suggestions, g)
	}
	return out, nil
}
