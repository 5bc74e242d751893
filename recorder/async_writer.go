package recorder

import (
	"sync"
	"sync/atomic"
)

// RecordWriter is where an AsyncWriter writes: a Writer, or a RotatingWriter
// for a live session's flight recorder.
type RecordWriter interface {
	WriteCycle(*Cycle) error
	WriteObserved(*Observed) error
	WriteQueue(*QueueEvent) error
	WriteDropped(*Dropped) error
	WriteEnd() error
}

// AsyncWriter hands records to a goroutine that encodes and writes them, so
// the scheduler's goroutines that finish cycles never encode JSON or wait for
// a disk. Its queue is bounded: when it is full, a write either waits for room
// (a recording of a fixture run must keep every cycle) or drops the record and
// counts it (a live session must not stall the scheduler it watches). Dropped
// records are noted in the recording where they would have been, as a
// KindDropped record that readers report as a problem.
type AsyncWriter struct {
	w     RecordWriter
	queue chan asyncItem
	drop  bool
	done  chan struct{}

	dropped atomic.Int64
	mu      sync.Mutex
	err     error   // the first write error; later records are discarded
	gap     Dropped // dropped since the last record queued
	closed  bool
}

type asyncItem struct {
	c *Cycle
	o *Observed
	q *QueueEvent
	// cl is what a fixture run's controllers left, for a writer that
	// records it (ClusterWriter).
	cl *ClusterState
	g  *PodGroupCycle
	// gap, when not nil, was dropped just before this record.
	gap *Dropped
}

// DefaultAsyncQueue is the queue length NewAsyncWriter callers use unless
// they have a reason not to: a few seconds of cycles at full speed.
const DefaultAsyncQueue = 1024

// NewAsyncWriter starts writing records to w in the background. With drop
// set, a record that finds the queue full is dropped and counted; otherwise
// a write blocks until there is room.
func NewAsyncWriter(w RecordWriter, queue int, drop bool) *AsyncWriter {
	a := &AsyncWriter{w: w, queue: make(chan asyncItem, max(queue, 1)), drop: drop, done: make(chan struct{})}
	go a.run()
	return a
}

func (a *AsyncWriter) run() {
	defer close(a.done)
	for it := range a.queue {
		if a.Err() != nil {
			continue
		}
		var err error
		if it.gap != nil {
			err = a.w.WriteDropped(it.gap)
		}
		switch {
		case err != nil:
		case it.c != nil:
			err = a.w.WriteCycle(it.c)
		case it.o != nil:
			err = a.w.WriteObserved(it.o)
		case it.q != nil:
			err = a.w.WriteQueue(it.q)
		case it.cl != nil:
			if cw, ok := a.w.(ClusterWriter); ok {
				err = cw.WriteCluster(it.cl)
			}
		case it.g != nil:
			if pw, ok := a.w.(podGroupWriter); ok {
				err = pw.WritePodGroup(it.g)
			}
		}
		if err != nil {
			a.mu.Lock()
			a.err = err
			a.mu.Unlock()
		}
	}
}

// WriteCycle queues c. It returns the first error a write has met so far, if
// any (the cycle is then not written). c must not change once queued.
func (a *AsyncWriter) WriteCycle(c *Cycle) error { return a.put(asyncItem{c: c}) }

// WriteObserved queues o, as WriteCycle queues a cycle.
func (a *AsyncWriter) WriteObserved(o *Observed) error { return a.put(asyncItem{o: o}) }

// WriteQueue queues a scheduling queue event, in order with the cycles.
func (a *AsyncWriter) WriteQueue(e *QueueEvent) error { return a.put(asyncItem{q: e}) }

// ClusterWriter is a RecordWriter that also records what a fixture run's
// controllers left (a Writer; a live session's RotatingWriter has none).
type ClusterWriter interface {
	WriteCluster(*ClusterState) error
}

// WriteCluster queues what a fixture run's controllers left, after its
// cycles; a writer that is not a ClusterWriter leaves it out.
func (a *AsyncWriter) WriteCluster(st *ClusterState) error { return a.put(asyncItem{cl: st}) }

// WritePodGroup queues a pod-group cycle, in order with the cycles. A
// RecordWriter that cannot write them (a live flight recorder's, for now)
// leaves them out.
func (a *AsyncWriter) WritePodGroup(g *PodGroupCycle) error { return a.put(asyncItem{g: g}) }

// podGroupWriter is a RecordWriter that writes pod-group cycles (Writer).
type podGroupWriter interface {
	WritePodGroup(*PodGroupCycle) error
}

func (a *AsyncWriter) put(it asyncItem) error {
	if err := a.Err(); err != nil {
		return err
	}
	if !a.drop {
		a.queue <- it
		return nil
	}
	// Producers take turns, so that a gap is attached to the first record
	// queued after it.
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.gap != (Dropped{}) {
		g := a.gap
		it.gap = &g
	}
	select {
	case a.queue <- it:
		a.gap = Dropped{}
	default:
		// The gap goes on growing until a record is queued.
		a.dropped.Add(1)
		switch {
		case it.c != nil:
			if a.gap.Cycles == 0 {
				a.gap.FirstSeq = it.c.Seq
			}
			a.gap.Cycles++
			a.gap.LastSeq = it.c.Seq
		case it.o != nil:
			a.gap.Observed++
		case it.q != nil:
			a.gap.Queue++
		}
	}
	return nil
}

// Dropped counts the records dropped because the queue was full.
func (a *AsyncWriter) Dropped() int64 { return a.dropped.Load() }

// Err returns the first write error, if any.
func (a *AsyncWriter) Err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// Close writes what is queued, notes records dropped after the last one
// written, ends the recording (KindEnd), flushes, and returns the first
// write error. No write may follow
// Close.
func (a *AsyncWriter) Close() error {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		<-a.done
		return a.Err()
	}
	a.closed = true
	close(a.queue)
	gap := a.gap
	a.mu.Unlock()
	<-a.done
	if err := a.Err(); err != nil {
		return err
	}
	if gap != (Dropped{}) {
		if err := a.w.WriteDropped(&gap); err != nil {
			return err
		}
	}
	if err := a.w.WriteEnd(); err != nil {
		return err
	}
	if f, ok := a.w.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}
