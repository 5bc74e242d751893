package engine

import (
	"context"
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// A pod group that did not bind is asked about as a whole: which small
// change to the fixture lets the group bind? Each candidate is drawn from
// the group's last pod-group cycle and confirmed by running the fixture
// again with it, which runs the group's cycle again as kube-scheduler
// would: a gang's minCount lowered to the members its cycle placed, or a
// node like one of the cluster's added.

// Kinds of change a group suggestion makes (recorder's).
const (
	GroupChangeMinCount      = recorder.GroupChangeMinCount
	GroupChangeAddNode       = recorder.GroupChangeAddNode
	GroupChangeMemberRequest = recorder.GroupChangeMemberRequest
	GroupChangeEvict         = recorder.GroupChangeEvict
)

// A GroupSuggestion is one change a re-run confirmed lets the pod group
// bind, a GroupSuggestResult what SuggestPodGroup found, as recorder's
// plain data.
type (
	GroupSuggestion    = recorder.GroupSuggestion
	GroupSuggestResult = recorder.GroupSuggestResult
)

// maxNodeCandidates bounds how many node shapes a search adds, one run each.
const maxNodeCandidates = 8

// SuggestPodGroup runs fx, finds group's last pod-group cycle and, if the
// group did not bind, tries each candidate change in a run of its own.
// The process must run with GenericWorkload on, as fx was loaded. opts are
// the runs' options (configuration, gates); their callbacks are replaced.
func SuggestPodGroup(ctx context.Context, fx *fixture.Fixture, group recorder.PodGroupRef, opts Options) (*GroupSuggestResult, error) {
	if len(fx.Steps) > 0 {
		return nil, fmt.Errorf("%s: a timeline: suggestions for a pod group are drawn from a fixture without steps", fx.Name)
	}
	res := &GroupSuggestResult{Group: group}
	var cycles []*recorder.Cycle
	base, _, _, err := runForGroupHeader(ctx, fx, group, opts, func(c *recorder.Cycle) { cycles = append(cycles, c) })
	if err != nil {
		return nil, err
	}
	res.Baseline = base
	switch {
	case base == nil:
		res.Note = "the group ran no pod-group cycle: it has fewer members than its minCount, or none"
		return res, nil
	case base.Outcome.Result == recorder.ResultBound:
		res.Note = "the group binds as it is"
		return res, nil
	}
	for _, c := range slices.Concat(groupCandidates(fx, base), memberRequestCandidates(fx, base, cycles), victimCandidates(fx, base, cycles)) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		changed, err := c.apply(fx)
		if err != nil {
			return nil, err
		}
		res.Tried++
		g, bindings, err := runForGroup(ctx, changed, group, opts)
		if err != nil {
			return nil, err
		}
		if g == nil || g.Outcome.Result != recorder.ResultBound {
			res.Unconfirmed++
			continue
		}
		s := c.GroupSuggestion
		s.Bindings, s.Cycle = bindings, g
		res.Suggestions = append(res.Suggestions, s)
	}
	slices.SortStableFunc(res.Suggestions, func(a, b GroupSuggestion) int { return a.Cost - b.Cost })
	return res, nil
}

// groupCandidate is a change to try, with how to make it.
type groupCandidate struct {
	GroupSuggestion
	apply func(*fixture.Fixture) (*fixture.Fixture, error)
}

// groupCandidates draws the changes to try from the group's failed cycle:
// minCount lowered to the members it placed, when some were; a node like
// each of the cluster's (one of each shape, by allocatable), as a node
// added for the members that fit nowhere.
func groupCandidates(fx *fixture.Fixture, g *recorder.PodGroupCycle) []groupCandidate {
	var out []groupCandidate
	placed := int32(0)
	for _, m := range g.Members {
		if m.Node != "" {
			placed++
		}
	}
	if g.Policy == recorder.PolicyGang && placed > 0 && placed < g.MinCount {
		out = append(out, groupCandidate{
			GroupSuggestion: GroupSuggestion{Kind: GroupChangeMinCount, MinCount: placed, Cost: 1},
			apply: func(fx *fixture.Fixture) (*fixture.Fixture, error) {
				return rebuild(fx, func(o runtime.Object) runtime.Object {
					pg, ok := o.(*schedulingv1beta1.PodGroup)
					if !ok || pg.Name != g.Group.Name || namespaceOf(pg.Namespace) != g.Group.Namespace || pg.Spec.SchedulingPolicy.Gang == nil {
						return o
					}
					pg = pg.DeepCopy()
					pg.Spec.SchedulingPolicy.Gang.MinCount = placed
					return pg
				}, nil)
			},
		})
	}
	names := map[string]bool{}
	var nodes []*v1.Node
	for _, o := range fx.Objects {
		if n, ok := o.(*v1.Node); ok {
			names[n.Name] = true
			nodes = append(nodes, n)
		}
	}
	slices.SortFunc(nodes, func(a, b *v1.Node) int {
		if a.Name < b.Name {
			return -1
		}
		return 1
	})
	shapes := map[string]bool{}
	for _, n := range nodes {
		shape := fmt.Sprint(n.Status.Allocatable, n.Labels, n.Spec.Taints)
		if shapes[shape] || len(shapes) >= maxNodeCandidates {
			continue
		}
		shapes[shape] = true
		name := n.Name + "-copy"
		for i := 2; names[name]; i++ {
			name = fmt.Sprintf("%s-copy-%d", n.Name, i)
		}
		like := n
		out = append(out, groupCandidate{
			GroupSuggestion: GroupSuggestion{Kind: GroupChangeAddNode, Node: name, LikeNode: n.Name, Cost: 2},
			apply: func(fx *fixture.Fixture) (*fixture.Fixture, error) {
				added := like.DeepCopy()
				added.Name, added.UID, added.ResourceVersion = name, "", ""
				if _, ok := added.Labels[v1.LabelHostname]; ok {
					added.Labels[v1.LabelHostname] = name
				}
				return rebuild(fx, func(o runtime.Object) runtime.Object { return o }, added)
			},
		})
	}
	return out
}

// rebuild makes a fixture of fx's documents, each passed through edit, with
// extra before the first pending pod.
func rebuild(fx *fixture.Fixture, edit func(runtime.Object) runtime.Object, extra runtime.Object) (*fixture.Fixture, error) {
	var objs []runtime.Object
	for _, o := range fx.Objects {
		objs = append(objs, edit(o.DeepCopyObject()))
	}
	if extra != nil {
		objs = append(objs, extra)
	}
	for _, p := range fx.Pending {
		objs = append(objs, edit(p.DeepCopy()))
	}
	return fixture.New(fx.Name, objs)
}

// runForGroup runs fx and returns group's cycle that bound it, or its last
// (nil when it ran none), and where its members ended. A gang that bound
// stays scheduled (its PodGroupInitiallyScheduled condition does not go
// back to False): a member arriving after it is tried in a cycle of its
// own, which may fail.
func runForGroup(ctx context.Context, fx *fixture.Fixture, group recorder.PodGroupRef, opts Options) (*recorder.PodGroupCycle, map[string]string, error) {
	g, bindings, _, err := runForGroupHeader(ctx, fx, group, opts, nil)
	return g, bindings, err
}

// runForGroupHeader is runForGroup that also returns the run's header;
// onCycle, when set, hears each pod cycle of the run.
func runForGroupHeader(ctx context.Context, fx *fixture.Fixture, group recorder.PodGroupRef, opts Options, onCycle func(*recorder.Cycle)) (*recorder.PodGroupCycle, map[string]string, recorder.Header, error) {
	var last *recorder.PodGroupCycle
	opts.OnCycle, opts.OnQueue, opts.OnDecided, opts.Gate = onCycle, nil, nil, nil
	opts.OnPodGroup = func(g *recorder.PodGroupCycle) {
		if g.Group == group && (last == nil || last.Outcome.Result != recorder.ResultBound) {
			last = g
		}
	}
	e, err := New(ctx, fx, opts)
	if err != nil {
		return nil, nil, recorder.Header{}, err
	}
	res, err := e.Run(ctx)
	if err != nil {
		return nil, nil, recorder.Header{}, err
	}
	bindings := map[string]string{}
	for _, p := range fx.Pending {
		if sg := p.Spec.SchedulingGroup; sg != nil && sg.PodGroupName != nil && *sg.PodGroupName == group.Name && namespaceOf(p.Namespace) == group.Namespace {
			key := namespaceOf(p.Namespace) + "/" + p.Name
			bindings[key] = res.Bindings[key]
		}
	}
	return last, bindings, e.Header(), nil
}

// namespaceOf is ns, or default when it is empty (as a fixture's objects
// without one are created).
func namespaceOf(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}
