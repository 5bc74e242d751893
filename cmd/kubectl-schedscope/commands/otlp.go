package commands

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/schedscope/schedscope/recorder/export/otel"
	"github.com/schedscope/schedscope/recorder/source"
)

// otlpOptions are the trace export flags of sim, record, live and whatif
// (export names its endpoint flag --otlp).
type otlpOptions struct {
	Endpoint string
	Protocol string
	// Timeout is how long the backend may take nothing before the export
	// gives up on it; at a command's end, the most it waits for the backend.
	Timeout time.Duration
	// flag names the endpoint's flag, for messages (--otlp-endpoint when empty).
	flag string
}

func (o *otlpOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Endpoint, "otlp-endpoint", "", "also send every cycle as an OpenTelemetry trace to this OTLP endpoint (http://HOST:4318 or, for gRPC, http://HOST:4317); the standard OTEL_EXPORTER_OTLP_* variables are read too")
	fs.StringVar(&o.Protocol, "otlp-protocol", "", "OTLP protocol: grpc or http/protobuf (default: OTEL_EXPORTER_OTLP_PROTOCOL, else grpc for port 4317 and http/protobuf otherwise)")
	o.addTimeoutFlag(fs)
}

func (o *otlpOptions) addTimeoutFlag(fs *pflag.FlagSet) {
	fs.DurationVar(&o.Timeout, "otlp-timeout", otel.DefaultTimeout, "how long the OTLP endpoint may take nothing (a request, or the last traces at the end) before the export gives up on it and counts what it dropped; 0 means the default")
}

// options are the exporter's options for target t.
func (o *otlpOptions) options(t otel.Target) otel.Options {
	return otel.Options{Target: t, Timeout: o.timeout()}
}

// timeout is --otlp-timeout, or its default where it is 0 (a command that
// does not take the flag).
func (o *otlpOptions) timeout() time.Duration {
	if o.Timeout <= 0 {
		return otel.DefaultTimeout
	}
	return o.Timeout
}

// target says where traces go, and whether they go anywhere.
func (o *otlpOptions) target() (otel.Target, bool, error) {
	flag := o.flag
	if flag == "" {
		flag = "--otlp-endpoint"
	}
	t, ok, err := otel.Resolve(flag, o.Endpoint, o.Protocol, os.Getenv)
	if err != nil {
		return t, false, errorf("%v", err)
	}
	if !ok && o.Protocol != "" {
		return t, false, errorf("--otlp-protocol needs %s (or OTEL_EXPORTER_OTLP_ENDPOINT)", flag)
	}
	return t, ok, nil
}

// validate checks the flags before anything runs.
func (o *otlpOptions) validate() error {
	if o.Timeout < 0 {
		return errorf("--otlp-timeout must not be negative, not %s", o.Timeout)
	}
	_, _, err := o.target()
	return err
}

// tee wraps src so that what it sends is also exported; with no endpoint
// it returns src and a no-op finish. finish sends what is left and prints
// the export's summary on w. From the source's end to finish's return,
// the backend is waited for --otlp-timeout at most.
func (o *otlpOptions) tee(ctx context.Context, src source.Source, w io.Writer) (source.Source, func(), error) {
	t, ok, err := o.target()
	if err != nil || !ok {
		return src, func() {}, err
	}
	exp, err := otel.New(ctx, o.options(t))
	if err != nil {
		return nil, nil, err
	}
	tee := &otlpTee{src: src, exp: exp, timeout: o.timeout()}
	finish := func() {
		ctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), tee.deadline())
		defer cancel()
		fmt.Fprintln(w, exp.Close(ctx))
	}
	return tee, finish, nil
}

// otlpTee is a source whose events are also exported as traces. Export
// never holds the source up: a full queue drops, and the drops and the
// backend's errors are sent as problems, again every dropReportEvery
// while they go on.
type otlpTee struct {
	src     source.Source
	exp     *otel.Exporter
	timeout time.Duration

	mu        sync.Mutex
	ended     time.Time // when the source ended, if it has
	toldDrops int64
	toldAt    time.Time
	toldErr   string
}

var _ source.Source = (*otlpTee)(nil)

func (t *otlpTee) Run(ctx context.Context, send func(source.Event) bool) error {
	var mu sync.Mutex // one send at a time: the source's and the watch's
	locked := func(ev source.Event) bool {
		mu.Lock()
		defer mu.Unlock()
		return send(ev)
	}
	// The backend answers in the background: its errors and the drops are
	// told as they come, not only with the source's next event.
	watch, stop := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-watch.Done():
				return
			case <-tick.C:
				if p := t.problem(); p != nil {
					locked(source.Event{Problem: p})
				}
			}
		}
	}()
	err := t.src.Run(ctx, func(ev source.Event) bool {
		switch {
		case ev.Header != nil:
			t.exp.Begin(*ev.Header)
		case ev.Cycle != nil:
			t.exp.Cycle(ev.Cycle)
		case ev.Queue != nil:
			t.exp.Queue(ev.Queue)
		case ev.PodGroup != nil:
			t.exp.PodGroup(ev.PodGroup)
		}
		return locked(ev)
	})
	// Whatever the source sent is sent on before the session ends, so
	// that an endpoint that refused it is said on screen.
	flush, cancel := context.WithDeadline(ctx, t.deadline())
	t.exp.Flush(flush)
	cancel()
	stop()
	<-watched
	if p := t.problem(); p != nil {
		locked(source.Event{Problem: p})
	}
	return err
}

// deadline is when the export must be done: timeout after the source
// ended (or after now, if it has not).
func (t *otlpTee) deadline() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended.IsZero() {
		t.ended = time.Now()
	}
	return t.ended.Add(t.timeout)
}

// problem is what the export has to say now, if anything.
func (t *otlpTee) problem() error {
	s := t.exp.Status()
	t.mu.Lock()
	defer t.mu.Unlock()
	if s.Err != nil && s.Err.Error() != t.toldErr {
		t.toldErr = s.Err.Error()
		return fmt.Errorf("otlp %s: %v", s.Target.Shown(), s.Err)
	}
	if s.Dropped > t.toldDrops && time.Since(t.toldAt) >= dropReportEvery {
		t.toldDrops, t.toldAt = s.Dropped, time.Now()
		return fmt.Errorf("otlp %s: %d records dropped so far: the export is slower than the scheduler", s.Target.Shown(), s.Dropped)
	}
	return nil
}
