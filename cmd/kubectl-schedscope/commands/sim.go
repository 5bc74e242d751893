package commands

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui"
)

// SimOptions holds the flags of sim.
type SimOptions struct {
	simOptions
	// Record, if set, also writes the session to this recording file.
	Record  string
	streams genericiooptions.IOStreams
}

// NewCmdSim opens the debugger while the engine schedules a fixture.
func NewCmdSim(streams genericiooptions.IOStreams) *cobra.Command {
	o := &SimOptions{streams: streams, simOptions: simOptions{stdin: streams.In}}
	cmd := &cobra.Command{
		Use:   "sim [-f FIXTURE] [--config FILE]",
		Short: "Open the debugger while the scheduler schedules a fixture, cycle by cycle",
		Long: "sim runs the real kube-scheduler on a fixture (the embedded default fixture when -f is not given)\n" +
			"and opens the debugger on the cycles as they finish. Pause, step and set breakpoints from the TUI.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.Run(cmd.Context()) },
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Record, "record", "", "also write the session to this recording file")
	return cmd
}

// Run schedules the fixture in the background and runs the TUI in front.
func (o *SimOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	// Check the inputs before the screen switches, so errors print as one line.
	if err := o.checkInputs(); err != nil {
		return err
	}
	// Before any file is created: without a terminal the debugger cannot start.
	if !isTerminal(o.streams.In) || !isTerminal(o.streams.Out) {
		return errorf("the debugger needs a terminal; without one, run: kubectl schedscope explain%s (or record%s -o FILE)", o.fixtureFlag(), o.fixtureFlag())
	}
	var out *os.File
	if o.Record != "" {
		f, err := createRecording(o.Record, o.Fixture, o.Config)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The sink drops what is sent after the run ended, such as the state a
	// control key reports once the fixture has settled.
	sink := newEventSink(ctx, 256)
	send := func(ev tui.Event) { sink.send(ev) }
	ctl := newLiveControl(func(st tui.EngineState) { send(tui.Event{State: &st}) })
	defer ctl.Close()
	o.gate = ctl.Gate
	o.onEngine = func(e *engine.Engine) { ctl.setCounts(e.QueueCounts) }

	simDone := make(chan error, 1)
	go func() {
		defer sink.close()
		defer ctl.Close() // the engine is gone: controls have nothing left to control
		simDone <- o.feed(ctx, send, ctl, out)
	}()

	source := "fixture " + o.fixtureName()
	if err := tui.Run(ctx, tui.Options{Source: source, Events: sink.Events(), Control: ctl,
		WhatIf: newWhatIfSource(ctx, &o.simOptions)}); err != nil {
		return err
	}
	cancel()
	ctl.Close()
	if err := <-simDone; err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	if out != nil {
		return out.Sync()
	}
	return nil
}

// feed runs the fixture and sends the session to the TUI: the header, each
// cycle as it finishes, and at the end the pods that never got a cycle, the
// engine's final state and Done. With out set it also records the session.
func (o *SimOptions) feed(ctx context.Context, send func(tui.Event), ctl *liveControl, out *os.File) error {
	// The recording is encoded and written on its own goroutine; it
	// keeps every cycle (a full queue holds the scheduler back).
	var w *recorder.AsyncWriter
	recordErr := func(err error) {
		send(tui.Event{Problem: fmt.Errorf("%s: %w", o.Record, err)})
	}
	had := map[string]bool{}
	o.onQueue = func(ev *recorder.QueueEvent) {
		if w != nil {
			if err := w.WriteQueue(ev); err != nil {
				recordErr(err)
				_ = w.Close()
				w = nil
			}
		}
		send(tui.Event{Queue: ev})
	}
	header, fx, err := o.simulate(ctx, func(h recorder.Header) error {
		send(tui.Event{Header: &h})
		// The controller's own state: the user may have paused already.
		ctl.Refresh()
		if out != nil {
			fw, err := recorder.NewWriter(out, h)
			if err != nil {
				return err
			}
			w = recorder.NewAsyncWriter(fw, recorder.DefaultAsyncQueue, false)
		}
		return nil
	}, func(c *recorder.Cycle) {
		if w != nil {
			if err := w.WriteCycle(c); err != nil {
				recordErr(err)
				_ = w.Close()
				w = nil
			}
		}
		had[c.Pod.Key()] = true
		send(tui.Event{Cycle: c})
		ctl.Observe(c)
	})
	if w != nil {
		if err := w.Close(); err != nil {
			recordErr(err)
		}
	}
	if ctx.Err() == nil {
		if err == nil && fx != nil {
			// Every cycle has been sent (simulate returned): had is complete.
			never := fx.NeverAttempted(header, func(k string) bool { return had[k] })
			if never == nil {
				never = []recorder.PodState{}
			}
			send(tui.Event{NeverAttempted: never})
		}
		// The run ends with pods still queued (in backoff, say): the
		// status bar counts them.
		done := tui.EngineState{State: tui.StateDone}
		done.Active, done.Backoff = ctl.queueCounts()
		send(tui.Event{State: &done})
		send(tui.Event{Done: true, Err: err})
	}
	return err
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
