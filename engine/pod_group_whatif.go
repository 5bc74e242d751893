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
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// A what-if on a pod group changes the whole fixture, not one cycle's
// state: a group's cycle runs every member against one snapshot, so the
// fixture is run once as it is and once changed, and the group's pod-group
// cycle of each run is compared. The cluster and configuration changes are
// the ones a fork takes (made by a Fork over the fixture's nodes and
// placed pods, so they are checked the same way); a member's patch and the
// gang's minCount are the group's own.

// GroupWhatIf is a pod group's cycle before and after changes, as
// recorder's plain data.
type GroupWhatIf = recorder.GroupWhatIf

// WhatIfPodGroup runs fx as it is and with changes, and returns group's
// pod-group cycle in each. opts are the runs' options; their callbacks are
// replaced. A change that cannot be made fails in one line naming it.
func WhatIfPodGroup(ctx context.Context, fx *fixture.Fixture, group recorder.PodGroupRef, opts Options, changes ...recorder.Change) (*GroupWhatIf, error) {
	if len(fx.Steps) > 0 {
		return nil, fmt.Errorf("%s: a timeline: a what-if on a pod group re-runs a fixture without steps", fx.Name)
	}
	// The run as it is comes first: its header holds the profiles'
	// plugins, which the configuration changes are checked against.
	w := &GroupWhatIf{Group: group}
	var header recorder.Header
	var err error
	if w.Before, w.BindingsBefore, header, err = runForGroupHeader(ctx, fx, group, opts, nil); err != nil {
		return nil, err
	}
	changed, changedOpts, err := withGroupChanges(fx, group, header, opts, changes)
	if err != nil {
		return nil, err
	}
	if w.After, w.BindingsAfter, err = runForGroup(ctx, changed, group, changedOpts); err != nil {
		return nil, err
	}
	return w, nil
}

// ChangeError is a change that could not be made: Change, and why.
type ChangeError struct {
	Change recorder.Change
	Err    error
}

func (e *ChangeError) Error() string { return narrate.Change(e.Change) + ": " + e.Err.Error() }
func (e *ChangeError) Unwrap() error { return e.Err }

// withGroupChanges returns fx and opts with changes made, in order;
// header is the unchanged run's.
func withGroupChanges(fx *fixture.Fixture, group recorder.PodGroupRef, header recorder.Header, opts Options, changes []recorder.Change) (*fixture.Fixture, Options, error) {
	var members []*v1.Pod
	for _, p := range fx.Pending {
		if sg := p.Spec.SchedulingGroup; sg != nil && sg.PodGroupName != nil && *sg.PodGroupName == group.Name && namespaceOf(p.Namespace) == group.Namespace {
			members = append(members, p)
		}
	}
	cfg := opts.Config
	if cfg == nil {
		var err error
		if cfg, err = LoadConfigFile(""); err != nil {
			return nil, opts, err
		}
	}
	// The fork holds the cluster; its pod is a stand-in (no pod is being
	// scheduled), its profile the members'.
	f := &Fork{Name: fx.Name, Header: header, Pod: &v1.Pod{}, Config: cfg.DeepCopy(), Profile: v1.DefaultSchedulerName}
	if len(members) > 0 && members[0].Spec.SchedulerName != "" {
		f.Profile = members[0].Spec.SchedulerName
	}
	for _, o := range fx.Objects {
		switch o := o.(type) {
		case *v1.Node:
			f.Nodes = append(f.Nodes, o)
		case *v1.Pod:
			f.Placed = append(f.Placed, o)
		}
	}
	minCount := int32(0)
	patched := map[*v1.Pod]*v1.Pod{}
	for _, c := range changes {
		var err error
		switch c := c.(type) {
		case recorder.SetMinCount:
			if c.MinCount < 1 {
				err = fmt.Errorf("minCount must be 1 or more, not %d", c.MinCount)
			}
			minCount = c.MinCount
		case recorder.PatchPod:
			err = patchMember(members, patched, c)
		case recorder.ReplacePod, recorder.EditPod:
			err = fmt.Errorf("a pod group's member is changed with a patch naming it (MEMBER=PATCH)")
		case recorder.Evict:
			for _, key := range c.Pods {
				if slices.ContainsFunc(fx.Pending, func(p *v1.Pod) bool { return matchesPod(p, key) }) {
					err = fmt.Errorf("pod %q is pending, not placed: there is nothing to evict", input.Quote(key))
				}
			}
			if err == nil {
				err = f.apply(c)
			}
		default:
			err = f.apply(c)
		}
		if err != nil {
			return nil, opts, &ChangeError{Change: c, Err: err}
		}
		if u, ok := c.(recorder.UseConfig); ok {
			opts.ConfigPath = u.Path
		}
	}
	if f.changedConfig {
		opts.Config = f.Config
	}
	// Rebuild the fixture in its order: each node and placed pod as the
	// fork holds it (gone if removed), the nodes added after the others,
	// then the pending pods.
	nodes := map[string]*v1.Node{}
	for _, n := range f.Nodes {
		nodes[n.Name] = n
	}
	placed := map[*v1.Pod]bool{}
	for _, p := range f.Placed {
		placed[p] = true
	}
	var objs []runtime.Object
	foundGroup := false
	for _, o := range fx.Objects {
		switch o := o.(type) {
		case *v1.Node:
			if n := nodes[o.Name]; n != nil {
				objs = append(objs, n.DeepCopy())
				delete(nodes, o.Name)
			}
		case *v1.Pod:
			if placed[o] {
				objs = append(objs, o.DeepCopy())
			}
		case *schedulingv1beta1.PodGroup:
			if o.Name != group.Name || namespaceOf(o.Namespace) != group.Namespace {
				objs = append(objs, o.DeepCopyObject())
				continue
			}
			foundGroup = true
			pg := o.DeepCopy()
			if minCount > 0 {
				if pg.Spec.SchedulingPolicy.Gang == nil {
					return nil, opts, &ChangeError{Change: recorder.SetMinCount{MinCount: minCount}, Err: fmt.Errorf("pod group %s has no gang policy, so no minCount", group.Key())}
				}
				pg.Spec.SchedulingPolicy.Gang.MinCount = minCount
			}
			objs = append(objs, pg)
		default:
			objs = append(objs, o.DeepCopyObject())
		}
	}
	if !foundGroup && minCount > 0 {
		return nil, opts, &ChangeError{Change: recorder.SetMinCount{MinCount: minCount}, Err: fmt.Errorf("no PodGroup %s in %s", group.Key(), fx.Name)}
	}
	for _, n := range f.Nodes {
		if nodes[n.Name] != nil {
			a := n.DeepCopy()
			a.UID, a.ResourceVersion = "", ""
			objs = append(objs, a)
		}
	}
	for _, p := range fx.Pending {
		if q := patched[p]; q != nil {
			objs = append(objs, q)
		} else {
			objs = append(objs, p.DeepCopy())
		}
	}
	out, err := fixture.New(fx.Name, objs)
	if err != nil {
		return nil, opts, err
	}
	return out, opts, nil
}

// patchMember applies c to the member it names, after any earlier patch
// of it.
func patchMember(members []*v1.Pod, patched map[*v1.Pod]*v1.Pod, c recorder.PatchPod) error {
	if c.Pod == "" {
		return fmt.Errorf("name the member to patch (MEMBER=PATCH)")
	}
	i := slices.IndexFunc(members, func(p *v1.Pod) bool { return matchesPod(p, c.Pod) || namespaceOf(p.Namespace)+"/"+p.Name == c.Pod })
	if i < 0 {
		names := make([]string, len(members))
		for j, p := range members {
			names[j] = p.Name
		}
		return fmt.Errorf("no member %q in the group (its members: %s)", input.Quote(c.Pod), joinOr(names, "none"))
	}
	m := members[i]
	cur := patched[m]
	if cur == nil {
		cur = m
	}
	var p v1.Pod
	if err := strategicMerge(cur, []byte(c.Patch), &p); err != nil {
		return err
	}
	if p.Name != m.Name || p.Namespace != m.Namespace {
		return fmt.Errorf("the patch renames the pod; patch its spec")
	}
	if p.Spec.NodeName != "" {
		return fmt.Errorf("spec.nodeName is set: the scheduler would never see the pod")
	}
	patched[m] = &p
	return nil
}

// joinOr joins names with ", ", or is none when there are none.
func joinOr(names []string, none string) string {
	if len(names) == 0 {
		return none
	}
	s := names[0]
	for _, n := range names[1:] {
		s += ", " + n
	}
	return s
}
