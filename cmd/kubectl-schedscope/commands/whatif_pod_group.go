package commands

import (
	"context"
	"errors"
	"strings"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/text"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// runPodGroup is whatif --pod-group: the fixture run as it is and with the
// changes, the group's pod-group cycle of each compared.
func (o *WhatIfOptions) runPodGroup(ctx context.Context) error {
	silenceKlog()
	changes, err := o.changeFlags.build(o.flags)
	if err != nil {
		return err
	}
	fx, group, opts, err := o.podGroupRun(o.PodGroup)
	if err != nil {
		return err
	}
	w, err := engine.WhatIfPodGroup(ctx, fx, group, opts, changes...)
	if ce := (*engine.ChangeError)(nil); errors.As(err, &ce) {
		return errorf("%s: %v", strings.Join(changeArgs(ce.Change), " "), ce.Err)
	}
	if err != nil {
		return err
	}
	switch o.Output {
	case "json", "yaml":
		return export.Write(o.streams.Out, o.Output, export.NewGroupWhatIf(w, changeDocs(changes)))
	}
	var words []string
	for _, c := range changes {
		words = append(words, narrate.Change(c))
	}
	t := text.New(o.streams.Out)
	t.GroupWhatIf(fx.Name, words, w)
	return t.Err()
}

// memberHint adds to a what-if's error on a pod group's member that its
// group is re-run with --pod-group: a fork holds the member alone, which
// the group's PreEnqueue holds or its pod-group cycle schedules otherwise.
func (o *WhatIfOptions) memberHint(pod recorder.PodRef, err error) error {
	fx, ferr := o.loadFixture()
	if ferr != nil {
		return err
	}
	for _, p := range fx.Pending {
		ns := p.Namespace
		if ns == "" {
			ns = "default"
		}
		if sg := p.Spec.SchedulingGroup; sg != nil && sg.PodGroupName != nil && p.Name == pod.Name && ns == pod.Namespace {
			return errorf("%v: %s is a member of pod group %s, scheduled in the group's pod-group cycle, which a re-run of one cycle does not make; whatif --pod-group %s re-runs the whole fixture", err, p.Name, *sg.PodGroupName, *sg.PodGroupName)
		}
	}
	return err
}
