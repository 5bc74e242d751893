package recorder

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"iter"
	"strconv"
)

// A recording is a sequence of lines. Each line is
//
//	<crc32c of the JSON, 8 hex digits> <space> <JSON envelope> <newline>
//
// The first line carries the Header. A line is written and flushed as soon as its
// record is complete, so a crash loses at most the line being written; the reader
// keeps everything before a torn last line and reports the tear. The JSON after the
// checksum can be read with ordinary tools (cut -c10- FILE | jq).

// Record kinds.
const (
	KindHeader  = "header"
	KindNodeSet = "nodeSet"
	KindCycle   = "cycle"
	// KindObserved records a binding made by a live cluster's own scheduler.
	KindObserved = "observed"
)

type envelope struct {
	Kind     string    `json:"kind"`
	Header   *Header   `json:"header,omitempty"`
	NodeSet  *NodeSet  `json:"nodeSet,omitempty"`
	Cycle    *Cycle    `json:"cycle,omitempty"`
	Observed *Observed `json:"observed,omitempty"`
	// NodeSetAt is the byte offset of the NodeSet record a cycle refers to, so a
	// reader can open one cycle without reading the file from the start.
	NodeSetAt int64 `json:"nodeSetAt,omitempty"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Writer appends records to a recording.
type Writer struct {
	w       *bufio.Writer
	written map[int]int64 // node set ID → offset of its record
	off     int64         // bytes written so far
	buf     bytes.Buffer
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
	w.buf.Reset()
	enc := json.NewEncoder(&w.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return fmt.Errorf("encoding %s record: %w", e.Kind, err)
	}
	body := bytes.TrimSuffix(w.buf.Bytes(), []byte("\n"))
	var sum [9]byte
	copy(sum[:], fmt.Sprintf("%08x ", crc32.Checksum(body, castagnoli)))
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
	return nil
}

// WriteObserved appends a binding observed on a live cluster.
func (w *Writer) WriteObserved(o *Observed) error {
	return w.write(&envelope{Kind: KindObserved, Observed: o})
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
	return fmt.Sprintf("recording schema version %d is not supported (this build reads version %d); upgrade schedscope", e.Version, SchemaVersion)
}

// Record is one record read from a recording.
type Record struct {
	Kind     string
	NodeSet  *NodeSet
	Cycle    *Cycle
	Observed *Observed
	// Offset is the byte offset of the record's line.
	Offset int64
}

// Reader reads a recording record by record.
type Reader struct {
	r        *bufio.Reader
	header   Header
	nodeSets map[int]*NodeSet
	offset   int64
	line     int
	done     bool
}

// NewReader reads and checks the header.
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{r: bufio.NewReaderSize(r, 256<<10), nodeSets: map[int]*NodeSet{}}
	e, off, err := rd.readLine()
	if err != nil {
		var torn *ErrTorn
		if errors.Is(err, io.EOF) || errors.As(err, &torn) {
			return nil, errors.New("recording is empty or its header is incomplete")
		}
		return nil, fmt.Errorf("reading header: %w", err)
	}
	if e.Kind != KindHeader || e.Header == nil {
		return nil, &ErrCorrupt{Offset: off, Line: 1, Reason: "first record is not a header"}
	}
	if e.Header.Format != FormatName || e.Header.SchemaVersion != SchemaVersion {
		return nil, &ErrVersion{Format: e.Header.Format, Version: e.Header.SchemaVersion}
	}
	rd.header = *e.Header
	return rd, nil
}

// Header returns the recording's header.
func (r *Reader) Header() Header { return r.header }

// Next returns the next record. It returns io.EOF at the end, *ErrTorn once for a
// torn last record (then io.EOF), and *ErrCorrupt for a damaged record, after
// which Next may be called again to continue.
func (r *Reader) Next() (Record, error) {
	for {
		if r.done {
			return Record{}, io.EOF
		}
		e, off, err := r.readLine()
		if err != nil {
			var torn *ErrTorn
			if errors.As(err, &torn) || errors.Is(err, io.EOF) {
				r.done = true
			}
			return Record{Offset: off}, err
		}
		switch e.Kind {
		case KindNodeSet:
			if e.NodeSet == nil {
				return Record{Offset: off}, &ErrCorrupt{Offset: off, Line: r.line, Reason: "nodeSet record without body"}
			}
			r.nodeSets[e.NodeSet.ID] = e.NodeSet
			return Record{Kind: KindNodeSet, NodeSet: e.NodeSet, Offset: off}, nil
		case KindCycle:
			if e.Cycle == nil {
				return Record{Offset: off}, &ErrCorrupt{Offset: off, Line: r.line, Reason: "cycle record without body"}
			}
			e.Cycle.Nodes = r.nodeSets[e.Cycle.NodeSetID]
			return Record{Kind: KindCycle, Cycle: e.Cycle, Offset: off}, nil
		case KindObserved:
			if e.Observed == nil {
				return Record{Offset: off}, &ErrCorrupt{Offset: off, Line: r.line, Reason: "observed record without body"}
			}
			return Record{Kind: KindObserved, Observed: e.Observed, Offset: off}, nil
		default:
			// Unknown record kinds from newer writers are skipped.
			continue
		}
	}
}

// All iterates over the remaining records. A non-nil error is yielded with an
// empty record; iteration continues after corrupt records.
func (r *Reader) All() iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if !yield(rec, err) {
				return
			}
		}
	}
}

func (r *Reader) readLine() (*envelope, int64, error) {
	off := r.offset
	line, err := r.r.ReadBytes('\n')
	r.offset += int64(len(line))
	if len(line) == 0 && errors.Is(err, io.EOF) {
		return nil, off, io.EOF
	}
	r.line++
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, off, &ErrTorn{Offset: off}
		}
		return nil, off, err
	}
	e, reason := decodeLine(line[:len(line)-1])
	if e == nil {
		return nil, off, &ErrCorrupt{Offset: off, Line: r.line, Reason: reason}
	}
	return e, off, nil
}

// decodeLine checks one record line (without its newline) against its
// checksum and decodes it; on failure it returns nil and the reason.
func decodeLine(line []byte) (*envelope, string) {
	if len(line) < 10 || line[8] != ' ' {
		return nil, "missing checksum"
	}
	want, err := strconv.ParseUint(string(line[:8]), 16, 32)
	if err != nil {
		return nil, "malformed checksum"
	}
	body := line[9:]
	if crc32.Checksum(body, castagnoli) != uint32(want) {
		return nil, "checksum mismatch"
	}
	var e envelope
	if err := json.Unmarshal(body, &e); err != nil {
		return nil, err.Error()
	}
	return &e, ""
}
