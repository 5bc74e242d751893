package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestAsyncWriterKeepsEveryCycleInOrder(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{})
	if err != nil {
		t.Fatal(err)
	}
	// A queue of one: most cycles find it full and must wait, not drop.
	a := NewAsyncWriter(w, 1, false)
	for seq := 1; seq <= 200; seq++ {
		if err := a.WriteCycle(testCycle(seq, nodes)); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := Load(&buf)
	if err != nil || len(rec.Problems) > 0 {
		t.Fatalf("Load: %v %v", err, rec.Problems)
	}
	if len(rec.Cycles) != 200 || a.Dropped() != 0 {
		t.Fatalf("read %d cycles, %d dropped; want 200, none dropped", len(rec.Cycles), a.Dropped())
	}
	for i, c := range rec.Cycles {
		if c.Seq != i+1 {
			t.Fatalf("cycle %d has seq %d", i, c.Seq)
		}
	}
}

// stalledWriter blocks every write while held, until released.
type stalledWriter struct {
	held    atomic.Bool
	waiting atomic.Bool // a write is held
	release chan struct{}
	buf     bytes.Buffer
}

func (s *stalledWriter) Write(p []byte) (int, error) {
	if s.held.Load() {
		s.waiting.Store(true)
		<-s.release
	}
	return s.buf.Write(p)
}

// holdFirst queues c and waits until the writer goroutine is held writing it.
func holdFirst(t *testing.T, a *AsyncWriter, disk *stalledWriter, c *Cycle) {
	t.Helper()
	if err := a.WriteCycle(c); err != nil {
		t.Fatal(err)
	}
	for !disk.waiting.Load() {
		time.Sleep(time.Millisecond)
	}
}

func TestAsyncWriterDropsAndCountsWhenTheDiskStalls(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	disk := &stalledWriter{release: make(chan struct{})}
	w, err := NewWriter(disk, Header{})
	if err != nil {
		t.Fatal(err)
	}
	disk.held.Store(true)
	a := NewAsyncWriter(w, 4, true)
	// The writer goroutine holds cycle 1 and the queue four more; the rest
	// of 50 must be dropped, and WriteCycle must return for each.
	holdFirst(t, a, disk, testCycle(1, nodes))
	for seq := 2; seq <= 50; seq++ {
		if err := a.WriteCycle(testCycle(seq, nodes)); err != nil {
			t.Fatal(err)
		}
	}
	close(disk.release)
	for len(a.queue) > 0 {
		time.Sleep(time.Millisecond)
	}
	// Room again: the next cycle carries the note of the gap before it.
	for seq := 51; seq <= 55; seq++ {
		if err := a.WriteCycle(testCycle(seq, nodes)); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	data := slices.Clone(disk.buf.Bytes())
	rec, err := Load(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := int64(len(rec.Cycles)) + a.Dropped(); got != 55 || a.Dropped() < 45 {
		t.Fatalf("%d written + %d dropped, want 55 in all and at least 45 dropped", len(rec.Cycles), a.Dropped())
	}
	if len(rec.Problems) != 1 {
		t.Fatalf("problems: %v, want one note of the dropped cycles", rec.Problems)
	}
	var gap *ErrDropped
	if !errors.As(rec.Problems[0], &gap) {
		t.Fatalf("problem %v is not an ErrDropped", rec.Problems[0])
	}
	if int64(gap.Cycles) != a.Dropped() || gap.LastSeq != 50 || gap.LastSeq-gap.FirstSeq+1 != gap.Cycles {
		t.Errorf("note %+v, want the %d cycles dropped, ending with 50", gap.Dropped, a.Dropped())
	}
	if want := fmt.Sprintf("%d cycles (%d to 50) were dropped while recording", gap.Cycles, gap.FirstSeq); !strings.HasPrefix(gap.Error(), want) {
		t.Errorf("message %q, want it to start %q", gap.Error(), want)
	}
	// The note sits where the cycles would have been: after the last cycle
	// written before the stall and before 51; the index reader finds it too.
	for name, open := range map[string]func(io.Reader) (*Reader, error){"reader": NewReader, "index": NewIndexReader} {
		rd, err := open(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var order []int // cycle seqs, -1 for the note
		for r, err := range rd.All() {
			switch {
			case err != nil && errors.As(err, &gap):
				order = append(order, -1)
			case err != nil:
				t.Fatalf("%s: %v", name, err)
			case r.Cycle != nil:
				order = append(order, r.Cycle.Seq)
			case r.Entry != nil:
				order = append(order, r.Entry.Seq)
			}
		}
		at := slices.Index(order, -1)
		if at < 1 || order[at-1] != gap.FirstSeq-1 || order[at+1] != 51 {
			t.Errorf("%s: records in order %v, want the note between %d and 51", name, order, gap.FirstSeq-1)
		}
	}
}

func TestAsyncWriterNotesDropsAtTheEnd(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	disk := &stalledWriter{release: make(chan struct{})}
	w, err := NewWriter(disk, Header{})
	if err != nil {
		t.Fatal(err)
	}
	disk.held.Store(true)
	a := NewAsyncWriter(w, 1, true)
	holdFirst(t, a, disk, testCycle(1, nodes))
	for seq := 1; seq <= 10; seq++ {
		if seq > 1 {
			if err := a.WriteCycle(testCycle(seq, nodes)); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.WriteObserved(&Observed{Pod: PodRef{Name: fmt.Sprint("p", seq)}, Node: "a"}); err != nil {
			t.Fatal(err)
		}
	}
	close(disk.release)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := Load(&disk.buf)
	if err != nil {
		t.Fatal(err)
	}
	var gap *ErrDropped
	if len(rec.Problems) != 1 || !errors.As(rec.Problems[0], &gap) {
		t.Fatalf("problems %v, want one note of the drops", rec.Problems)
	}
	if got := len(rec.Cycles) + len(rec.Observed) + gap.Cycles + gap.Observed; got != 20 || gap.Observed == 0 || gap.LastSeq != 10 {
		t.Errorf("%d cycles and %d bindings written, note %+v: want 20 in all, the last cycle and some bindings dropped", len(rec.Cycles), len(rec.Observed), gap.Dropped)
	}
}

type failingWriter struct{}

func (failingWriter) Write(p []byte) (int, error) { return 0, errDisk }

var errDisk = errors.New("disk full")

func TestAsyncWriterReportsTheFirstWriteError(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{})
	if err != nil {
		t.Fatal(err)
	}
	w.w.Reset(failingWriter{})
	a := NewAsyncWriter(w, 8, false)
	_ = a.WriteCycle(testCycle(1, &NodeSet{ID: 1, Names: []string{"a"}}))
	if err := a.Close(); !errors.Is(err, errDisk) {
		t.Fatalf("Close: %v, want %v", err, errDisk)
	}
}
