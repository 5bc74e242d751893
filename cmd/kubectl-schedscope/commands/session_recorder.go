package commands

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
)

// sessionRecorder writes a fixture's session to a recording as its source
// sends it: the header starts the file, queue events and cycles follow, and
// what the controllers left (when they left anything) ends it. They
// are encoded and written on the writer's goroutine, not the scheduler's; a
// full queue holds the scheduler back rather than lose a record. After an
// error it writes nothing more.
type sessionRecorder struct {
	out io.Writer
	w   *recorder.AsyncWriter
	// err is the first error; the writer was closed then.
	err error
}

// write records ev, and returns the error that stopped the recording, the
// first time.
func (r *sessionRecorder) write(ev source.Event) error {
	if r.err != nil {
		return nil
	}
	var err error
	switch {
	case ev.Header != nil:
		var fw *recorder.Writer
		if fw, err = recorder.NewWriter(r.out, *ev.Header); err == nil {
			r.w = recorder.NewAsyncWriter(fw, recorder.DefaultAsyncQueue, false)
		}
	case r.w == nil:
	case ev.Queue != nil:
		err = r.w.WriteQueue(ev.Queue)
	case ev.Cycle != nil:
		err = r.w.WriteCycle(ev.Cycle)
	case ev.Cluster != nil && len(ev.Cluster.Workloads)+len(ev.Cluster.Budgets)+len(ev.Cluster.Claims) > 0:
		err = r.w.WriteCluster(ev.Cluster)
	case ev.PodGroup != nil:
		err = r.w.WritePodGroup(ev.PodGroup)
	}
	if err != nil {
		r.err = err
		if r.w != nil {
			_ = r.w.Close()
			r.w = nil
		}
	}
	return err
}

// close writes what is queued; it returns the error that stopped the
// recording, unless write returned it already. err keeps it either way.
func (r *sessionRecorder) close() error {
	if r.w == nil {
		return nil
	}
	err := r.w.Close()
	r.w = nil
	if err != nil && r.err == nil {
		r.err = err
		return err
	}
	return nil
}

// recordingTee is a source that also records what src sends (sim --record).
// A write error is sent as a problem and recording stops; the session goes
// on. A header that cannot be written ends the session.
type recordingTee struct {
	src  source.Source
	rec  *sessionRecorder
	path string
}

var _ source.Source = (*recordingTee)(nil)

// Run runs src, recording its events before passing them on.
func (t *recordingTee) Run(ctx context.Context, send func(source.Event) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	var failed error
	problem := func(err error) {
		if err != nil {
			send(source.Event{Problem: fmt.Errorf("%s: %w", t.path, err)})
		}
	}
	err := t.src.Run(ctx, func(ev source.Event) bool {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case ev.Header != nil:
			// The session is shown as it starts, whether or not the
			// recording does.
			ok := send(ev)
			if err := t.rec.write(ev); err != nil {
				failed = err
				cancel()
				return false
			}
			return ok
		case ev.Done:
			// Everything is recorded: the file is complete before the end shows.
			problem(t.rec.close())
		default:
			problem(t.rec.write(ev))
		}
		return send(ev)
	})
	mu.Lock()
	defer mu.Unlock()
	if failed != nil {
		send(source.Event{Done: true, Err: failed})
		return failed
	}
	problem(t.rec.close())
	return err
}
