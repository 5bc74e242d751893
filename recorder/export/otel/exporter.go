package otel

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	otelapi "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/schedscope/schedscope/recorder"
)

// DefaultQueue is how many cycles and queue events wait for the exporter
// before more are dropped: a few seconds of a busy cluster.
const DefaultQueue = 4096

// DefaultTimeout is how long the backend may take nothing before the
// exporter gives up on it (Options.Timeout).
const DefaultTimeout = 5 * time.Second

// Options configure an Exporter.
type Options struct {
	Target Target
	// Queue is how many cycles and queue events may wait to be turned into
	// spans; beyond it they are dropped and counted. 0 means DefaultQueue.
	Queue int
	// Wait makes Begin, Cycle and Queue wait for room in the queue instead
	// of dropping: for exporting a recording, where nothing runs faster
	// than the backend takes it.
	Wait bool
	// Timeout bounds how long the backend may take nothing: one request,
	// a Wait for room, or Close. When it passes, the exporter gives up:
	// requests in flight are cancelled and what is left is dropped and
	// counted. 0 means DefaultTimeout.
	Timeout time.Duration
	// WhatIf, if set, describes the what-if whose cycles these are
	// (schedscope.whatif), by the fields it touches, never by the values
	// a user wrote (narrate.ChangeFields).
	WhatIf string
	// spans replaces the OTLP exporter, and batch the batch processor's
	// queue and batch size (tests).
	spans sdktrace.SpanExporter
	batch int
}

// An Exporter turns cycles into traces and sends them. Begin, Cycle and
// Queue never wait: they hand their record to one goroutine through a
// bounded queue (unless Options.Wait). The cycles handed over must not
// change afterwards.
type Exporter struct {
	opts  Options
	out   *countingExporter
	items chan item
	done  chan struct{}
	// gone ends when the exporter gives up on the backend; giveUp ends it
	// with the reason.
	gone   context.Context
	giveUp context.CancelCauseFunc

	dropped atomic.Int64
	cycles  atomic.Int64
	groups  atomic.Int64
	spans   atomic.Int64

	// Owned by the goroutine that runs.
	tp      *sdktrace.TracerProvider
	tracer  trace.Tracer
	header  recorder.Header
	stories map[string][]recorder.QueueEvent
	// ended holds, by pod key, the UID of a pod whose Delete came before
	// the cycle it was in: its story waits for that cycle, then goes.
	ended map[string]string

	closeOnce sync.Once
	summary   Summary
}

type item struct {
	// flushed, if set, is closed when the goroutine reaches it.
	flushed chan struct{}
	header  *recorder.Header
	cycle   *recorder.Cycle
	queue   *recorder.QueueEvent
	group   *recorder.PodGroupCycle
}

// New starts an exporter to o.Target. Nothing is sent until Begin.
func New(ctx context.Context, o Options) (*Exporter, error) {
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	spans := o.spans
	if spans == nil {
		var err error
		if spans, err = otlpExporter(ctx, o.Target, o.Timeout); err != nil {
			return nil, fmt.Errorf("%s: %w", o.Target.From, err)
		}
	}
	// The SDK reports a failed export to the global error handler, which
	// prints to standard error, over the TUI; the exporter below keeps
	// the error for the summary instead.
	otelapi.SetErrorHandler(otelapi.ErrorHandlerFunc(func(error) {}))
	gone, giveUp := context.WithCancelCause(context.Background())
	e := &Exporter{
		opts:    o,
		out:     &countingExporter{SpanExporter: spans, gone: gone},
		items:   make(chan item, o.Queue),
		done:    make(chan struct{}),
		gone:    gone,
		giveUp:  giveUp,
		stories: map[string][]recorder.QueueEvent{},
		ended:   map[string]string{},
	}
	go e.run()
	return e, nil
}

// otlpExporter sends to t; one request may take up to timeout, and a
// failed one is retried with backoff for as long again.
func otlpExporter(ctx context.Context, t Target, timeout time.Duration) (*otlptrace.Exporter, error) {
	switch t.Protocol {
	case ProtocolGRPC:
		return otlptracegrpc.New(ctx, otlptracegrpc.WithEndpointURL(t.URL), otlptracegrpc.WithTimeout(timeout),
			otlptracegrpc.WithRetry(otlptracegrpc.RetryConfig{Enabled: true, InitialInterval: 500 * time.Millisecond, MaxInterval: 5 * time.Second, MaxElapsedTime: timeout}))
	case ProtocolHTTP:
		return otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(t.URL), otlptracehttp.WithTimeout(timeout),
			otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: true, InitialInterval: 500 * time.Millisecond, MaxInterval: 5 * time.Second, MaxElapsedTime: timeout}))
	}
	return nil, fmt.Errorf("unknown OTLP protocol %q", t.Protocol)
}

// Begin starts the recording or session whose cycles follow: its header
// names the service and seeds the trace IDs. Cycles before it are dropped.
func (e *Exporter) Begin(h recorder.Header) { e.put(item{header: &h}) }

// Cycle exports c as a trace. It reports false when the queue was full and
// c was dropped.
func (e *Exporter) Cycle(c *recorder.Cycle) bool { return e.put(item{cycle: c}) }

// Queue keeps q for the pod's next cycle, whose trace tells the pod's queue
// story. It reports false when q was dropped.
func (e *Exporter) Queue(q *recorder.QueueEvent) bool { return e.put(item{queue: q}) }

func (e *Exporter) put(it item) bool {
	if e.gone.Err() == nil {
		select {
		case e.items <- it:
			return true
		default:
		}
		if e.opts.Wait && e.waitFor(it) {
			return true
		}
	}
	e.dropped.Add(1)
	return false
}

// waitFor waits for room for it, and gives up on the backend when it has
// taken nothing for Options.Timeout.
func (e *Exporter) waitFor(it item) bool {
	tick := time.NewTicker(e.checkEvery())
	defer tick.Stop()
	for {
		select {
		case e.items <- it:
			return true
		case <-e.gone.Done():
			return false
		case now := <-tick.C:
			if e.stalled(now) {
				return false
			}
		}
	}
}

// checkEvery is how often a wait asks whether the backend stalled.
func (e *Exporter) checkEvery() time.Duration { return max(e.opts.Timeout/10, time.Millisecond) }

// stalled reports whether the backend has taken nothing for
// Options.Timeout while asked to, and if so gives up on it.
func (e *Exporter) stalled(now time.Time) bool {
	since := e.out.unanswered.Load()
	if since == 0 || now.Sub(time.Unix(0, since)) < e.opts.Timeout {
		return false
	}
	e.giveUp(fmt.Errorf("the backend took nothing for %s", e.opts.Timeout))
	return true
}

// Summary is what an exporter did.
type Summary struct {
	Target Target
	// Cycles is how many cycles became traces, PodGroups how many
	// pod-group cycles did, Spans how many spans they made, Sent how many
	// of those the backend accepted.
	Cycles, PodGroups, Spans, Sent int64
	// Dropped counts the cycles and queue events that found the queue full
	// or were left when the exporter gave up.
	Dropped int64
	// GaveUp, if set, says why the exporter stopped waiting for the
	// backend (Options.Timeout, or Close's context ending).
	GaveUp error
	// Err is the last error the backend returned, if any.
	Err error
}

// Lost is how many spans made were not accepted.
func (s Summary) Lost() int64 { return s.Spans - s.Sent }

// String says it in one line.
func (s Summary) String() string {
	cycles := fmt.Sprintf("%d cycles", s.Cycles)
	if s.Cycles == 1 {
		cycles = "1 cycle"
	}
	if s.PodGroups > 0 {
		cycles += fmt.Sprintf(" and %d pod-group cycle(s)", s.PodGroups)
	}
	msg := fmt.Sprintf("otlp: sent %s as traces (%d spans) to %s", cycles, s.Sent, s.Target.Shown())
	if s.Lost() > 0 {
		msg = fmt.Sprintf("otlp: %s made %d spans; %d reached %s", cycles, s.Spans, s.Sent, s.Target.Shown())
	}
	switch {
	case s.GaveUp != nil:
		msg += fmt.Sprintf("; gave up (%v): dropped %d spans and %d records not yet made into spans", s.GaveUp, s.Lost(), s.Dropped)
	case s.Dropped > 0:
		msg += fmt.Sprintf("; %d records dropped, the export being slower than the scheduler", s.Dropped)
	}
	if s.Err != nil {
		msg += ": " + s.Err.Error()
	}
	return msg
}

// Status is the summary so far, while the exporter runs; spans still in
// the batch processor count as not yet sent.
func (e *Exporter) Status() Summary {
	s := Summary{Target: e.opts.Target, Cycles: e.cycles.Load(), PodGroups: e.groups.Load(), Spans: e.spans.Load(), Sent: e.out.sent.Load(), Dropped: e.dropped.Load(), Err: e.out.error()}
	if e.gone.Err() != nil {
		s.GaveUp = context.Cause(e.gone)
	}
	return s
}

// Flush sends what was handed over so far, waiting until ctx ends at most.
// The exporter goes on.
func (e *Exporter) Flush(ctx context.Context) error {
	done := make(chan struct{})
	select {
	case e.items <- item{flushed: done}:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if e.tp == nil {
		return nil
	}
	return e.tp.ForceFlush(ctx)
}

// Close sends what is queued and says what was sent. It gives up on the
// backend when ctx ends or the backend has taken nothing for
// Options.Timeout: requests in flight are cancelled, what is left is
// dropped and counted, and Close returns at once. Begin, Cycle and Queue
// must not be called after it.
func (e *Exporter) Close(ctx context.Context) Summary {
	e.closeOnce.Do(func() {
		close(e.items)
		closed := make(chan struct{})
		watched := make(chan struct{})
		go func() {
			defer close(watched)
			e.watch(ctx, closed)
		}()
		<-e.done
		// Shut down within e.gone: once given up, nothing is waited for.
		var err error
		if e.tp != nil {
			err = e.tp.Shutdown(e.gone)
		} else {
			err = e.out.Shutdown(e.gone)
		}
		close(closed)
		<-watched
		e.summary = e.Status()
		if e.summary.Err == nil && err != nil && e.summary.Lost() > 0 && e.summary.GaveUp == nil {
			e.summary.Err = err
		}
	})
	return e.summary
}

// watch gives up on the backend when ctx ends or the backend has taken
// nothing for Options.Timeout, until closed is.
func (e *Exporter) watch(ctx context.Context, closed <-chan struct{}) {
	tick := time.NewTicker(e.checkEvery())
	defer tick.Stop()
	for {
		select {
		case <-closed:
			return
		case <-e.gone.Done():
			return
		case <-ctx.Done():
			e.giveUp(fmt.Errorf("no time left to send: %w", context.Cause(ctx)))
			return
		case now := <-tick.C:
			if e.stalled(now) {
				return
			}
		}
	}
}

func (e *Exporter) run() {
	defer close(e.done)
	for it := range e.items {
		switch {
		case it.flushed != nil:
			close(it.flushed)
		case e.gone.Err() != nil:
			e.dropped.Add(1) // given up on: nothing more is made to be sent
		case it.header != nil:
			e.begin(*it.header)
		case e.tp == nil:
			e.dropped.Add(1) // before the header: nothing to say whose it is
		case it.cycle != nil:
			e.export(it.cycle)
		case it.queue != nil:
			e.keepStory(it.queue)
		case it.group != nil:
			e.exportGroup(it.group)
		}
	}
}

// batchQueue is the SDK batch processor's span queue; the processor is set
// to wait rather than drop, so that every drop happens (and is counted) at
// the exporter's own queue.
const batchQueue = 8192

func (e *Exporter) begin(h recorder.Header) {
	if e.tp != nil {
		return // one session a exporter: a rotated recording's header repeats it
	}
	e.header = h
	batching := []sdktrace.BatchSpanProcessorOption{sdktrace.WithBlocking(), sdktrace.WithMaxQueueSize(batchQueue)}
	if e.opts.batch > 0 {
		batching = append(batching, sdktrace.WithMaxQueueSize(e.opts.batch), sdktrace.WithMaxExportBatchSize(e.opts.batch))
	}
	attrs := []attribute.KeyValue{
		attribute.String("service.name", "schedscope"),
		attribute.String("service.version", h.SchedscopeVersion),
		attribute.String("schedscope.kubernetes_version", h.KubernetesVersion),
		attribute.String("schedscope.source", h.Source.Kind+" "+h.Source.Name),
	}
	if h.Source.Kind == "cluster" && h.Source.Name != "" {
		attrs = append(attrs, attribute.String("k8s.cluster.name", h.Source.Name))
	}
	// OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME, as every SDK reads
	// them, say more (k8s.cluster.name=prod-eu in a cluster, where there
	// is no kubeconfig context to name it) and win.
	res := resource.NewSchemaless(attrs...)
	if env, err := resource.New(context.Background(), resource.WithFromEnv()); err == nil {
		if merged, err := resource.Merge(res, env); err == nil {
			res = merged
		}
	}
	e.tp = sdktrace.NewTracerProvider(
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithIDGenerator(idGenerator{}),
		sdktrace.WithSpanProcessor(sdktrace.NewBatchSpanProcessor(e.out, batching...)),
	)
	e.tracer = e.tp.Tracer("github.com/schedscope/schedscope/recorder/export/otel")
}

// maxStory is how many queue events of one pod wait for its next cycle, and
// maxStoryPods how many pods' stories are kept; beyond them the oldest
// events, and new pods' stories, are dropped.
const (
	maxStory     = 64
	maxStoryPods = 100_000
)

func (e *Exporter) keepStory(q *recorder.QueueEvent) {
	k := q.Pod.Key()
	if q.Op == recorder.QueueDelete {
		if _, waiting := e.stories[k]; waiting && q.From == "" {
			// The pod left the queue while in a cycle whose story was not
			// told yet: the informer can tell a binding before the binding
			// cycle ends.
			e.ended[k] = q.Pod.UID
			return
		}
		delete(e.stories, k)
		return
	}
	if uid, ok := e.ended[k]; ok && uid != q.Pod.UID {
		// A new pod of the same name: the old one's cycle never came.
		delete(e.ended, k)
		delete(e.stories, k)
	}
	s, ok := e.stories[k]
	if !ok && len(e.stories) >= maxStoryPods {
		return
	}
	if len(s) == maxStory {
		s = append(s[:0], s[1:]...)
	}
	e.stories[k] = append(s, *q)
}

// countingExporter counts what the backend accepted and keeps its last
// error. Once gone ends, its requests are cancelled and new ones fail at
// once, so that nothing waits on a backend given up on.
type countingExporter struct {
	sdktrace.SpanExporter
	gone context.Context
	sent atomic.Int64
	// unanswered is when (Unix ns) the requests since the backend last
	// accepted spans began; 0 when it accepted the last.
	unanswered atomic.Int64
	mu         sync.Mutex
	err        error
}

func (c *countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if c.gone.Err() != nil {
		return context.Cause(c.gone)
	}
	c.unanswered.CompareAndSwap(0, time.Now().UnixNano())
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(c.gone, func() { cancel(context.Cause(c.gone)) })
	defer stop()
	err := c.SpanExporter.ExportSpans(ctx, spans)
	if err != nil && c.gone.Err() != nil {
		return err // the cancellation, not the backend's answer
	}
	if err != nil {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		return err
	}
	c.sent.Add(int64(len(spans)))
	c.unanswered.Store(0)
	return nil
}

func (c *countingExporter) error() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}
