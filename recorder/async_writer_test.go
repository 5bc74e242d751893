package recorder

import (
	"bytes"
	"errors"
	"sync/atomic"
	"testing"
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
	release chan struct{}
	buf     bytes.Buffer
}

func (s *stalledWriter) Write(p []byte) (int, error) {
	if s.held.Load() {
		<-s.release
	}
	return s.buf.Write(p)
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
	// The writer goroutine holds at most one cycle and the queue four; the
	// rest of 50 must be dropped, and WriteCycle must return for each.
	for seq := 1; seq <= 50; seq++ {
		if err := a.WriteCycle(testCycle(seq, nodes)); err != nil {
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
	if len(rec.Problems) > 0 {
		t.Fatalf("problems: %v", rec.Problems)
	}
	if got := int64(len(rec.Cycles)) + a.Dropped(); got != 50 || a.Dropped() < 45 {
		t.Errorf("%d written + %d dropped, want 50 in all and at least 45 dropped", len(rec.Cycles), a.Dropped())
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
