package commands

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui"
)

// ReplayOptions holds the flags of replay.
type ReplayOptions struct {
	File    string
	Follow  bool
	streams genericiooptions.IOStreams
}

// NewCmdReplay opens the debugger over a recording.
func NewCmdReplay(streams genericiooptions.IOStreams) *cobra.Command {
	o := &ReplayOptions{streams: streams}
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Open the debugger over a recording, following it while it is still being written",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.File = args[0]
			return o.Run(cmd.Context())
		},
	}
	cmd.Flags().BoolVar(&o.Follow, "follow", true, "keep reading records appended to the file, like tail -f")
	return cmd
}

// Run reads the recording in the background and runs the TUI in front.
func (o *ReplayOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var in io.ReadCloser
	var err error
	if o.Follow {
		// Follows appends, and a flight recorder's rotation to a new file.
		in, err = recorder.FollowFile(ctx, o.File, 200*time.Millisecond)
	} else {
		in, err = os.Open(o.File)
	}
	if err != nil {
		return err
	}
	defer in.Close()
	// The header is read before the screen switches, so a file that is not a
	// recording fails with one line.
	rd, err := recorder.NewReader(in)
	if err != nil {
		return errorf("%s: %w", o.File, err)
	}
	events := make(chan tui.Event, 256)
	go func() {
		defer close(events)
		send := func(ev tui.Event) bool {
			select {
			case events <- ev:
				return true
			case <-ctx.Done():
				return false
			}
		}
		h := rd.Header()
		if !send(tui.Event{Header: &h}) {
			return
		}
		if o.Follow {
			send(tui.Event{State: &tui.EngineState{State: tui.StateFollowing}})
		}
		for rec, err := range rd.All() {
			if err != nil {
				var torn *recorder.ErrTorn
				var corrupt *recorder.ErrCorrupt
				if errors.As(err, &torn) || errors.As(err, &corrupt) {
					if !send(tui.Event{Problem: errorf("%s: %w", o.File, err)}) {
						return
					}
					continue
				}
				send(tui.Event{Done: true, Err: errorf("%s: %w", o.File, err)})
				return
			}
			if rec.Cycle != nil && !send(tui.Event{Cycle: rec.Cycle}) {
				return
			}
			if rec.Observed != nil && !send(tui.Event{Observed: rec.Observed}) {
				return
			}
		}
		if ctx.Err() == nil {
			send(tui.Event{State: &tui.EngineState{State: tui.StateDone}})
			send(tui.Event{Done: true})
		}
	}()
	source := "replay " + o.File
	if o.Follow {
		source += " (following)"
	}
	return tui.Run(ctx, tui.Options{Source: source, Events: events})
}
