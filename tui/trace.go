package tui

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schedscope/schedscope/recorder/source"
)

// Trace notes when the frames a benchmark measures were drawn: the first
// showing a cycle, the first after a replay's index was complete, and each
// showing the cycle a :cycle command asked for. A nil *Trace notes nothing.
type Trace struct {
	mu sync.Mutex
	// Started is when the command started its work (after the program's
	// initialization), set by the caller.
	Started time.Time
	// FirstCycle is when the first frame with a cycle in it was drawn.
	FirstCycle time.Time
	// Indexed is when the first frame after the source was done was drawn.
	Indexed time.Time
	// Seeks are the times from a :cycle command to the frame showing that cycle.
	Seeks []time.Duration

	seekSeq int
	seekAt  time.Time
}

// seek notes that the user asked for cycle seq.
func (t *Trace) seek(seq int) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seekSeq, t.seekAt = seq, time.Now()
}

// frame notes what the frame of m shows.
func (t *Trace) frame(m *Model) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	c := m.view.Cycle()
	shown := c != nil && !m.view.Pending()
	if t.FirstCycle.IsZero() && shown {
		t.FirstCycle = now
	}
	if t.Indexed.IsZero() && (m.done || m.state != nil && m.state.State == source.StateFollowing) {
		t.Indexed = now
	}
	if t.seekSeq != 0 && shown && c.Seq == t.seekSeq {
		t.Seeks = append(t.Seeks, now.Sub(t.seekAt))
		t.seekSeq = 0
	}
}

// WriteTo writes the trace as lines of "name unix-nanoseconds" and "seek
// nanoseconds", for a benchmark to read.
func (t *Trace) WriteTo(w io.Writer) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var n int64
	write := func(format string, a ...any) {
		k, _ := fmt.Fprintf(w, format, a...)
		n += int64(k)
	}
	if !t.Started.IsZero() {
		write("started %d\n", t.Started.UnixNano())
	}
	if !t.FirstCycle.IsZero() {
		write("first-cycle %d\n", t.FirstCycle.UnixNano())
	}
	if !t.Indexed.IsZero() {
		write("indexed %d\n", t.Indexed.UnixNano())
	}
	for _, s := range t.Seeks {
		write("seek %d\n", s.Nanoseconds())
	}
	return n, nil
}
