package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/report"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/recorder/visible"
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
		RunE: runE(o),
	}
	cmd.Flags().BoolVar(&o.Follow, "follow", true, "keep reading records appended to the file, like tail -f")
	cmd.Flags().BoolVar(&o.NoTUI, "no-tui", false, "print the cycles instead of opening the debugger (no terminal needed)")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "with --no-tui: text, json, yaml or markdown")
	cmd.Flags().StringVar(&o.Pod, "pod", "", "with --no-tui: only print cycles of this pod (name or namespace/name)")
	return cmd
}

// Complete takes the file argument and notes which flags were given.
func (o *ReplayOptions) Complete(cmd *cobra.Command, args []string) error {
	o.File = args[0]
	o.followSet = cmd.Flags().Changed("follow")
	o.printSet = cmd.Flags().Changed("output") || cmd.Flags().Changed("pod")
	return nil
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
	return validCyclesOutput(o.Output)
}

// Run prints the recording, or indexes it in the background and runs the TUI
// in front, which reads the cycles it shows through the index.
func (o *ReplayOptions) Run(ctx context.Context) error {
	started := time.Now()
	if o.NoTUI {
		return o.print(ctx)
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
	files, err := openReplayFiles(o.File)
	if err != nil {
		return err
	}
	defer files.Close()
	src := &recordingSource{path: o.File, follow: o.Follow, rd: rd, files: files}
	// Whether it is following shows as the session's state.
	name := "replay " + o.File
	marks := openMarks(o.File)
	opts := tui.Options{Source: name, Recording: files, Fixtures: embeddedFixtures(), FirstRun: firstRunHint(o.streams.Out),
		Marks: marks, Export: report.Files(".", name, marks.Marks)}
	// A recording of a fixture's run can be questioned: what-if runs the
	// fixture again, when it is still the one recorded.
	if rerun, why := replayWhatIf(rd.Header(), o.File); rerun != nil {
		opts.WhatIf, opts.GroupWhatIf = newWhatIfSource(ctx, rerun), newGroupWhatIfSource(ctx, rerun)
	} else {
		opts.NoWhatIf, opts.NoGroupWhatIf = why, why
	}
	// SCHEDSCOPE_TRACE names a file to write the times of measured frames
	// to when the TUI ends: make bench reads it.
	tracePath := os.Getenv("SCHEDSCOPE_TRACE")
	if tracePath != "" {
		opts.Trace = &tui.Trace{Started: started}
	}
	err = tui.Run(ctx, src, opts)
	if tracePath != "" {
		if f, ferr := os.Create(tracePath); ferr == nil {
			opts.Trace.WriteTo(f)
			f.Close()
		}
	}
	return err
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
		rd, err := recorder.NewIndexReader(in)
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

// print prints the recording as explain does, in memory that does not grow
// with the cycles' size: a first pass (the recording's source, decoding
// every record as LoadFile does, so that it finds the same problems) checks
// every record and keeps where each cycle is, a second reads the cycles to
// print one at a time. Problems go to standard error (and into the JSON
// document); they do not fail the command: verify does that.
func (o *ReplayOptions) print(ctx context.Context) error {
	f, rd, err := openReader(o.File)
	if err != nil {
		return err
	}
	defer f.Close()
	files, err := openReplayFiles(o.File)
	if err != nil {
		return err
	}
	defer files.Close()
	header := rd.Header()
	var places []recorder.CycleEntry
	var problems []error
	var observed []*recorder.Observed
	var queue []*recorder.QueueEvent
	var cluster *recorder.ClusterState
	var groups []*recorder.PodGroupCycle
	// Where each pod stands, from the cycles as the first pass decodes
	// them (only a summary of each is kept) and the queue events.
	var states recorder.PodStateBuilder
	// A rotated stream cannot be printed from one file; LoadFile does not
	// see one either.
	src := &recordingSource{path: o.File, rd: rd, files: files, headless: true, onCycle: states.Add}
	err = consume(ctx, src, func(ev source.Event) error {
		var p *recordingProblem
		switch {
		case ev.Entries != nil:
			places = append(places, ev.Entries...)
		case ev.Observed != nil:
			observed = append(observed, ev.Observed)
		case ev.Queue != nil:
			queue = append(queue, ev.Queue)
		case ev.Cluster != nil:
			cluster = ev.Cluster
		case ev.PodGroup != nil:
			groups = append(groups, ev.PodGroup)
		case errors.As(ev.Problem, &p):
			problems = append(problems, p.err)
		case ev.Problem != nil:
			problems = append(problems, ev.Problem)
		case ev.Err != nil:
			return ev.Err
		}
		return nil
	})
	if err != nil {
		return err
	}
	// As explain prints them: by sequence number, a repeated cycle once.
	sort.SliceStable(places, func(i, j int) bool { return places[i].Seq < places[j].Seq })
	seen := map[int]bool{}
	kept := places[:0]
	for _, p := range places {
		if !seen[p.Seq] {
			seen[p.Seq] = true
			kept = append(kept, p)
		}
	}
	places = kept
	everyCycle := slices.Clone(places) // before --pod keeps one pod's
	// A recording holds the pods that had a cycle or a queue event; pods
	// that arrived bound or that no profile serves are not in it.
	for _, g := range groups {
		states.AddGroup(g)
	}
	pods := states.States(nil, queue)
	if o.Pod != "" {
		kept = nil
		for _, p := range places {
			if p.Pod.Name == o.Pod || p.Pod.Key() == o.Pod {
				kept = append(kept, p)
			}
		}
		if len(kept) == 0 {
			stubs := make([]*recorder.Cycle, len(places))
			for i, p := range places {
				stubs[i] = &recorder.Cycle{Seq: p.Seq, Pod: p.Pod}
			}
			_, err := podCycles(stubs, o.Pod, o.File)
			return err
		}
		places = kept
		var mine []recorder.PodState
		for _, p := range pods {
			if p.Pod.Name == o.Pod || p.Pod.Key() == o.Pod {
				mine = append(mine, p)
			}
		}
		pods = mine
		var mineGroups []*recorder.PodGroupCycle
		for _, g := range groups {
			for _, m := range g.Members {
				if m.Pod.Name == o.Pod || m.Pod.Key() == o.Pod {
					mineGroups = append(mineGroups, g)
					break
				}
			}
		}
		groups = mineGroups
		all := observed
		observed = nil
		for _, ob := range all {
			if ob.Pod.Name == o.Pod || ob.Pod.Key() == o.Pod {
				observed = append(observed, ob)
			}
		}
	}
	source := "recording " + o.File
	if s := header.Source; s.Name != "" {
		source += fmt.Sprintf(" (%s %s)", s.Kind, s.Name)
	}
	cycles := func(yield func(*recorder.Cycle, error) bool) {
		for _, p := range places {
			c, err := files.Open(p)
			if c == nil && err == nil {
				err = fmt.Errorf("cycle %d is not at byte %d", p.Seq, p.Offset)
			}
			if c == nil && !yield(nil, errorf("%s changed while it was printed: %w", o.File, err)) {
				return
			}
			if c != nil && !yield(c, nil) { // a missing node set was reported by the first pass
				return
			}
		}
	}
	var marks []recorder.Mark
	if o.Output == "markdown" || o.Output == "html" {
		// The marks beside the recording, when they are its own.
		ms := openMarks(o.File)
		if err := ms.Err(); err != nil {
			fmt.Fprintf(o.streams.ErrOut, "warning: %s\n", visible.String(err.Error()))
		}
		// A mark whose cycle is not there, or schedules another pod, is
		// said, not shown (as the debugger does).
		var strays []recorder.StrayMark
		marks, strays = recorder.Applicable(ms.Marks(), everyCycle)
		for _, s := range strays {
			fmt.Fprintf(o.streams.ErrOut, "warning: %s: %s\n", visible.String(recorder.MarksPath(o.File)), visible.String(narrate.StrayMark(s)))
		}
	}
	// The numbers behind a resource rejection need the node use as of its
	// cycle: rebuilt from every cycle up to it, --pod or not.
	order := make(map[int]int, len(everyCycle))
	for i, p := range everyCycle {
		order[p.Seq] = i
	}
	short := func(c *recorder.Cycle) *recorder.Shortfalls {
		i, ok := order[c.Seq]
		if !ok || !c.RejectedForResources() {
			return nil
		}
		u, err := files.Usage(everyCycle[:i+1])
		if err != nil {
			return nil
		}
		return recorder.ShortfallsOf(c, u)
	}
	if o.Pod != "" {
		cluster = nil // what the controllers left is the run's, not the pod's
	}
	out := report.Stream{Header: header, Source: source, Problems: problems, N: len(places), Cycles: cycles, Observed: observed,
		Groups: groups, Pods: pods, Cluster: cluster, Marks: marks, Short: short}
	if err := out.Print(o.streams.Out, o.Output); err != nil {
		return err
	}
	switch {
	case len(problems) > 0 && o.Output == "text":
		for _, p := range problems {
			fmt.Fprintf(o.streams.ErrOut, "warning: %s: %v\n", o.File, p)
		}
	case len(problems) > 0:
		fmt.Fprintf(o.streams.ErrOut, "warning: %s has %s, listed under .problems; run: kubectl schedscope verify %s\n", o.File, narrate.Count(len(problems), "problem"), o.File)
	}
	return nil
}

// isTerminal reports whether s is a terminal.
func isTerminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
