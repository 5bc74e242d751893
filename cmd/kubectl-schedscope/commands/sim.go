package commands

import (
	"context"
	"os"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder/export/report"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui"
)

// SimOptions holds the flags of sim.
type SimOptions struct {
	simOptions
	// Record, if set, also writes the session to this recording file.
	Record string
	// Paused holds the first cycle until space, s or . lets it start.
	Paused bool
	// ctl is the debugger's pause, step and breakpoints.
	ctl *liveControl
	// lesson, when set, is shown beside the run (learn).
	lesson *tui.Lesson
	otlp   otlpOptions
}

// NewCmdSim opens the debugger while the engine schedules a fixture.
func NewCmdSim(streams genericiooptions.IOStreams) *cobra.Command {
	o := &SimOptions{simOptions: newSimOptions(streams)}
	cmd := &cobra.Command{
		Use:   "sim [-f FIXTURE] [--config FILE]",
		Short: "Open the debugger while the scheduler schedules a fixture, cycle by cycle",
		Long: "sim runs the real kube-scheduler on a fixture (the embedded default fixture when -f is not given)\n" +
			"and opens the debugger on the cycles as they finish. Pause, step and set breakpoints from the TUI.",
		Args: cobra.NoArgs,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Record, "record", "", "also write the session to this recording file")
	cmd.Flags().BoolVar(&o.Paused, "paused", false, "start paused: the first cycle waits for space (run), s (one cycle) or . (one phase at a time)")
	o.otlp.addFlags(cmd.Flags())
	return cmd
}

// Complete sets up the fixture's run under the debugger's controls.
func (o *SimOptions) Complete(*cobra.Command, []string) error {
	o.ctl = newLiveControl(nil)
	if o.Paused {
		o.ctl.startPaused("started with --paused: space runs, s steps a cycle, . a phase")
	}
	o.source = &fixtureSource{o: &o.simOptions, ctl: o.ctl}
	return nil
}

// Validate loads the inputs, so that errors print as one line before the
// screen switches, and checks that there is a terminal to switch. A
// fixture that takes longer than fixtureLoadWait to load (a snapshot of a
// large cluster) goes on loading under the debugger.
func (o *SimOptions) Validate() error {
	if err := o.otlp.validate(); err != nil {
		return err
	}
	if err := o.checkInputsWithin(fixtureLoadWait); err != nil {
		return err
	}
	if o.Record != "" {
		if err := o.checkOutput(o.Record); err != nil {
			return err
		}
	}
	// Before any file is created: without a terminal the debugger cannot start.
	if !isTerminal(o.streams.In) || !isTerminal(o.streams.Out) {
		return errorf("the debugger needs a terminal; without one, run: kubectl schedscope explain%s (or record%s -o FILE)", o.fixtureFlag(), o.fixtureFlag())
	}
	return nil
}

// fixtureLoadWait is how long sim waits for its fixture before it opens
// the debugger anyway.
const fixtureLoadWait = 500 * time.Millisecond

// Run shows the fixture's run in the debugger, recording it with --record.
func (o *SimOptions) Run(ctx context.Context) error {
	defer o.ctl.Close()
	var src source.Source = o.source
	var out *os.File
	if o.Record != "" {
		f, err := createRecording(o.Record, o.Fixture, o.Config)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
		src = &recordingTee{src: src, rec: &sessionRecorder{out: f}, path: o.Record}
	}
	src, finish, err := o.otlp.tee(ctx, src, o.streams.ErrOut)
	if err != nil {
		return err
	}
	defer finish()
	err = tui.Run(ctx, src, tui.Options{Source: "fixture " + o.fixtureName(), Control: o.ctl, Fixtures: embeddedFixtures(), FirstRun: firstRunHint(o.streams.Out),
		Export: report.Files(".", "fixture "+o.fixtureName(), nil), Lesson: o.lesson,
		WhatIf: newWhatIfSource(ctx, &o.simOptions), GroupWhatIf: newGroupWhatIfSource(ctx, &o.simOptions)})
	if err != nil {
		return err
	}
	if out != nil {
		return out.Sync()
	}
	return nil
}

// fixtureFlag is the -f flag that names the fixture again in a suggested command.
func (o *simOptions) fixtureFlag() string {
	if o.Fixture == "" {
		return ""
	}
	return " -f " + o.Fixture
}

func (o *simOptions) fixtureName() string {
	if o.Fixture == "" {
		return fixtures.Default
	}
	return o.Fixture
}
