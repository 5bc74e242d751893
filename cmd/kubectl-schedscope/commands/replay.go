package commands

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui"
)

// ReplayOptions holds the flags of replay.
type ReplayOptions struct {
	File   string
	Follow bool
	// NoTUI prints the recording instead of opening the debugger.
	NoTUI  bool
	Output string
	Pod    string

	followSet, printSet bool
	// headerWait is how long --follow waits for the header of a file that
	// has none yet.
	headerWait time.Duration
	streams    genericiooptions.IOStreams
}

// headerWait is how long replay --follow waits for a recording's header: a
// writer that has started writes it at once.
const headerWait = 5 * time.Second

// NewCmdReplay opens the debugger over a recording, or prints it.
func NewCmdReplay(streams genericiooptions.IOStreams) *cobra.Command {
	o := &ReplayOptions{streams: streams, headerWait: headerWait}
	cmd := &cobra.Command{
		Use:   "replay FILE [--follow=false] [--no-tui [-o text|json|yaml] [--pod NAME]]",
		Short: "Open the debugger over a recording, following it while it is still being written",
		Long: "replay opens the debugger over a recording. With --no-tui it prints the recording's cycles instead,\n" +
			"as explain does: -o json prints one document described by recorder/schema/explain.schema.json.",
		Example: `  kubectl schedscope replay flight.rec
  kubectl schedscope replay flight.rec --no-tui -o json | jq '.cycles[] | select(.outcome.result != "Bound") | .pod.name'`,
		Args: oneRecording,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Complete(cmd, args)
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run(cmd.Context())
		},
	}
	cmd.Flags().BoolVar(&o.Follow, "follow", true, "keep reading records appended to the file, like tail -f")
	cmd.Flags().BoolVar(&o.NoTUI, "no-tui", false, "print the cycles instead of opening the debugger (no terminal needed)")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "with --no-tui: text, json or yaml")
	cmd.Flags().StringVar(&o.Pod, "pod", "", "with --no-tui: only print cycles of this pod (name or namespace/name)")
	return cmd
}

// Complete takes the file argument and notes which flags were given.
func (o *ReplayOptions) Complete(cmd *cobra.Command, args []string) {
	o.File = args[0]
	o.followSet = cmd.Flags().Changed("follow")
	o.printSet = cmd.Flags().Changed("output") || cmd.Flags().Changed("pod")
}

// Validate checks flag combinations.
func (o *ReplayOptions) Validate() error {
	if !o.NoTUI {
		if o.printSet {
			return errorf("--output and --pod are for printing the recording: add --no-tui")
		}
		return nil
	}
	if o.followSet && o.Follow {
		return errorf("--follow cannot be used with --no-tui, which prints the recording as it is now")
	}
	return validOutput(o.Output)
}

// Run prints the recording, or reads it in the background and runs the TUI in front.
func (o *ReplayOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.NoTUI {
		return o.print()
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
	// Nothing may wait before this check: without a terminal the TUI
	// could not even be quit.
	if !isTerminal(o.streams.In) || !isTerminal(o.streams.Out) {
		return errorf("replay opens an interactive debugger and needs a terminal; to print %s instead, run: kubectl schedscope replay %s --no-tui [-o text|json]", o.File, o.File)
	}
	// The header is read before the screen switches, so a file that is not a
	// recording fails with one line.
	rd, err := o.readHeader(in, cancel)
	if err != nil {
		return err
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
				if recorder.IsProblem(err) {
					// Every problem is sent: the TUI lists them all.
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

// readHeader reads the recording's header from in. Following a file that
// has no complete header yet, it waits at most o.headerWait, saying so, and
// then stops the follower with stop.
func (o *ReplayOptions) readHeader(in io.Reader, stop context.CancelFunc) (*recorder.Reader, error) {
	type result struct {
		rd  *recorder.Reader
		err error
	}
	done := make(chan result, 1)
	go func() {
		rd, err := recorder.NewReader(in)
		done <- result{rd, err}
	}()
	var r result
	if o.Follow {
		select {
		case r = <-done:
		case <-time.After(min(o.headerWait, 500*time.Millisecond)):
			fmt.Fprintf(o.streams.ErrOut, "waiting for %s's header…\n", o.File)
			select {
			case r = <-done:
			case <-time.After(o.headerWait - min(o.headerWait, 500*time.Millisecond)):
				stop()
				<-done // the follower, stopped, ends the read
				return nil, errorf("%s has no header after %s: not a recording, or its writer has not started", o.File, o.headerWait)
			}
		}
	} else {
		r = <-done
	}
	if r.err != nil {
		return nil, errorf("%s: %w", o.File, r.err)
	}
	return r.rd, nil
}

// print reads the whole recording and prints it as explain does. Problems
// go to standard error (and into the JSON document); they do not fail the
// command: verify does that.
func (o *ReplayOptions) print() error {
	rec, err := recorder.LoadFile(o.File)
	if err != nil {
		return err
	}
	cycles := distinctCycles(rec.Cycles)
	sortCycles(cycles)
	if o.Pod != "" {
		if cycles, err = podCycles(cycles, o.Pod, o.File); err != nil {
			return err
		}
	}
	source := "recording " + o.File
	if s := rec.Header.Source; s.Name != "" {
		source += fmt.Sprintf(" (%s %s)", s.Kind, s.Name)
	}
	out := cyclesOutput{header: rec.Header, source: source, problems: rec.Problems, cycles: cycles, observed: rec.Observed}
	if o.Pod != "" {
		out.observed = nil
		for _, ob := range rec.Observed {
			if ob.Pod.Name == o.Pod || ob.Pod.Key() == o.Pod {
				out.observed = append(out.observed, ob)
			}
		}
	}
	if err := out.print(o.streams.Out, o.Output); err != nil {
		return err
	}
	switch {
	case len(rec.Problems) > 0 && o.Output == "text":
		for _, p := range rec.Problems {
			fmt.Fprintf(o.streams.ErrOut, "warning: %s: %v\n", o.File, p)
		}
	case len(rec.Problems) > 0:
		fmt.Fprintf(o.streams.ErrOut, "warning: %s has %s, listed under .problems; run: kubectl schedscope verify %s\n", o.File, plural(len(rec.Problems), "problem"), o.File)
	}
	return nil
}

// isTerminal reports whether s is a terminal.
func isTerminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
