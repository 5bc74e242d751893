package commands

import (
	"context"
	"strconv"
	"strings"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
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
		if err := writeDocument(o.streams.Out, o.Output, res); err != nil {
			return err
		}
		return o.gateGroup(res)
	}
	t := newTextWriter(o.streams.Out)
	policy := res.Policy
	if res.MinCount > 0 {
		policy += ", minCount " + strconv.Itoa(int(res.MinCount))
	}
	t.Printf("capacity: pod group %s (%s, %d member(s)) in %s\n", visible.String(group.Key()), policy, res.Members, fx.Name)
	switch {
	case !res.Bound && res.Policy == recorder.PolicyBasic:
		t.Printf("no copy fits: not every member of the group binds as it is: %s\n", visible.String(res.Stopped))
	case !res.Bound:
		t.Printf("no copy fits: the group itself does not bind: %s\n", visible.String(res.Stopped))
	case res.Limit > 0:
		t.Printf("at least %d more copies fit (%d groups in all): the search stops at %d\n", res.More, res.More+1, res.Limit)
	default:
		if res.More == 0 {
			t.Printf("it binds; no copy of it fits beside it\n")
		} else {
			how := "each bound by its pod-group cycle"
			if res.Policy == recorder.PolicyBasic {
				how = "each with every member bound"
			}
			t.Printf("%d more copies fit (%d groups in all), %s: %s\n", res.More, res.More+1, how, strings.Join(res.Copies, ", "))
		}
		t.Printf("copy %d (%s) does not bind: %s\n", res.More+1, res.StoppedGroup, visible.String(res.Stopped))
	}
	if res.Member != "" {
		t.Printf("  its member %s fits nowhere: %s\n", res.Member, visible.String(res.MemberMessage))
		for _, s := range res.Short {
			t.Printf("  %s\n", narrate.ResourceFree(s))
		}
	}
	t.Printf("found by %d run(s) of the fixture, at %s copies\n", len(res.Runs), joinInts(res.Runs))
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
