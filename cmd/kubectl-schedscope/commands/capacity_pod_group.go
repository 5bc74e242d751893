package commands

import (
	"context"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/text"
	"github.com/schedscope/schedscope/recorder/visible"
)

// runPodGroup is capacity --pod-group: how many more copies of a pod group
// fit, each counted when its pod-group cycle bound it in a real run.
func (o *CapacityOptions) runPodGroup(ctx context.Context) error {
	silenceKlog()
	fx, group, opts, err := o.podGroupRun(o.PodGroup)
	if err != nil {
		return err
	}
	res, err := engine.CapacityPodGroup(ctx, fx, group, opts)
	if err != nil {
		return err
	}
	switch o.Output {
	case "json", "yaml":
		if err := export.Write(o.streams.Out, o.Output, res); err != nil {
			return err
		}
		return o.gateGroup(res)
	}
	t := text.New(o.streams.Out)
	t.GroupCapacity(fx.Name, group, res)
	if err := t.Err(); err != nil {
		return err
	}
	return o.gateGroup(res)
}

// gateGroup fails, with --min, when fewer groups than asked (the group and
// its copies) fit.
func (o *CapacityOptions) gateGroup(res *engine.GroupCapacityResult) error {
	fit := 0
	if res.Bound {
		fit = res.More + 1
	}
	if o.Min == 0 || fit >= o.Min {
		return nil
	}
	if res.Limit > 0 {
		return errorf("--min %d: at least %d of pod group %s fit, but the search stops at %d copies", o.Min, fit, res.Group.Key(), res.Limit)
	}
	return errorf("--min %d: %d of pod group %s fit (the group and its copies); the next does not bind: %s", o.Min, fit, res.Group.Key(), visible.String(res.Stopped))
}
