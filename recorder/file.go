package recorder

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
)

// A recording is a sequence of lines. Each line is
//
//	<crc32c of the JSON, 8 hex digits> <space> <JSON envelope> <newline>
//
// The first line carries the Header. A line is written and flushed as soon as its
// record is complete, so a crash loses at most the line being written; the reader
// keeps everything before a torn last line and reports the tear. The JSON after the
// checksum can be read with ordinary tools (cut -c10- FILE | jq). Every record after
// the header ends with its number in the file ("n", from 1), so that a reader
// notices a record moved, copied or spliced in.

// Record kinds.
const (
	KindHeader  = "header"
	KindNodeSet = "nodeSet"
	KindCycle   = "cycle"
	// KindObserved records a binding made by a live cluster's own scheduler.
	KindObserved = "observed"
	// KindDropped records that a live session dropped records because the
	// disk fell behind (see AsyncWriter); readers report it as a problem.
	KindDropped = "dropped"
	// KindQueue records a scheduling queue event (schema version 2).
	KindQueue = "queue"
	// KindCluster records what a fixture run's controllers left at its
	// end (workloads, budgets, claims), written before KindEnd. Readers
	// that do not know it skip it.
	KindCluster = "cluster"
	// KindEnd ends a recording whose writer closed it: nothing more will
	// be appended, so a reader following the file stops there. It has no
	// body. A recording without one was cut short, or is still being
	// written. (Readers that do not know it skip it, as any newer kind.)
	KindEnd = "end"
)

// Dropped counts records a live session left out of its recording, so that a
// replay can say so instead of showing a silent gap.
type Dropped struct {
	// Cycles, Observed and Queue count the records dropped since the last
	// one written.
	Cycles   int `json:"cycles,omitempty"`
	Observed int `json:"observed,omitempty"`
	Queue    int `json:"queue,omitempty"`
	// FirstSeq and LastSeq are the first and last dropped cycles' sequence numbers.
	FirstSeq int `json:"firstSeq,omitempty"`
	LastSeq  int `json:"lastSeq,omitempty"`
}

type envelope struct {
	Kind     string         `json:"kind"`
	Header   *Header        `json:"header,omitempty"`
	NodeSet  *NodeSet       `json:"nodeSet,omitempty"`
	Cycle    *Cycle         `json:"cycle,omitempty"`
	Observed *Observed      `json:"observed,omitempty"`
	Queue    *QueueEvent    `json:"queue,omitempty"`
	Dropped  *Dropped       `json:"dropped,omitempty"`
	Cluster  *ClusterState  `json:"cluster,omitempty"`
	PodGroup *PodGroupCycle `json:"podGroup,omitempty"`
	// NodeSetAt is the byte offset of the NodeSet record a cycle refers to, so a
	// reader can open one cycle without reading the file from the start.
	NodeSetAt int64 `json:"nodeSetAt,omitempty"`
	// N numbers the records of a file after its header, from 1, as they are
	// written: a record moved, copied or spliced in does not follow the one
	// before it in this order (recordings before it have none).
	N int64 `json:"n,omitempty"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Writer appends records to a recording.
type Writer struct {
	w       *bufio.Writer
	written map[int]int64 // node set ID → offset of its record
	off     int64         // bytes written so far
	n       int64         // records written after the header
	buf     bytes.Buffer
	cycles  *cycleEncoder // made at the first cycle
	err     error
}

// NewWriter writes the header and returns a Writer. If w has a Sync method (an
// *os.File), it is not called per record; call Sync on the file to force data to disk.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	h.Format = FormatName
	h.SchemaVersion = SchemaVersion
	wr := &Writer{w: bufio.NewWriterSize(w, 64<<10), written: map[int]int64{}}
	if err := wr.write(&envelope{Kind: KindHeader, Header: &h}); err != nil {
		return nil, err
	}
	return wr, nil
}

// WriteCycle appends a cycle, preceded by its NodeSet if that set is not yet in the file.
func (w *Writer) WriteCycle(c *Cycle) error {
	var at int64
	if c.Nodes != nil {
		var ok bool
		if at, ok = w.written[c.Nodes.ID]; !ok {
			at = w.off
			if err := w.write(&envelope{Kind: KindNodeSet, NodeSet: c.Nodes}); err != nil {
				return err
			}
			w.written[c.Nodes.ID] = at
		}
		c.NodeSetID = c.Nodes.ID
	}
	return w.write(&envelope{Kind: KindCycle, Cycle: c, NodeSetAt: at})
}

func (w *Writer) write(e *envelope) error {
	if w.err != nil {
		return w.err
	}
	if e.Kind != KindHeader {
		e.N = w.n + 1
	}
	var body []byte
	if e.Kind == KindCycle {
		// The hot record, written by hand (encode_cycle.go).
		if w.cycles == nil {
			w.cycles = newCycleEncoder()
		}
		ce := w.cycles
		ce.b, ce.err = ce.b[:0], nil
		ce.appendRecord(e.Cycle, e.NodeSetAt, e.N)
		if ce.err != nil {
			return fmt.Errorf("encoding %s record: %w", e.Kind, ce.err)
		}
		body = ce.b
	} else {
		w.buf.Reset()
		enc := json.NewEncoder(&w.buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(e); err != nil {
			return fmt.Errorf("encoding %s record: %w", e.Kind, err)
		}
		body = bytes.TrimSuffix(w.buf.Bytes(), []byte("\n"))
	}
	sum := frameHead(body)
	if _, err := w.w.Write(sum[:]); err != nil {
		w.err = err
		return err
	}
	w.w.Write(body)
	w.w.WriteByte('\n')
	if err := w.w.Flush(); err != nil {
		w.err = err
		return err
	}
	w.off += int64(len(sum) + len(body) + 1)
	if e.Kind != KindHeader {
		w.n++
	}
	return nil
}

// WriteObserved appends a binding observed on a live cluster.
func (w *Writer) WriteObserved(o *Observed) error {
	return w.write(&envelope{Kind: KindObserved, Observed: o})
}

// WriteDropped appends a note of records dropped before this point.
func (w *Writer) WriteDropped(d *Dropped) error {
	return w.write(&envelope{Kind: KindDropped, Dropped: d})
}

// WriteQueue appends a scheduling queue event.
func (w *Writer) WriteQueue(e *QueueEvent) error {
	return w.write(&envelope{Kind: KindQueue, Queue: e})
}

// WriteCluster appends what a fixture run's controllers left at its end.
func (w *Writer) WriteCluster(st *ClusterState) error {
	return w.write(&envelope{Kind: KindCluster, Cluster: st})
}

// WritePodGroup appends a pod-group cycle (KindPodGroup).
func (w *Writer) WritePodGroup(g *PodGroupCycle) error {
	return w.write(&envelope{Kind: KindPodGroup, PodGroup: g})
}

// WriteEnd ends the recording: no record may follow.
func (w *Writer) WriteEnd() error {
	return w.write(&envelope{Kind: KindEnd})
}

// Flush flushes buffered data (records are already flushed as they are written).
func (w *Writer) Flush() error { return w.w.Flush() }

// ErrTorn reports a last record cut short, as a crash while writing leaves it.
type ErrTorn struct {
	Offset int64
}

func (e *ErrTorn) Error() string {
	return fmt.Sprintf("recording ends with a torn record at byte %d (kept everything before it)", e.Offset)
}

// ErrCorrupt reports a damaged record in the middle of a recording. Reading can
// continue past it.
type ErrCorrupt struct {
	Offset int64
	Line   int
	Reason string
}

func (e *ErrCorrupt) Error() string {
	if e.Line == 0 { // read by offset, not counting lines
		return fmt.Sprintf("corrupt record at byte %d: %s", e.Offset, e.Reason)
	}
	return fmt.Sprintf("corrupt record at byte %d (line %d): %s", e.Offset, e.Line, e.Reason)
}

// ErrVersion reports a recording this build cannot read.
type ErrVersion struct {
	Format  string
	Version int
}

func (e *ErrVersion) Error() string {
	if e.Format != FormatName {
		return fmt.Sprintf("not a schedscope recording (format %q)", e.Format)
	}
	return fmt.Sprintf("recording schema version %d is not supported (this build reads versions %d to %d); upgrade schedscope", e.Version, minSchemaVersion, SchemaVersion)
}
