package commands

import (
	"context"
	"errors"
	"strings"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/recorder"
)

// groupWhatIfDocument is whatif --pod-group's JSON output: the group's
// pod-group cycle in the fixture as it is and as changed, and where each
// run bound its members (namespace/name → node, "" unbound).
type groupWhatIfDocument struct {
	Group          recorder.PodGroupRef    `json:"group"`
	Changes        []changeDoc             `json:"changes"`
	Before         *recorder.PodGroupCycle `json:"before"`
	After          *recorder.PodGroupCycle `json:"after"`
	BindingsBefore map[string]string       `json:"bindingsBefore"`
	BindingsAfter  map[string]string       `json:"bindingsAfter"`
}

// runPodGroup is whatif --pod-group: the fixture run as it is and with the
// changes, the group's pod-group cycle of each compared.
func (o *WhatIfOptions) runPodGroup(ctx context.Context) error {
	silenceKlog()
	changes, err := o.changeFlags.build(o.flags)
	if err != nil {
		return err
	}
	if err := o.checkInputs(); err != nil {
		return err
	}
	fx, err := o.loadFixture()
	if err != nil {
		return err
	}
	cfg, err := engine.LoadConfigFile(o.Config)
	if err != nil {
		return err
	}
	group, err := findPodGroup(fx, o.PodGroup)
	if err != nil {
		return err
	}
	w, err := engine.WhatIfPodGroup(ctx, fx, group, engine.Options{Config: cfg, ConfigPath: o.Config, FeatureGates: featuregates.NonDefault()}, changes...)
	if ce := (*engine.ChangeError)(nil); errors.As(err, &ce) {
		return errorf("%s: %v", strings.Join(changeArgs(ce.Change), " "), ce.Err)
	}
	if err != nil {
		return err
	}
	doc := groupWhatIfDocument{Group: group, Changes: changeDocs(changes), Before: w.Before, After: w.After,
		BindingsBefore: w.BindingsBefore, BindingsAfter: w.BindingsAfter}
	switch o.Output {
	case "json", "yaml":
		return writeDocument(o.streams.Out, o.Output, doc)
	}
	t := newTextWriter(o.streams.Out)
	t.groupWhatIf(fx.Name, doc)
	return t.err
}
