package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/cluster"
	"github.com/schedscope/schedscope/engine/featuregates"
	livemode "github.com/schedscope/schedscope/engine/live"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/report"
	"github.com/schedscope/schedscope/recorder/export/text"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui"
	"github.com/schedscope/schedscope/tui/pages/whatif"
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
	HealthAddr    string
	otlp          otlpOptions
	// gates is --feature-gates.
	gates   featureGatesFlag
	streams genericiooptions.IOStreams

	// mode is what --diagnostic says.
	mode engine.DiagnosticMode
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
	o.otlp.addFlags(cmd.Flags())
	o.gates.addFlag(cmd.Flags())
	cmd.Flags().StringVar(&o.HealthAddr, "health-addr", "", "serve /livez and /readyz on this address (e.g. :8080) for a kubelet's probes: ready once the cluster is mirrored, and while the API server answers")
	cmd.Flags().BoolVar(&o.NoTUI, "no-tui", false, "print one line per cycle and observed binding instead of opening the debugger")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "with --no-tui: text or json (one JSON object per line: a header line, then cycles, observed bindings and problems, in the export format of explain -o json)")
	return cmd
}

// Complete reads the diagnostic mode.
func (o *LiveOptions) Complete(*cobra.Command, []string) error {
	var err error
	o.mode, err = engine.ParseDiagnosticMode(o.Diagnostic)
	return err
}

// Validate checks flag combinations, and that the debugger has a terminal.
func (o *LiveOptions) Validate() error {
	if o.Output != "text" && o.Output != "json" {
		return errorf("--output must be text or json, not %q", o.Output)
	}
	if o.Keep < 0 {
		return errorf("--keep must not be negative")
	}
	if err := o.otlp.validate(); err != nil {
		return err
	}
	if !o.NoTUI && (!isTerminal(o.streams.In) || !isTerminal(o.streams.Out)) {
		return errorf("the debugger needs a terminal; without one, run: kubectl schedscope live --no-tui [-o text|json]")
	}
	return nil
}

// Run mirrors what the cluster reader reads and schedules until interrupted
// (or the TUI quits). SIGINT, SIGTERM or SIGHUP ends it as quitting does:
// the recording is closed and the summary printed.
func (o *LiveOptions) Run(ctx context.Context, reader *cluster.Reader) error {
	ctx, stop := interruptible(ctx)
	defer stop()
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

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var ctl *liveControl
	if !o.NoTUI {
		ctl = newLiveControl(nil)
		defer ctl.Close()
	}
	session := &liveSource{ctl: ctl}
	// Deferred first, so printed last: after the recording and the export
	// have said how they ended.
	defer o.summarize(ctx, session)
	eopts.Diagnostic, eopts.OnCycle, eopts.OnQueue, eopts.OnPodGroup = o.mode, session.cycle, session.queue, session.podGroup
	eopts.FeatureGates = featuregates.NonDefault()
	onConnection := session.connection
	var health *healthServer
	if o.HealthAddr != "" {
		if health, err = serveHealth(ctx, o.HealthAddr); err != nil {
			return err
		}
		onConnection = func(err error) {
			health.connection(err)
			session.connection(err)
		}
	}
	opts := livemode.Options{
		Options:       eopts,
		Cluster:       reader,
		Namespace:     ns,
		CallExtenders: o.CallExtenders,
		OnObserved:    session.observed,
		OnConnection:  onConnection,
	}
	if ctl != nil {
		opts.Gate = ctl.Gate
	}
	live, err := livemode.New(ctx, opts)
	if err != nil {
		return err
	}
	if ctl != nil {
		ctl.setCounts(live.QueueCounts)
	}
	if health != nil {
		health.setReady()
	}
	session.live = live
	var src source.Source = session
	var rec *flightRecorder
	if o.Record != "" {
		if rec, err = newFlightRecorder(session, o.Record, live.Header(), o.MaxSize, o.Keep); err != nil {
			return err
		}
		defer rec.close(o.streams.ErrOut)
		src = rec
	}
	src, finish, err := o.otlp.tee(ctx, src, o.streams.ErrOut)
	if err != nil {
		return err
	}
	defer finish()
	name := "cluster " + reader.Context
	if ns != "" {
		name += " · namespace " + ns
	}
	// What-if forks the mirror in memory: nothing is sent to the cluster.
	err = o.show(ctx, src, name, ctl, newLiveWhatIfSource(ctx, live))
	if ctx.Err() != nil {
		// Ended by a signal, which the debugger may also report as its
		// own interruption: the summary says which.
		stop() // a second signal ends the process at once
		err = nil
	}
	if err != nil {
		return err
	}
	if rec != nil {
		return rec.err()
	}
	return nil
}

// summarize says, in one line on standard error, how the session ended and
// what it saw.
func (o *LiveOptions) summarize(ctx context.Context, s *liveSource) {
	why := "ended"
	if ctx.Err() != nil {
		why = "stopped: " + context.Cause(ctx).Error()
	}
	line := fmt.Sprintf("live: %s after %s and %s", why, narrate.Count(int(s.cycles.Load()), "cycle"), narrate.Count(int(s.bindings.Load()), "observed binding"))
	if o.Record != "" {
		line += "; flight recording closed: " + o.Record
	}
	fmt.Fprintln(o.streams.ErrOut, line)
}

// show reads the session until ctx ends: printed with --no-tui, else in the
// debugger, under ctl.
func (o *LiveOptions) show(ctx context.Context, src source.Source, name string, ctl *liveControl, whatIf whatif.Source) error {
	if o.NoTUI {
		if err := consume(ctx, src, newLivePrinter(o.streams.Out, o.Output).event); !errors.Is(err, context.Canceled) {
			return err
		}
		return nil
	}
	return tui.Run(ctx, src, tui.Options{Source: name, Control: ctl, WhatIf: whatIf, NoGroupWhatIf: noGroupWhatIfLive,
		Fixtures: embeddedFixtures(), FirstRun: firstRunHint(o.streams.Out), Export: report.Files(".", name, nil)})
}

// livePrinter is live --no-tui: a line (with -o json, an object) for each
// cycle, binding the cluster's scheduler made, problem and change of where a
// pod stands.
type livePrinter struct {
	out    io.Writer
	output string
	// pods is where each pod stands: a change is printed.
	pods podTracker
}

func newLivePrinter(out io.Writer, output string) *livePrinter {
	return &livePrinter{out: out, output: output, pods: podTracker{pods: map[string]*trackedPod{}}}
}

// event prints what ev says.
func (p *livePrinter) event(ev source.Event) error {
	switch {
	case ev.Header != nil:
		p.header(*ev.Header)
	case ev.Cycle != nil:
		p.cycle(ev.Cycle)
	case ev.Queue != nil:
		p.queue(ev.Queue)
	case ev.Observed != nil:
		p.observed(ev.Observed)
	case ev.Problem != nil:
		p.print(map[string]any{"problem": ev.Problem.Error()}, func(w io.Writer) { fmt.Fprintf(w, "problem: %v\n", ev.Problem) })
	}
	return nil
}

func (p *livePrinter) header(h recorder.Header) {
	if p.output == "json" {
		// The first line says what the lines are: the export format, its
		// version, and the session's header.
		doc := export.NewDocument(h, nil, nil)
		p.print(map[string]any{"format": doc.Format, "schemaVersion": doc.SchemaVersion, "header": doc.Header}, nil)
	}
}

func (p *livePrinter) cycle(c *recorder.Cycle) {
	p.print(map[string]any{"cycle": export.NewCycle(c)}, func(w io.Writer) {
		fmt.Fprintf(w, "cycle %d %s attempt %d: %s\n", c.Seq, c.Pod.Key(), c.Attempt, narrate.Outcome(c.Outcome))
	})
	p.printState(p.pods.cycle(c))
}

// queue prints a scheduling queue event when it changes where the pod stands.
func (p *livePrinter) queue(ev *recorder.QueueEvent) {
	p.printState(p.pods.queue(ev))
}

func (p *livePrinter) observed(ob *recorder.Observed) {
	p.print(map[string]any{"observed": export.NewObserved(ob)}, func(w io.Writer) { text.New(w).Observed(ob) })
}

// printState prints a pod's new state, if it changed.
func (p *livePrinter) printState(st *recorder.PodState) {
	if st == nil {
		return
	}
	p.print(map[string]any{"pod": export.NewPodStates([]recorder.PodState{*st})[0]}, func(w io.Writer) { fmt.Fprintln(w, stateText(st)) })
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

// print writes v as a JSON line, or text.
func (p *livePrinter) print(v any, text func(io.Writer)) {
	if p.output == "json" {
		b, err := json.Marshal(v)
		if err == nil {
			fmt.Fprintln(p.out, string(b))
		}
		return
	}
	text(p.out)
}
