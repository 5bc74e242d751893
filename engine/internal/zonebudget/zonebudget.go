// Package zonebudget is an out-of-tree scheduler plugin written the way
// plugins outside Kubernetes are (it imports no schedscope package), to prove
// that schedscope built with engine.WithPlugin runs and records such a plugin
// as kube-scheduler built with app.WithPlugin runs it.
//
// ZoneBudget is a Filter, Score and Permit plugin with args of its own
// (args.go): Filter rejects the nodes whose zone is over budget, Score gives
// a node's score label, and Permit holds pods with the wait annotation for a
// while before allowing them.
package zonebudget

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
)

// Name is the plugin's name in a scheduler configuration.
const Name = "ZoneBudget"

// Plugin is the ZoneBudget plugin.
type Plugin struct {
	args   Args
	handle fwk.Handle
}

var (
	_ fwk.FilterPlugin = (*Plugin)(nil)
	_ fwk.ScorePlugin  = (*Plugin)(nil)
	_ fwk.PermitPlugin = (*Plugin)(nil)
)

// New is the plugin's factory (a frameworkruntime.PluginFactory).
func New(_ context.Context, obj runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
	p := &Plugin{handle: h}
	switch a := obj.(type) {
	case nil:
		v := &ArgsV1{}
		setDefaults(v)
		convertToInternal(v, &p.args)
	case *Args:
		p.args = *a
	default:
		return nil, fmt.Errorf("want args of type ZoneBudgetArgs, got %T", obj)
	}
	if p.args.Wait < 0 {
		return nil, fmt.Errorf("wait must not be negative, got %v", p.args.Wait)
	}
	return p, nil
}

// Name returns the plugin's name.
func (p *Plugin) Name() string { return Name }

// Filter rejects a node whose zone label is one of the args' OverBudget.
func (p *Plugin) Filter(_ context.Context, _ fwk.CycleState, _ *v1.Pod, nodeInfo fwk.NodeInfo) *fwk.Status {
	zone := nodeInfo.Node().Labels[p.args.ZoneLabel]
	if zone != "" && slices.Contains(p.args.OverBudget, zone) {
		return fwk.NewStatus(fwk.Unschedulable, fmt.Sprintf("zone %s is over budget", zone))
	}
	return nil
}

// Score gives the node's score label, an integer from 0 to 100 (0 without it).
func (p *Plugin) Score(_ context.Context, _ fwk.CycleState, _ *v1.Pod, nodeInfo fwk.NodeInfo) (int64, *fwk.Status) {
	s, err := strconv.ParseInt(nodeInfo.Node().Labels[p.args.ScoreLabel], 10, 64)
	if err != nil {
		return 0, nil
	}
	return min(max(s, fwk.MinNodeScore), fwk.MaxNodeScore), nil
}

// ScoreExtensions returns nil: scores are already in range.
func (p *Plugin) ScoreExtensions() fwk.ScoreExtensions { return nil }

// Permit holds a pod with the wait annotation for the args' Wait, then
// allows it; other pods pass at once.
func (p *Plugin) Permit(_ context.Context, _ fwk.CycleState, pod *v1.Pod, _ string) (*fwk.Status, time.Duration) {
	if _, ok := pod.Annotations[p.args.WaitAnnotation]; !ok || p.args.Wait == 0 {
		return nil, 0
	}
	uid := pod.UID
	time.AfterFunc(p.args.Wait, func() {
		if w := p.handle.GetWaitingPod(uid); w != nil {
			w.Allow(Name)
		}
	})
	return fwk.NewStatus(fwk.Wait, "held for "+p.args.Wait.String()), p.args.Wait + 10*time.Second
}
