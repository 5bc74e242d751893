package commands

import (
	"context"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/text"
	"github.com/schedscope/schedscope/recorder/input"
)

// maxScale bounds --scale's N: a run holds at most fixture.MaxObjects.
const maxScale = 100000

// parseScale reads --scale KIND/NAME=N.
func parseScale(s string) (kind, namespace, name string, n int, err error) {
	ref, count, ok := strings.Cut(s, "=")
	kind, namespace, name, okRef := recorder.ParseWorkload(ref)
	n, nerr := strconv.Atoi(count)
	if !ok || !okRef || nerr != nil || n < 0 || n > maxScale {
		return "", "", "", 0, errorf("--scale %q: want KIND/NAME=N with N from 0 to %d, e.g. deploy/web=12", input.Quote(s), maxScale)
	}
	return kind, namespace, name, n, nil
}

// changeFlagsSet says whether a change flag was given, besides --scale.
func changeFlagsSet(fs *pflag.FlagSet) bool {
	set := false
	for _, f := range changeFlagList {
		set = set || fs.Changed(f.name)
	}
	return set
}

// runScale runs the fixture as written and with the workload scaled, and
// tells where its pods went in each.
func (o *WhatIfOptions) runScale(ctx context.Context) error {
	kind, ns, name, n, err := parseScale(o.Scale)
	if err != nil {
		return err
	}
	fx, err := o.wholeRuns()
	if err != nil {
		return err
	}
	// The library's two whole runs, as written and scaled.
	sc := scenario.FromFixture(fx)
	workload, _, _ := strings.Cut(o.Scale, "=")
	before, err := sc.Scale(ctx, o.scenarioOptions(), workload, -1)
	if err != nil {
		return err
	}
	after, err := sc.Scale(ctx, o.scenarioOptions(), workload, n)
	if err != nil {
		return err
	}
	switch o.Output {
	case "json", "yaml":
		return export.Write(o.streams.Out, o.Output, export.Scale{Kind: kind, Namespace: ns, Name: name, Before: before, After: after})
	}
	t := text.New(o.streams.Out)
	t.Scale(fx.Name, kind, ns, name, before, after)
	return t.Err()
}
