package commands

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
)

// RecordOptions holds the flags of record.
type RecordOptions struct {
	simOptions
	Output  string
	streams genericiooptions.IOStreams
}

// NewCmdRecord schedules a fixture and writes a recording.
func NewCmdRecord(streams genericiooptions.IOStreams) *cobra.Command {
	o := &RecordOptions{streams: streams}
	cmd := &cobra.Command{
		Use:   "record [-f FIXTURE] [--config FILE] -o FILE",
		Short: "Schedule a fixture and write every cycle to a recording file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Output == "" {
				return errorf("--output (-o) is required: the recording file to write")
			}
			return o.Run(cmd.Context())
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "recording file to write")
	return cmd
}

// Run writes the recording; each cycle is appended as soon as it completes.
func (o *RecordOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	f, err := os.Create(o.Output)
	if err != nil {
		return err
	}
	defer f.Close()
	var w *recorder.Writer
	var writeErr error
	n := 0
	_, _, err = o.simulate(ctx, func(h recorder.Header) error {
		var err error
		w, err = recorder.NewWriter(f, h)
		return err
	}, func(c *recorder.Cycle) {
		n++
		if writeErr == nil {
			writeErr = w.WriteCycle(c)
		}
	})
	if err != nil {
		return err
	}
	if writeErr != nil {
		return fmt.Errorf("%s: %w", o.Output, writeErr)
	}
	if err := f.Sync(); err != nil {
		return err
	}
	fmt.Fprintf(o.streams.ErrOut, "wrote %d cycles to %s\n", n, o.Output)
	return nil
}
