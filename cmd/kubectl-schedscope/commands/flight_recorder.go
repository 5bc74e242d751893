package commands

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
)

// flightRecorder is a source that also writes what a live source sends to a
// rotating recording (live --record). It never waits for the disk: a slow one
// drops records rather than stall the scheduler. A write error is sent as a
// problem once, dropped records every dropReportEvery while they go on.
type flightRecorder struct {
	src  source.Source
	path string
	// rw is the file; w writes to it in the background.
	rw *recorder.RotatingWriter
	w  *recorder.AsyncWriter

	mu       sync.Mutex
	writeErr error
	// dropsTold is how many dropped records were last reported, and when.
	dropsTold   int64
	dropsToldAt time.Time
}

var _ source.Source = (*flightRecorder)(nil)

// liveRecordQueue is how many records the flight recorder holds for a slow
// disk before it drops them: a few seconds of a busy cluster's cycles.
const liveRecordQueue = 4096

// dropReportEvery is how often a live session says again that its recording
// is dropping records.
const dropReportEvery = 10 * time.Second

// newFlightRecorder creates the recording at path, starting with h.
func newFlightRecorder(src source.Source, path string, h recorder.Header, maxSize int64, keep int) (*flightRecorder, error) {
	rw, err := recorder.NewRotatingWriter(path, h, maxSize, keep)
	if err != nil {
		return nil, err
	}
	return &flightRecorder{src: src, path: path, rw: rw, w: recorder.NewAsyncWriter(rw, liveRecordQueue, true)}, nil
}

// Run runs src, recording its cycles, queue events and observations before
// passing them on.
func (f *flightRecorder) Run(ctx context.Context, send func(source.Event) bool) error {
	return f.src.Run(ctx, func(ev source.Event) bool {
		var problems []error
		switch {
		case ev.Cycle != nil:
			problems = f.record(func(w *recorder.AsyncWriter) error { return w.WriteCycle(ev.Cycle) })
		case ev.Queue != nil:
			problems = f.record(func(w *recorder.AsyncWriter) error { return w.WriteQueue(ev.Queue) })
		case ev.Observed != nil:
			problems = f.record(func(w *recorder.AsyncWriter) error { return w.WriteObserved(ev.Observed) })
		}
		for _, p := range problems {
			send(source.Event{Problem: p})
		}
		return send(ev)
	})
}

// record queues a record and returns what is to be reported about writing.
func (f *flightRecorder) record(write func(*recorder.AsyncWriter) error) []error {
	err := write(f.w)
	f.mu.Lock()
	defer f.mu.Unlock()
	var problems []error
	if err != nil && f.writeErr == nil {
		f.writeErr = err
		problems = append(problems, err)
	}
	if n := f.w.Dropped(); n > f.dropsTold && time.Since(f.dropsToldAt) >= dropReportEvery {
		f.dropsTold, f.dropsToldAt = n, time.Now()
		problems = append(problems, droppedError(f.path, n))
	}
	return problems
}

func droppedError(path string, n int64) error {
	return fmt.Errorf("%s: writing fell behind the scheduler; %d records dropped so far (the recording notes where)", path, n)
}

// err is the first write error.
func (f *flightRecorder) err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.writeErr
}

// close writes what the recorder holds and closes its file. Records dropped
// since the last report are reported to errOut on the way out.
func (f *flightRecorder) close(errOut io.Writer) {
	err := f.w.Close()
	if cerr := f.rw.Close(); err == nil {
		err = cerr
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err != nil && f.writeErr == nil {
		f.writeErr = err
	}
	if n := f.w.Dropped(); n > f.dropsTold {
		f.dropsTold = n
		fmt.Fprintln(errOut, droppedError(f.path, n))
	}
}
