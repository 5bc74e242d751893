package recorder

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"slices"
)

// Record is one record read from a recording.
type Record struct {
	Kind     string
	NodeSet  *NodeSet
	Cycle    *Cycle
	Observed *Observed
	Queue    *QueueEvent
	// Cluster is what a fixture run's controllers left (KindCluster).
	Cluster *ClusterState
	// PodGroup is a pod-group cycle (KindPodGroup).
	PodGroup *PodGroupCycle
	// Entry is a cycle's index entry, read instead of the Cycle by a
	// Reader from NewIndexReader.
	Entry *CycleEntry
	// Offset is the byte offset of the record's line.
	Offset int64
	// n is the record's number in its file (envelope.N), 0 when unnumbered.
	n int64
}

// Reader reads a recording record by record.
type Reader struct {
	lr       lineReader
	lim      limits
	header   Header
	nodeSets map[int]*NodeSet
	// seq checks the numbers records carry: no node set twice in a file (a
	// flight recorder's next file writes its node sets anew), no cycle
	// twice, queue events in increasing order.
	seq sequence
	// corruptAt holds the reasons of damaged records by offset, so a cycle
	// pointing at one can say why its node set is missing; base is the offset
	// of the current file's header, which such pointers count from.
	corruptAt map[int64]string
	base      int64
	// pending holds problems to return before reading on.
	pending []error
	// unknown counts the records of kinds this build does not know.
	unknown map[string]int
	// held is a header read in the middle of the file, until the record
	// after it tells whether it starts a flight recorder's next file or was
	// copied there; again is a line read to settle it, to be read next.
	held      *heldHeader
	again     []byte
	againOff  int64
	againLine int
	// lastHeader is the line of the header read last, at byte
	// lastHeaderAt, while no other line has been read after it: a header
	// line equal to it is a copy.
	lastHeader   []byte
	lastHeaderAt int64
	// first is a record read while looking for the header.
	first     *wireEnvelope
	firstOff  int64
	firstLine int
	done      bool
	// index makes Next skim cycles into entries (NewIndexReader); in holds
	// the strings the entries share, segment counts rotations followed.
	index   bool
	in      interner
	segment int
}

// NewReader reads and checks the header. A file whose first line is not a
// checksum-framed record fails with *ErrNotRecording, an intact header of
// another format or version with *ErrVersion. A damaged header does not stop
// reading: Header then reports Unreadable, and Next returns the damage as
// the first problem.
func NewReader(r io.Reader) (*Reader, error) { return newReader(r, defaultLimits) }

func newReader(r io.Reader, lim limits) (*Reader, error) {
	rd := &Reader{
		lr:       lineReader{r: bufio.NewReaderSize(r, 256<<10)},
		lim:      lim,
		seq:      newSequence(Header{}),
		nodeSets: map[int]*NodeSet{}, corruptAt: map[int64]string{},
		unknown: map[string]int{},
	}
	line, off, err := rd.lr.next(lim.header, false)
	var torn *ErrTorn
	var corrupt *ErrCorrupt
	switch {
	case err == nil:
	case errors.Is(err, io.EOF) || errors.As(err, &torn):
		if len(line) > 0 && !framed(line) {
			return nil, notRecording(line)
		}
		return nil, errors.New("recording is empty or its header is incomplete")
	case errors.As(err, &corrupt): // longer than a header can be
		if !framed(line) {
			return nil, notRecording(line)
		}
		if rd.lr.partial {
			if err := rd.lr.skipLine(); err != nil && !errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("reading header: %w", err)
			}
		}
		rd.unreadableHeader(off, "header "+corrupt.Reason)
		return rd, nil
	default:
		return nil, fmt.Errorf("reading header: %w", err)
	}
	if !framed(line) {
		// A header damaged at its very start, followed by records, is still a
		// recording.
		if next, _ := rd.lr.r.Peek(10); framed(next) {
			rd.unreadableHeader(off, "header is not a checksum-framed record")
			return rd, nil
		}
		return nil, notRecording(line)
	}
	e, reason := decodeLine(line)
	switch {
	case e == nil:
		rd.unreadableHeader(off, "header: "+reason)
	case e.Kind != KindHeader || e.Header == nil:
		rd.unreadableHeader(off, fmt.Sprintf("the first record is a %q record, not the header", e.Kind))
		rd.first, rd.firstOff, rd.firstLine = e, off, 1
	case e.Header.Format != FormatName || e.Header.SchemaVersion < minSchemaVersion || e.Header.SchemaVersion > SchemaVersion:
		return nil, &ErrVersion{Format: e.Header.Format, Version: e.Header.SchemaVersion}
	default:
		rd.header = *e.Header
	}
	rd.seq = newSequence(rd.header)
	if isHeaderLine(line) {
		rd.lastHeader, rd.lastHeaderAt = slices.Clone(line), off
	}
	return rd, nil
}

// notRecording quotes how a file starts: a few dozen bytes of text, or
// eight of binary data.
func notRecording(start []byte) error {
	n := min(len(start), 24)
	for i, c := range start[:n] {
		if c < 0x20 && c != '\t' || c == 0x7f {
			n = min(n, max(i, 8))
			break
		}
	}
	return &ErrNotRecording{Start: string(start[:n])}
}

func (r *Reader) unreadableHeader(off int64, reason string) {
	r.header = Header{Unreadable: true}
	r.pending = append(r.pending, &ErrCorrupt{Offset: off, Line: 1, Reason: reason + "; the recording's versions, source and profiles are unknown"})
}

// Header returns the recording's header.
func (r *Reader) Header() Header { return r.header }

// Next returns the next record. It returns io.EOF at the end and, for a
// record it reads past, a problem (see IsProblem): *ErrTorn once for a torn
// last record (then io.EOF), *ErrCorrupt for a damaged one, *ErrDuplicate
// for a repeated cycle, node set or queue event and *ErrOutOfOrder for a
// queue event numbered lower than the one before it (both skipped, see
// sequence), and *ErrMissingNodeSet after a cycle whose node set is not in
// the recording (the cycle is returned, without node names). Next may be
// called again after a problem to continue.
func (r *Reader) Next() (Record, error) {
	for {
		if len(r.pending) > 0 {
			err := r.pending[0]
			r.pending = r.pending[1:]
			return Record{Offset: problemOffset(err)}, err
		}
		if r.done {
			return Record{}, io.EOF
		}
		e, off, line := r.first, r.firstOff, r.firstLine
		r.first = nil
		if e == nil {
			b, o, err := r.again, r.againOff, error(nil)
			line = r.againLine
			if b != nil {
				r.again = nil
			} else {
				b, o, err = r.lr.next(r.lim.record, true)
				line = r.lr.line
				if err == nil {
					if err := r.repeatedHeader(b, o, line); err != nil {
						return Record{Offset: o}, err
					}
				}
			}
			off = o
			if err != nil {
				var torn *ErrTorn
				var corrupt *ErrCorrupt
				switch {
				case errors.As(err, &corrupt):
					r.corruptAt[off] = corrupt.Reason
				case errors.As(err, &torn) || errors.Is(err, io.EOF):
					r.done = true
					if r.held != nil { // nothing after it tells: a next file just started
						h := r.held
						r.held = nil
						r.rotate(h.off, h.header)
					}
				}
				return Record{Offset: off}, err
			}
			if r.held != nil {
				if rec, err, ok := r.settle(b, off, line); ok {
					return rec, err
				}
			}
			if r.index {
				rec, err, ok := r.skim(b, off, line)
				if ok {
					return rec, err
				}
				continue
			}
			var reason string
			if e, reason = decodeLine(b); e == nil {
				r.corruptAt[off] = reason
				return Record{Offset: off}, &ErrCorrupt{Offset: off, Line: line, Reason: reason}
			}
		}
		if e.Kind == KindHeader {
			r.hold(off, line, e.Header)
			continue
		}
		rec, err := decodeRecord(e, off, line, r.lim, r.lookup)
		rec.n = e.N
		if r.index && rec.Cycle != nil {
			entry := EntryOf(rec.Cycle)
			entry.Offset, entry.Segment = off-r.base, r.segment
			rec.Cycle, rec.Entry = nil, &entry
		}
		if rec.Kind == "" {
			if err != nil {
				r.corruptAt[off] = err.(*ErrCorrupt).Reason
				return rec, err
			}
			r.unknown[e.Kind]++ // a kind from a newer writer
			continue
		}
		if skip := r.admit(rec); skip != nil {
			return Record{Offset: off}, skip // what else is wrong with it does not matter
		}
		if err != nil {
			r.pending = append(r.pending, err)
		}
		return rec, nil
	}
}

// repeatedHeader notes the line b read at byte off, line line, and
// returns the problem that skips it when it repeats the header line read
// just before it: a copy, since the writer writes a record after every
// header before it rotates (RotatingWriter), so no file of a followed
// recording is a header alone. Another recording's header (created at
// another time) differs.
func (r *Reader) repeatedHeader(b []byte, off int64, line int) error {
	prev, at := r.lastHeader, r.lastHeaderAt
	r.lastHeader = nil
	if prev != nil && bytes.Equal(b, prev) {
		r.lastHeader = prev // a third copy repeats it too
		return &ErrCorrupt{Offset: off, Line: line, Reason: fmt.Sprintf(
			"the header at byte %d again, right after it: a copy (a flight recorder's next file has a record after its header)", at)}
	}
	if isHeaderLine(b) {
		r.lastHeader, r.lastHeaderAt = slices.Clone(b), off
	}
	return nil
}

// isHeaderLine reports whether line is a header record's, as the writer
// frames it.
func isHeaderLine(line []byte) bool {
	return framed(line) && bytes.HasPrefix(line[9:], []byte(`{"kind":"header"`))
}

// heldHeader is a header read in the middle of a file (its body nil when
// unreadable), at byte off of line line.
type heldHeader struct {
	off    int64
	line   int
	header *Header
}

// hold keeps a header read in the middle of a file until the record after
// it is read (settle).
func (r *Reader) hold(off int64, line int, h *Header) {
	if r.held != nil { // another recording's header after a header (a copy is skipped, repeatedHeader): the first started a file with no records
		r.rotate(r.held.off, r.held.header)
	}
	r.held = &heldHeader{off: off, line: line, header: h}
}

// settle decides, from the record line b read after a held header, what the
// header is: the start of a flight recorder's next file, followed across
// rotation (whose node sets start anew, and whose offsets count from its
// header), when b is numbered 1 or lower than the records before; or, when
// b goes on from them, a header copied into the middle of the file, a
// problem the records around it are read past. A line whose checksum does
// not hold settles nothing. ok says to return rec and err, b being read
// next; otherwise b is read now.
func (r *Reader) settle(b []byte, off int64, line int) (rec Record, err error, ok bool) {
	body, fault := openFrame(b)
	if fault != frameOK {
		return Record{}, nil, false
	}
	n, _ := frameNumber(body)
	h := r.held
	r.held = nil
	if r.seq.continues(n) {
		r.again, r.againOff, r.againLine = slices.Clone(b), off, line
		return Record{Offset: h.off}, &ErrCorrupt{Offset: h.off, Line: h.line, Reason: fmt.Sprintf(
			"a header in the middle of the recording, followed by record %d, which goes on from record %d before it: the header was copied there, it does not start a next file", n, r.seq.n)}, true
	}
	r.rotate(h.off, h.header)
	if r.index {
		r.again, r.againOff, r.againLine = slices.Clone(b), off, line
		return Record{Kind: KindHeader, Offset: h.off}, nil, true
	}
	return Record{}, nil, false
}

// rotate starts a followed recording's next file, whose header h (nil when
// unreadable) is at off.
func (r *Reader) rotate(off int64, h *Header) {
	r.seq.header(h)
	r.base = off
	r.segment++
}

// admit checks the numbers of a record read, returning the problem that
// skips it (a copy), and keeps a node set it admits for the cycles that
// refer to it. A record moved but not copied is kept: its problem is
// returned after it.
func (r *Reader) admit(rec Record) (skip error) {
	kindErr := r.admitKind(rec)
	var dup *ErrDuplicate
	if errors.As(kindErr, &dup) {
		return kindErr
	}
	problem, copied := r.seq.record(rec.n, rec.Offset)
	var order *ErrOutOfOrder
	switch {
	case copied && kindErr != nil:
		return kindErr
	case copied:
		return problem
	case errors.As(kindErr, &order) && rec.n == 0:
		return kindErr // unnumbered: moved or copied, it cannot tell
	case order != nil: // a queue event moved: its own number says more
		order.Kept = true
		r.seq.moveQueue(order.Seq, order.Offset)
		problem = order
	}
	if problem != nil {
		r.pending = append(r.pending, problem)
	}
	return nil
}

// admitKind checks the number of a record of a numbered kind.
func (r *Reader) admitKind(rec Record) error {
	switch {
	case rec.NodeSet != nil:
		ns := rec.NodeSet
		if err := r.seq.admit(KindNodeSet, ns.ID, rec.Offset); err != nil {
			return err
		}
		if r.index {
			// An index looks node sets up only to know they exist; their
			// names are read again with the cycle that needs them.
			ns = &NodeSet{ID: ns.ID}
		}
		r.nodeSets[ns.ID] = ns
	case rec.Cycle != nil:
		return r.seq.admit(KindCycle, rec.Cycle.Seq, rec.Offset)
	case rec.Entry != nil:
		return r.seq.admit(KindCycle, rec.Entry.Seq, rec.Offset)
	case rec.Queue != nil:
		return r.seq.admit(KindQueue, rec.Queue.Seq, rec.Offset)
	}
	return nil
}

// Skipped returns how many records of each kind this build does not know
// (written by a newer schedscope) Next has read past so far.
func (r *Reader) Skipped() map[string]int { return maps.Clone(r.unknown) }

// lookup finds a cycle's node set among those read so far.
func (r *Reader) lookup(id int, at int64) (*NodeSet, string) {
	if ns, ok := r.nodeSets[id]; ok {
		return ns, ""
	}
	if reason, ok := r.corruptAt[r.base+at]; ok && at != 0 {
		return nil, fmt.Sprintf("its record at byte %d is damaged: %s", r.base+at, reason)
	}
	return nil, ""
}

// All iterates over the remaining records. A non-nil error is yielded with an
// empty record; iteration continues after problems.
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
