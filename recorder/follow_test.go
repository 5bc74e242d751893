package recorder

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFollowReadsRecordsAsTheyAreWritten writes a recording in two halves, the
// second after the reader has caught up with the first, including a record
// written in two pieces.
func TestFollowReadsRecordsAsTheyAreWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.rec")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	w, err := NewWriter(out, Header{KubernetesVersion: "v1.37.1"})
	if err != nil {
		t.Fatal(err)
	}
	nodes := &NodeSet{ID: 1, Names: []string{"a"}}
	if err := w.WriteCycle(&Cycle{Seq: 1, Nodes: nodes}); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	in, err := FollowFile(ctx, path, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	rd, err := NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	seqs := make(chan int)
	go func() {
		defer close(seqs)
		for rec, err := range rd.All() {
			if err != nil {
				t.Errorf("reading: %v", err)
				return
			}
			if rec.Cycle != nil {
				seqs <- rec.Cycle.Seq
			}
		}
	}()
	if got := <-seqs; got != 1 {
		t.Fatalf("first cycle seq = %d, want 1", got)
	}
	// Write the next record by hand in two pieces: the reader must wait for the
	// end of the line rather than report a torn record.
	var line []byte
	{
		var buf bytesWriter
		w2, _ := NewWriter(&buf, Header{})
		// The records the file holds first, so that the line is numbered
		// as the file's next record.
		if err := w2.WriteCycle(&Cycle{Seq: 1, Nodes: nodes}); err != nil {
			t.Fatal(err)
		}
		buf.b = nil
		if err := w2.WriteCycle(&Cycle{Seq: 2, NodeSetID: 1}); err != nil {
			t.Fatal(err)
		}
		line = buf.b
	}
	if _, err := out.Write(line[:10]); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	if _, err := out.Write(line[10:]); err != nil {
		t.Fatal(err)
	}
	if got := <-seqs; got != 2 {
		t.Fatalf("second cycle seq = %d, want 2", got)
	}
	cancel()
	for range seqs {
		t.Error("no record expected after cancel")
	}
}

type bytesWriter struct{ b []byte }

func (w *bytesWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

// TestFollowFileAcrossRotation reads a flight recording while it rotates and
// must see every cycle once, in order.
func TestFollowFileAcrossRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "flight.rec")
	w, err := NewRotatingWriter(path, Header{}, 3<<10, 5)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	in, err := FollowFile(ctx, path, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	got := make(chan int, n)
	done := make(chan struct{})
	// The reader stops when the test ends it: cancelled, then closed; an
	// error after that is the close, not a reading problem.
	defer func() {
		cancel()
		in.Close()
		<-done
	}()
	go func() {
		defer close(done)
		for rec, err := range rd.All() {
			if err != nil {
				if ctx.Err() == nil {
					t.Errorf("reading: %v", err)
				}
				return
			}
			if rec.Cycle != nil {
				got <- rec.Cycle.Seq
			}
		}
	}()
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	for i := 1; i <= n; i++ {
		if err := w.WriteCycle(testCycle(i, nodes)); err != nil {
			t.Fatal(err)
		}
		// Let the reader keep up, as a live session would.
		select {
		case seq := <-got:
			if seq != i {
				t.Fatalf("read cycle %d, want %d", seq, i)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("cycle %d was not read after the file rotated", i)
		}
	}
	if _, err := os.Stat(path + ".1"); err != nil {
		t.Fatalf("the recording never rotated: %v", err)
	}
}
