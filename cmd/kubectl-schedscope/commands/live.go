package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/cluster"
	livemode "github.com/schedscope/schedscope/engine/live"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui"
)

// LiveOptions holds the flags of live.
type LiveOptions struct {
	cluster       clusterOptions
	AllNamespaces bool
	Diagnostic    string
	Record        string
	MaxSize       int64
	Keep          int
	NoTUI         bool
	Output        string
	CallExtenders bool
	streams       genericiooptions.IOStreams
}

// NewCmdLive watches a real cluster read-only and runs a cycle for each pending pod.
func NewCmdLive(streams genericiooptions.IOStreams) *cobra.Command {
	o := &LiveOptions{streams: streams, cluster: newClusterOptions()}
	cmd := o.cluster.command(&cobra.Command{
		Use:   "live [-n NAMESPACE | -A] [--config FILE] [--record FILE]",
		Short: "Watch a cluster read-only and show the cycle the scheduler runs for each pending pod",
		Long: "live mirrors what the scheduler reads from the cluster (nodes, pods, volumes, classes, DRA objects, …)\n" +
			"through read-only informers into the embedded kube-scheduler, runs a cycle for each pending pod as it\n" +
			"arrives, and shows it next to the node the cluster's own scheduler chose. It never writes to the cluster:\n" +
			"its client refuses every request but GET. Pass the cluster's KubeSchedulerConfiguration with --config.",
	}, o, "the cluster's KubeSchedulerConfiguration file (default: kube-scheduler's default profile)")
	cmd.Flags().BoolVarP(&o.AllNamespaces, "all-namespaces", "A", false, "run cycles for pending pods of every namespace")
	cmd.Flags().StringVar(&o.Diagnostic, "diagnostic", string(engine.DiagnosticUnschedulable), "when to run the diagnostic full-filter pass: always, unschedulable or never")
	cmd.Flags().StringVar(&o.Record, "record", "", "also write a flight recording to this file")
	cmd.Flags().Int64Var(&o.MaxSize, "max-size", 256<<20, "with --record: start a new file when it reaches this many bytes (0: never)")
	cmd.Flags().IntVar(&o.Keep, "keep", 4, "with --record: how many full files to keep as FILE.1 … FILE.N")
	cmd.Flags().BoolVar(&o.CallExtenders, "call-extenders", false, "send pending pods (and, unless nodeCacheCapable, their candidate nodes) to the filter and prioritize verbs of the extenders in --config; their bind and preempt verbs are never called")
	cmd.Flags().BoolVar(&o.NoTUI, "no-tui", false, "print one line per cycle and observed binding instead of opening the debugger")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "with --no-tui: text or json (one JSON object per line: a header line, then cycles, observed bindings and problems, in the export format of explain -o json)")
	return cmd
}

// Validate checks flag combinations.
func (o *LiveOptions) Validate() error {
	if o.Output != "text" && o.Output != "json" {
		return errorf("--output must be text or json, not %q", o.Output)
	}
	if o.Keep < 0 {
		return errorf("--keep must not be negative")
	}
	if _, err := engine.ParseDiagnosticMode(o.Diagnostic); err != nil {
		return err
	}
	return nil
}

// Run mirrors the cluster reader reads and schedules until interrupted (or
// the TUI quits).
func (o *LiveOptions) Run(ctx context.Context, reader *cluster.Reader) error {
	ns := ""
	if !o.AllNamespaces {
		var err error
		if ns, err = reader.Namespace(); err != nil {
			return err
		}
	}
	eopts, err := o.cluster.engineOptions()
	if err != nil {
		return err
	}
	mode, _ := engine.ParseDiagnosticMode(o.Diagnostic)
	if !o.NoTUI && (!isTerminal(o.streams.In) || !isTerminal(o.streams.Out)) {
		return errorf("the debugger needs a terminal; without one, run: kubectl schedscope live --no-tui [-o text|json]")
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := newLiveOutput(o, ctx)
	defer out.close()
	var ctl *liveControl
	eopts.Diagnostic, eopts.OnCycle, eopts.OnQueue = mode, out.cycle, out.queue
	opts := livemode.Options{
		Options:       eopts,
		Cluster:       reader,
		Namespace:     ns,
		CallExtenders: o.CallExtenders,
		OnObserved:    out.observed,
		OnConnection: func(err error) {
			out.connection(err)
		},
	}
	if !o.NoTUI {
		ctl = newLiveControl(func(st tui.EngineState) { out.send(tui.Event{State: &st}) })
		defer ctl.Close()
		opts.Gate = ctl.Gate
	}
	live, err := livemode.New(ctx, opts)
	if err != nil {
		return err
	}
	if ctl != nil {
		ctl.setCounts(live.QueueCounts)
		out.ctl = ctl
	}
	if err := out.start(live.Header()); err != nil {
		return err
	}
	for _, n := range live.Notes() {
		out.problem(errors.New(n))
	}
	for _, s := range live.Skipped() {
		out.problem(fmt.Errorf("the cluster does not serve %s; the scheduler sees none", s))
	}
	runDone := make(chan error, 1)
	go func() { runDone <- live.Run(ctx) }()
	if o.NoTUI {
		select {
		case <-ctx.Done():
		case err := <-runDone:
			return err
		}
		<-runDone
		return out.err()
	}
	source := "cluster " + reader.Context
	if ns != "" {
		source += " · namespace " + ns
	}
	// What-if forks the mirror in memory: nothing is sent to the cluster.
	err = tui.Run(ctx, tui.Options{Source: source, Events: out.events, Control: ctl,
		WhatIf: newLiveWhatIfSource(ctx, live)})
	cancel()
	ctl.Close()
	<-runDone
	if err != nil {
		return err
	}
	return out.err()
}

// liveOutput fans the session out to the TUI (or stdout) and the recording.
type liveOutput struct {
	o      *LiveOptions
	ctx    context.Context
	events chan tui.Event
	ctl    *liveControl

	mu sync.Mutex
	// The flight recorder: rw is the file, w writes to it in the background
	// and drops records rather than stall the scheduler behind a slow disk.
	rw       *recorder.RotatingWriter
	w        *recorder.AsyncWriter
	writeErr error
	// dropsTold is how many dropped records were last reported, and when.
	dropsTold   int64
	dropsToldAt time.Time
	lostAt      time.Time
	// pods is where each pod stands, headless: a state change is printed.
	pods podTracker
}

// liveRecordQueue is how many records the flight recorder holds for a slow
// disk before it drops them: a few seconds of a busy cluster's cycles.
const liveRecordQueue = 4096

// dropReportEvery is how often a live session says again that its recording
// is dropping records.
const dropReportEvery = 10 * time.Second

func newLiveOutput(o *LiveOptions, ctx context.Context) *liveOutput {
	return &liveOutput{o: o, ctx: ctx, events: make(chan tui.Event, 1024), pods: podTracker{pods: map[string]*trackedPod{}}}
}

func (l *liveOutput) start(h recorder.Header) error {
	if l.o.Record != "" {
		rw, err := recorder.NewRotatingWriter(l.o.Record, h, l.o.MaxSize, l.o.Keep)
		if err != nil {
			return err
		}
		l.rw, l.w = rw, recorder.NewAsyncWriter(rw, liveRecordQueue, true)
	}
	if l.o.NoTUI && l.o.Output == "json" {
		// The first line says what the lines are: the export format, its
		// version, and the session's header.
		doc := export.NewDocument(h, nil, nil)
		l.print(map[string]any{"format": doc.Format, "schemaVersion": doc.SchemaVersion, "header": doc.Header}, nil)
	}
	if !l.o.NoTUI {
		l.send(tui.Event{Header: &h})
		// The control reports its own state (a pause pressed early stays shown).
		if l.ctl != nil {
			l.ctl.Refresh()
		} else {
			l.send(tui.Event{State: &tui.EngineState{State: tui.StateRunning}})
		}
	}
	return nil
}

func (l *liveOutput) send(ev tui.Event) {
	if l.o.NoTUI {
		return
	}
	select {
	case l.events <- ev:
	case <-l.ctx.Done():
	}
}

// record queues a record for the flight recorder. It never waits for the
// disk; a write error is reported once, and dropped records every
// dropReportEvery while they go on.
func (l *liveOutput) record(write func(*recorder.AsyncWriter) error) {
	if l.w == nil {
		return
	}
	err := write(l.w)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil && l.writeErr == nil {
		l.writeErr = err
		l.problemLocked(err)
	}
	if n := l.w.Dropped(); n > l.dropsTold && time.Since(l.dropsToldAt) >= dropReportEvery {
		l.dropsTold, l.dropsToldAt = n, time.Now()
		l.problemLocked(droppedError(l.o.Record, n))
	}
}

func droppedError(path string, n int64) error {
	return fmt.Errorf("%s: writing fell behind the scheduler; %d records dropped so far (the recording notes where)", path, n)
}

func (l *liveOutput) cycle(c *recorder.Cycle) {
	l.record(func(w *recorder.AsyncWriter) error { return w.WriteCycle(c) })
	if l.o.NoTUI {
		l.print(map[string]any{"cycle": export.NewCycle(c)}, func(w io.Writer) {
			fmt.Fprintf(w, "cycle %d %s attempt %d: %s\n", c.Seq, c.Pod.Key(), c.Attempt, narrate.Outcome(c.Outcome))
		})
		l.printState(l.pods.cycle(c))
		return
	}
	l.send(tui.Event{Cycle: c})
	if l.ctl != nil {
		l.ctl.Observe(c)
	}
}

// queue takes a scheduling queue event: recorded, and headless, printed
// when it changes where the pod stands.
func (l *liveOutput) queue(ev *recorder.QueueEvent) {
	l.record(func(w *recorder.AsyncWriter) error { return w.WriteQueue(ev) })
	if l.o.NoTUI {
		l.printState(l.pods.queue(ev))
		return
	}
	l.send(tui.Event{Queue: ev})
}

// printState prints a pod's new state, if it changed.
func (l *liveOutput) printState(st *recorder.PodState) {
	if st == nil {
		return
	}
	l.print(map[string]any{"pod": st}, func(w io.Writer) { fmt.Fprintln(w, stateText(st)) })
}

// stateText is a pod state in one line, as kubectl describe would word its
// PodScheduled condition.
func stateText(st *recorder.PodState) string {
	line := "pod " + st.Pod.Key() + ": " + st.State
	if st.Node != "" {
		line += " on " + st.Node
	}
	if st.State == recorder.PodBackoff && !st.BackoffUntil.IsZero() {
		line += fmt.Sprintf(" until %s (after %d attempt(s))", st.BackoffUntil.UTC().Format("15:04:05.000"), st.Attempts)
	}
	if msg := narrate.PodMessage(*st); msg != "" {
		line += ": " + msg
	}
	if n := len(st.Queue); n > 0 {
		line += " [" + narrate.QueueEvent(&st.Queue[n-1]) + "]"
	}
	return line
}

// podTracker follows where each pod stands from its last cycle and its last
// queue event, as recorder.PodStates words it.
type podTracker struct {
	mu   sync.Mutex
	pods map[string]*trackedPod
}

type trackedPod struct {
	last  *recorder.Cycle
	ev    *recorder.QueueEvent
	state string
}

func (t *podTracker) cycle(c *recorder.Cycle) *recorder.PodState {
	return t.update(c.Pod.Key(), func(p *trackedPod) { p.last = c })
}

func (t *podTracker) queue(ev *recorder.QueueEvent) *recorder.PodState {
	return t.update(ev.Pod.Key(), func(p *trackedPod) { p.ev = ev })
}

// update applies a change to a pod and returns its state when the words
// describing it changed.
func (t *podTracker) update(key string, change func(*trackedPod)) *recorder.PodState {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.pods[key]
	if p == nil {
		p = &trackedPod{}
		t.pods[key] = p
	}
	change(p)
	tried := 0
	if p.last != nil {
		tried = p.last.Attempt
	}
	if p.ev != nil && p.ev.Event == "ScheduleAttemptFailure" && p.ev.Attempts > tried {
		return nil // the failed cycle comes next, and says more
	}
	var cycles []*recorder.Cycle
	if p.last != nil {
		cycles = append(cycles, p.last)
	}
	var queue []*recorder.QueueEvent
	if p.ev != nil {
		queue = append(queue, p.ev)
	}
	states := recorder.PodStates(cycles, nil, queue)
	if p.ev != nil && p.ev.Op == recorder.QueueDelete {
		delete(t.pods, key) // it left the queue: bound, or gone
		if p.last == nil || p.last.Outcome.Result != recorder.ResultBound {
			// Bound by another scheduler, or deleted: its cycles (if any)
			// said all there is.
			return nil
		}
	}
	if len(states) != 1 {
		return nil
	}
	st := states[0]
	st.Seqs = nil
	if p.ev == nil || p.last != nil && p.ev.Time.Before(p.last.Start) {
		st.Queue = nil // the cycle, not the queue, changed it
	}
	words := stateText(&recorder.PodState{Pod: st.Pod, State: st.State, Node: st.Node, Message: st.Message, BackoffUntil: st.BackoffUntil, Attempts: st.Attempts})
	if words == p.state {
		return nil
	}
	p.state = words
	return &st
}

func (l *liveOutput) observed(ob *recorder.Observed) {
	l.record(func(w *recorder.AsyncWriter) error { return w.WriteObserved(ob) })
	if l.o.NoTUI {
		l.print(map[string]any{"observed": export.NewObserved(ob)}, func(w io.Writer) { newTextWriter(w).observed(ob) })
		return
	}
	l.send(tui.Event{Observed: ob})
}

// connection shows losing and regaining the API server. States are sent in
// order, from the caller's goroutine; on reconnection the controller reports
// its own state (running or paused) again.
func (l *liveOutput) connection(err error) {
	l.mu.Lock()
	var state *tui.EngineState
	refresh := false
	switch {
	case err != nil && l.lostAt.IsZero():
		l.lostAt = time.Now()
		l.problemLocked(fmt.Errorf("lost the API server since %s: %w", l.lostAt.Format("15:04:05"), err))
		state = &tui.EngineState{State: tui.StateDisconnected, Why: "since " + l.lostAt.Format("15:04:05")}
	case err == nil && !l.lostAt.IsZero():
		gap := time.Since(l.lostAt).Round(time.Second)
		l.lostAt = time.Time{}
		l.problemLocked(fmt.Errorf("connection to the API server is back after %v; missed changes were relisted", gap))
		refresh = true
	}
	ctl := l.ctl
	l.mu.Unlock()
	if l.o.NoTUI {
		return
	}
	switch {
	case state != nil:
		l.send(tui.Event{State: state})
	case refresh && ctl != nil:
		ctl.Refresh()
	case refresh:
		l.send(tui.Event{State: &tui.EngineState{State: tui.StateRunning}})
	}
}

func (l *liveOutput) problem(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.problemLocked(err)
}

func (l *liveOutput) problemLocked(err error) {
	if l.o.NoTUI {
		l.printLocked(map[string]any{"problem": err.Error()}, func(w io.Writer) { fmt.Fprintf(w, "problem: %v\n", err) })
		return
	}
	go l.send(tui.Event{Problem: err})
}

func (l *liveOutput) print(v any, text func(io.Writer)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.printLocked(v, text)
}

func (l *liveOutput) printLocked(v any, text func(io.Writer)) {
	if l.o.Output == "json" {
		b, err := json.Marshal(v)
		if err == nil {
			fmt.Fprintln(l.o.streams.Out, string(b))
		}
		return
	}
	text(l.o.streams.Out)
}

func (l *liveOutput) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.writeErr
}

// close writes what the flight recorder holds and closes its file. Records
// dropped since the last report are reported on the way out.
func (l *liveOutput) close() {
	if l.w == nil {
		return
	}
	err := l.w.Close()
	if cerr := l.rw.Close(); err == nil {
		err = cerr
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil && l.writeErr == nil {
		l.writeErr = err
	}
	if n := l.w.Dropped(); n > l.dropsTold {
		l.dropsTold = n
		fmt.Fprintln(l.o.streams.ErrOut, droppedError(l.o.Record, n))
	}
}
