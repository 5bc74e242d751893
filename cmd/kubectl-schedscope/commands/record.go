package commands

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/source"
)

// RecordOptions holds the flags of record.
type RecordOptions struct {
	simOptions
	Output string
	// Leftover is what to do with the partial recordings an earlier run to
	// the same output left when it was killed: keep or remove.
	Leftover string
	otlp     otlpOptions
}

// What --leftover does with an earlier run's partial recording.
const (
	leftoverKeep   = "keep"
	leftoverRemove = "remove"
)

// NewCmdRecord schedules a fixture and writes a recording.
func NewCmdRecord(streams genericiooptions.IOStreams) *cobra.Command {
	o := &RecordOptions{simOptions: newSimOptions(streams)}
	cmd := &cobra.Command{
		Use:   "record [-f FIXTURE] [--config FILE] -o FILE|-",
		Short: "Schedule a fixture and write every cycle to a recording file",
		Long: "record schedules a fixture and writes every cycle to a recording (mode 0600: it holds cluster data).\n" +
			"The file is written under a temporary name and renamed into place at the end, so a failed run\n" +
			"leaves an existing FILE as it was. -o - writes the recording to standard output, which must not\n" +
			"be a terminal.\n\n" +
			"Interrupted (Ctrl-C, SIGTERM, SIGHUP), record keeps the cycles written so far in the temporary\n" +
			"file and says where; killed outright, it cannot, and the next record to the same FILE names the\n" +
			"partial recording it finds (--leftover keep, the default, or remove). verify reads one.",
		Args: cobra.NoArgs,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "recording file to write, or - for standard output")
	o.otlp.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Leftover, "leftover", leftoverKeep, "what to do with a partial recording of FILE that an earlier, killed run left: keep (and name it) or remove")
	return cmd
}

// Validate checks the flags and loads the inputs, before any output exists.
func (o *RecordOptions) Validate() error {
	if o.Output == "" {
		return errorf("--output (-o) is required: the recording file to write")
	}
	if o.Leftover != leftoverKeep && o.Leftover != leftoverRemove {
		return errorf("--leftover must be keep or remove, not %q", input.Quote(o.Leftover))
	}
	if err := o.otlp.validate(); err != nil {
		return err
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
	return o.checkOutput(o.Output)
}

// Run writes the recording; each cycle is appended as soon as it completes,
// to a temporary file renamed over the output when the fixture has settled.
// A signal that can be caught stops the run and keeps that file.
func (o *RecordOptions) Run(ctx context.Context) error {
	ctx, stop := interruptible(ctx)
	defer stop()
	var out io.Writer = o.streams.Out
	where := "standard output"
	var f *recorder.AtomicFile
	if o.Output != "-" {
		if err := o.leftovers(); err != nil {
			return err
		}
		var err error
		if f, err = recorder.CreateAtomic(o.Output, o.Fixture, o.Config); err != nil {
			return err
		}
		defer f.Abort()
		out, where = f, o.Output
	}
	rec := &sessionRecorder{out: out}
	src, finish, err := o.otlp.tee(ctx, o.source, o.streams.ErrOut)
	if err != nil {
		return err
	}
	defer finish()
	// start and end bound the scheduling: what the export does after
	// the last cycle is not its time.
	var start, end time.Time
	n := 0
	// pods holds every pod with a cycle (the fixture's and those its
	// controllers made), and how its last cycle ended; not the cycle,
	// which holds every node's scores.
	type last struct {
		seq   int
		bound bool
	}
	pods := map[string]last{}
	err = consume(ctx, src, func(ev source.Event) error {
		err := rec.write(ev)
		switch {
		case ev.Header != nil:
			start = time.Now()
			return err // nothing is recorded without it
		case ev.Cycle != nil:
			n++
			end = time.Now()
			if l, ok := pods[ev.Cycle.Pod.Key()]; !ok || ev.Cycle.Seq > l.seq {
				pods[ev.Cycle.Pod.Key()] = last{ev.Cycle.Seq, ev.Cycle.Outcome.Result == recorder.ResultBound}
			}
		}
		return nil // rec.err keeps the first error
	})
	rec.close()
	if end.IsZero() {
		end = time.Now()
	}
	took := end.Sub(start)
	if err != nil && ctx.Err() != nil {
		stop() // a second signal ends the process at once
		return o.interrupted(f, n, rec.err)
	}
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
	bound := 0
	for _, l := range pods {
		if l.bound {
			bound++
		}
	}
	fmt.Fprintf(o.streams.ErrOut, "wrote %s to %s: %s through the scheduler (%d bound, %d not) in %s (%.0f pods/s, %s arrival)\n",
		narrate.Count(n, "cycle"), where, narrate.Count(len(pods), "pod"), bound, len(pods)-bound, took.Round(time.Millisecond), float64(len(pods))/took.Seconds(), o.arrival())
	return nil
}

// interrupted ends a run stopped by a signal: the cycles written so far
// stay in the temporary file, named in the error, unless nothing was.
func (o *RecordOptions) interrupted(f *recorder.AtomicFile, cycles int, werr error) error {
	if f == nil {
		return errorf("interrupted: %s recorded to standard output", narrate.Count(cycles, "complete cycle"))
	}
	if werr != nil {
		f.Abort()
		return errorf("interrupted after writing %s failed: %v", o.Output, werr)
	}
	if cycles == 0 {
		f.Abort()
		return errorf("interrupted before any cycle was recorded: %s was not written", o.Output)
	}
	kept, err := f.Keep()
	if err != nil {
		f.Abort()
		return errorf("interrupted: the partial recording could not be kept: %v", err)
	}
	return errorf("interrupted: %s not written; the %s recorded so far are in %s (verify and replay read it; mv it to keep it)",
		o.Output, narrate.Count(cycles, "complete cycle"), filepath.Clean(kept))
}

// leftovers names the partial recordings of Output that earlier runs left
// when they were killed, and removes them with --leftover remove.
func (o *RecordOptions) leftovers() error {
	left, err := recorder.Leftovers(o.Output)
	if err != nil {
		return err
	}
	for _, l := range left {
		who := "an earlier run"
		if l.PID != 0 {
			who = fmt.Sprintf("process %d, which is no longer running", l.PID)
		}
		if o.Leftover == leftoverRemove {
			if err := os.Remove(l.Path); err != nil {
				return err
			}
			fmt.Fprintf(o.streams.ErrOut, "removed %s: a partial recording of %s left by %s (%d bytes, %s)\n",
				l.Path, o.Output, who, l.Size, l.ModTime.Format(time.DateTime))
			continue
		}
		fmt.Fprintf(o.streams.ErrOut, "kept %s: a partial recording of %s left by %s (%d bytes, %s); verify and replay read it, --leftover remove deletes it\n",
			l.Path, o.Output, who, l.Size, l.ModTime.Format(time.DateTime))
	}
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
