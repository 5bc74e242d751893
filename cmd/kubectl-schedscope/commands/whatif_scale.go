package commands

import (
	"context"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/visible"
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

// scaleDocument is whatif --scale's JSON output.
type scaleDocument struct {
	Kind      string            `json:"kind"`
	Namespace string            `json:"namespace"`
	Name      string            `json:"name"`
	Before    *engine.ScaledRun `json:"before"`
	After     *engine.ScaledRun `json:"after"`
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
		return export.Write(o.streams.Out, o.Output, scaleDocument{Kind: kind, Namespace: ns, Name: name, Before: before, After: after})
	}
	t := newTextWriter(o.streams.Out)
	t.Printf("what-if: %s %s/%s asks for %d instead of %d, in %s (two whole runs of the fixture)\n", kind, ns, name, after.Replicas, before.Replicas, fx.Name)
	for _, side := range []struct {
		label string
		run   *engine.ScaledRun
	}{{"before", before}, {"after ", after}} {
		t.Printf("%s: %s\n", side.label, visible.String(narrate.Workload(side.run.Workload)))
		for _, g := range side.run.Pending {
			t.Printf("        %d pending: %s\n", len(g.Pods), visible.String(g.Message))
		}
	}
	return t.Err()
}
