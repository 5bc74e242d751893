package recorder

import (
	"sync"
	"sync/atomic"
)

// AsyncWriter hands cycles to a goroutine that encodes and writes them, so the
// scheduler's goroutines that finish cycles never encode JSON or wait for a
// disk. Its queue is bounded: when it is full, WriteCycle either waits for
// room (a recording must keep every cycle) or drops the cycle and counts it (a
// live view must not stall the scheduler it watches).
type AsyncWriter struct {
	w     *Writer
	queue chan asyncItem
	drop  bool
	done  chan struct{}

	dropped atomic.Int64
	mu      sync.Mutex
	err     error // the first write error; later cycles are discarded
	closed  bool
}

// DefaultAsyncQueue is the queue length NewAsyncWriter callers use unless
// they have a reason not to: a few seconds of cycles at full speed.
const DefaultAsyncQueue = 1024

// NewAsyncWriter starts writing cycles to w in the background. With drop set,
// a cycle that finds the queue full is dropped and counted; otherwise
// WriteCycle blocks until there is room.
func NewAsyncWriter(w *Writer, queue int, drop bool) *AsyncWriter {
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
		if it.queue != nil {
			err = a.w.WriteQueue(it.queue)
		} else {
			err = a.w.WriteCycle(it.cycle)
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
func (a *AsyncWriter) WriteCycle(c *Cycle) error { return a.put(asyncItem{cycle: c}) }

// WriteQueue queues a scheduling queue event, in order with the cycles.
func (a *AsyncWriter) WriteQueue(e *QueueEvent) error { return a.put(asyncItem{queue: e}) }

// asyncItem is a cycle or a queue event to write.
type asyncItem struct {
	cycle *Cycle
	queue *QueueEvent
}

func (a *AsyncWriter) put(c asyncItem) error {
	if err := a.Err(); err != nil {
		return err
	}
	if a.drop {
		select {
		case a.queue <- c:
		default:
			a.dropped.Add(1)
		}
		return nil
	}
	a.queue <- c
	return nil
}

// Dropped counts the cycles dropped because the queue was full.
func (a *AsyncWriter) Dropped() int64 { return a.dropped.Load() }

// Err returns the first write error, if any.
func (a *AsyncWriter) Err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// Close writes what is queued and returns the first write error. WriteCycle
// must not be called after Close.
func (a *AsyncWriter) Close() error {
	a.mu.Lock()
	if !a.closed {
		a.closed = true
		close(a.queue)
	}
	a.mu.Unlock()
	<-a.done
	if err := a.Err(); err != nil {
		return err
	}
	return a.w.Flush()
}
