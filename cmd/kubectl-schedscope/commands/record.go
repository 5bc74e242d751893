package commands

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui"
)

// RecordOptions holds the flags of record.
type RecordOptions struct {
	simOptions
	Output string
}

// NewCmdRecord schedules a fixture and writes a recording.
func NewCmdRecord(streams genericiooptions.IOStreams) *cobra.Command {
	o := &RecordOptions{simOptions: newSimOptions(streams)}
	cmd := &cobra.Command{
		Use:   "record [-f FIXTURE] [--config FILE] -o FILE|-",
		Short: "Schedule a fixture and write every cycle to a recording file",
		Long: "record schedules a fixture and writes every cycle to a recording (mode 0600: it holds cluster data).\n" +
			"The file is written under a temporary name and renamed into place at the end, so a failed run\n" +
			"leaves an existing FILE as it was. -o - writes the recording to standard output, which must not\n" +
			"be a terminal.",
		Args: cobra.NoArgs,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "recording file to write, or - for standard output")
	return cmd
}

// Validate checks the flags and loads the inputs, before any output exists.
func (o *RecordOptions) Validate() error {
	if o.Output == "" {
		return errorf("--output (-o) is required: the recording file to write")
	}
	if o.Output == "-" {
		if isTerminal(o.streams.Out) {
			return errorf("-o - writes the recording to standard output, which is a terminal: redirect it (kubectl schedscope record -o - > FILE) or give a file")
		}
		return o.checkInputs()
	}
	if err := o.checkInputs(); err != nil {
		return err
	}
	return recorder.CheckOutput(o.Output, o.Fixture, o.Config)
}

// Run writes the recording; each cycle is appended as soon as it completes,
// to a temporary file renamed over the output when the fixture has settled.
func (o *RecordOptions) Run(ctx context.Context) error {
	var out io.Writer = o.streams.Out
	where := "standard output"
	var f *recorder.AtomicFile
	if o.Output != "-" {
		var err error
		if f, err = recorder.CreateAtomic(o.Output, o.Fixture, o.Config); err != nil {
			return err
		}
		defer f.Abort()
		out, where = f, o.Output
	}
	rec := &sessionRecorder{out: out}
	var start time.Time
	n := 0
	err := consume(ctx, o.source, func(ev tui.Event) error {
		err := rec.write(ev)
		switch {
		case ev.Header != nil:
			start = time.Now()
			return err // nothing is recorded without it
		case ev.Cycle != nil:
			n++
		}
		return nil // rec.err keeps the first error
	})
	rec.close()
	took := time.Since(start)
	if err != nil {
		return err
	}
	if rec.err != nil {
		return fmt.Errorf("%s: %w", where, rec.err)
	}
	if f != nil {
		if err := f.Commit(); err != nil {
			return fmt.Errorf("%s: %w", o.Output, err)
		}
	}
	fx := o.source.fixture()
	pods := len(fx.Pending)
	fmt.Fprintf(o.streams.ErrOut, "wrote %s to %s: %s scheduled in %s (%.0f pods/s, %s arrival)\n",
		plural(n, "cycle"), where, plural(pods, "pod"), took.Round(time.Millisecond), float64(pods)/took.Seconds(), o.arrival())
	return nil
}

// createRecording creates a recording written in place while another
// command may follow it (sim --record): mode 0600, never one of the inputs.
func createRecording(path string, inputs ...string) (*os.File, error) {
	if err := recorder.CheckOutput(path, inputs...); err != nil {
		return nil, err
	}
	return recorder.CreateFile(path)
}
