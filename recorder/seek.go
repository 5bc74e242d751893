package recorder

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// maxCachedNodeSets bounds the node sets a File keeps read: a 15 000-node
// set with labels is tens of megabytes, and a long recording has many.
const maxCachedNodeSets = 16

// seekWindow is how far past the binary search's landing point Seek scans.
const seekWindow = 32 << 20

// File opens a recording for random access: the first cycle, or any cycle by
// sequence number, without reading the file from the start. Memory use does
// not grow with the file: it holds the header and the node sets it has read.
// It decodes records as Reader does and reports the same problems for the
// cycles it returns.
//
// Seek relies on cycles being written in nearly increasing sequence order, as
// the engine emits them; it binary-searches byte offsets, then scans a short
// window around the landing point.
type File struct {
	mu         sync.Mutex // CycleAt's and ApplyUsage's
	line       []byte     // ApplyUsage's buffer
	f          *os.File
	size       int64
	lim        limits
	header     Header
	headerErr  error
	dataAt     int64 // offset of the first record after the header
	nodeSets   map[int64]*NodeSet
	setsByID   map[int]*NodeSet // node sets found by scanning, for cycles that do not say where theirs is
	scannedFor int64            // offset up to which the scan for setsByID has run
}

// OpenFile opens path and reads its header.
func OpenFile(path string) (*File, error) { return openFile(path, defaultLimits) }

func openFile(path string, lim limits) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	rd, err := newReader(io.NewSectionReader(f, 0, st.Size()), lim)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rf := &File{f: f, size: st.Size(), lim: lim, header: rd.Header(), nodeSets: map[int64]*NodeSet{}, setsByID: map[int]*NodeSet{}}
	rf.dataAt = rd.lr.offset
	if rd.first != nil { // the first line is a record, not a header
		rf.dataAt = rd.firstOff
	}
	if len(rd.pending) > 0 {
		rf.headerErr = rd.pending[0]
	}
	rf.scannedFor = rf.dataAt
	return rf, nil
}

// Close closes the file.
func (rf *File) Close() error { return rf.f.Close() }

// Header returns the recording's header.
func (rf *File) Header() Header { return rf.header }

// HeaderProblem returns the damage that made the header unreadable, or nil.
func (rf *File) HeaderProblem() error { return rf.headerErr }

// First returns the first intact cycle, or io.EOF if there is none. As Seek,
// it returns a cycle whose node set is missing together with an
// *ErrMissingNodeSet.
func (rf *File) First() (*Cycle, error) {
	off := rf.dataAt
	for off < rf.size {
		e, next, err := rf.recordAt(off)
		if err == nil && e.Kind == KindCycle && e.Cycle != nil {
			// A record that decodes but does not build (lists past their
			// bounds) is skipped, as Reader skips it.
			if c, err := rf.build(e, off); c != nil {
				return c, err
			}
		}
		if next <= off {
			break
		}
		off = next
	}
	return nil, io.EOF
}

// Seek returns the cycle with sequence number seq. When the cycle's node set
// is missing or damaged, it returns the cycle without node names together
// with an *ErrMissingNodeSet; when its record is corrupt, only the
// *ErrCorrupt.
func (rf *File) Seek(seq int) (*Cycle, error) {
	lo, hi := rf.dataAt, rf.size
	// Find the last line start whose cycle has Seq <= seq.
	for hi-lo > 256<<10 {
		mid := lo + (hi-lo)/2
		e, _, err := rf.cycleAfter(mid)
		if err != nil || e.Cycle.Seq > seq {
			hi = mid
		} else {
			lo = mid
		}
	}
	// Scan a window around the landing point: from a little before lo so that
	// cycles emitted slightly out of order are still found.
	start := max(rf.dataAt, lo-(256<<10))
	off, err := rf.lineStart(start)
	if err != nil {
		return nil, err
	}
	var damaged error // the record of cycle seq, if it is corrupt
	for off < rf.size {
		e, next, err := rf.recordAt(off)
		if err == nil && e.Kind == KindCycle && e.Cycle != nil && e.Cycle.Seq == seq {
			c, err := rf.build(e, off)
			if c != nil {
				return c, err
			}
			if damaged == nil {
				damaged = err
			}
		}
		if err != nil && !IsProblem(err) {
			return nil, err
		}
		// Cycles are written in nearly increasing order; a preempting cycle
		// waits for its victims and can land later. Look a bounded number of
		// bytes past the landing point.
		if off > lo+seekWindow || next <= off {
			break
		}
		off = next
	}
	if damaged != nil {
		return nil, damaged
	}
	return nil, fmt.Errorf("cycle %d is not in the recording", seq)
}

// cycleAfter returns the first intact cycle record starting at or after off.
func (rf *File) cycleAfter(off int64) (*wireEnvelope, int64, error) {
	off, err := rf.lineStart(off)
	if err != nil {
		return nil, 0, err
	}
	for off < rf.size {
		e, next, err := rf.recordAt(off)
		if err == nil && e.Kind == KindCycle && e.Cycle != nil {
			return e, off, nil
		}
		if next <= off {
			break
		}
		off = next
	}
	return nil, 0, io.EOF
}

// lineStart returns the offset of the first line that starts at or after off.
func (rf *File) lineStart(off int64) (int64, error) {
	if off <= rf.dataAt {
		return rf.dataAt, nil
	}
	buf := make([]byte, 32<<10)
	pos := off - 1
	for pos < rf.size {
		n, err := rf.f.ReadAt(buf, pos)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return pos + int64(i) + 1, nil
		}
		if err != nil {
			return rf.size, nil
		}
		pos += int64(n)
	}
	return rf.size, nil
}

// recordAt checks and decodes the line at off, leaving a cycle's lists
// unexpanded, and returns the offset of the next line.
func (rf *File) recordAt(off int64) (*wireEnvelope, int64, error) {
	lr := lineReader{r: bufio.NewReaderSize(io.NewSectionReader(rf.f, off, rf.size-off), 64<<10), offset: off}
	line, _, err := lr.next(rf.lim.record, true)
	if errors.Is(err, io.EOF) {
		return nil, lr.offset, &ErrTorn{Offset: off}
	}
	if err != nil {
		return nil, lr.offset, err
	}
	e, reason := decodeLine(line)
	if e == nil {
		return nil, lr.offset, &ErrCorrupt{Offset: off, Reason: reason}
	}
	return e, lr.offset, nil
}

// build checks the cycle record at off and attaches its node set.
func (rf *File) build(e *wireEnvelope, off int64) (*Cycle, error) {
	rec, err := decodeRecord(e, off, 0, rf.lim, rf.nodeSet)
	if rec.Cycle == nil {
		return nil, err
	}
	return rec.Cycle, err
}

// nodeSet reads a cycle's node set once: from the offset its record names,
// or, in recordings written before records named it, by scanning from the
// start for the set's ID. A set not at that offset was moved by bytes added
// or lost before it (a line inserted, cut short or lost, each reported where
// it is): it is found by its ID too, as Reader finds it.
func (rf *File) nodeSet(id int, at int64) (*NodeSet, string) {
	if at == 0 {
		return rf.nodeSetByID(id)
	}
	if ns, ok := rf.nodeSets[at]; ok {
		return ns, ""
	}
	ns, reason := rf.nodeSetAt(id, at)
	if ns == nil && reason != "" {
		if moved, _ := rf.nodeSetByID(id); moved != nil {
			return moved, ""
		}
	}
	return ns, reason
}

// nodeSetAt reads node set id from the record at byte at.
func (rf *File) nodeSetAt(id int, at int64) (*NodeSet, string) {
	if at < rf.dataAt || at >= rf.size {
		return nil, fmt.Sprintf("its offset %d is outside the file", at)
	}
	ne, _, err := rf.recordAt(at)
	if err != nil {
		return nil, err.Error()
	}
	if ne.Kind != KindNodeSet || ne.NodeSet == nil || ne.NodeSet.ID != id {
		return nil, fmt.Sprintf("the record at byte %d is not node set %d", at, id)
	}
	if err := checkNodeSet(ne.NodeSet); err != nil {
		return nil, fmt.Sprintf("its record at byte %d is damaged: node set %d: %v", at, id, err)
	}
	if len(rf.nodeSets) >= maxCachedNodeSets {
		clear(rf.nodeSets) // a viewer goes back and forth among a few
	}
	rf.nodeSets[at] = ne.NodeSet
	return ne.NodeSet, ""
}

// nodeSetByID finds node set id by reading the file's lines in order, from
// where the last search stopped, decoding only node sets' lines. A torn last
// line is read again by the next search, once its writer has finished it.
func (rf *File) nodeSetByID(id int) (*NodeSet, string) {
	if ns, ok := rf.setsByID[id]; ok {
		return ns, ""
	}
	if rf.scannedFor >= rf.size {
		return nil, ""
	}
	lr := lineReader{r: bufio.NewReaderSize(io.NewSectionReader(rf.f, rf.scannedFor, rf.size-rf.scannedFor), 256<<10), offset: rf.scannedFor}
	for {
		line, _, err := lr.next(rf.lim.record, true)
		var corrupt *ErrCorrupt
		if err != nil && !errors.As(err, &corrupt) {
			return nil, "" // the end, or a torn line
		}
		rf.scannedFor = lr.offset
		if err != nil || !bytes.Contains(line, []byte(`"kind":"nodeSet"`)) {
			continue
		}
		e, _ := decodeLine(line)
		if e == nil || e.Kind != KindNodeSet || e.NodeSet == nil || checkNodeSet(e.NodeSet) != nil {
			continue
		}
		if _, ok := rf.setsByID[e.NodeSet.ID]; !ok {
			rf.setsByID[e.NodeSet.ID] = e.NodeSet
		}
		if e.NodeSet.ID == id {
			return e.NodeSet, ""
		}
	}
}

// CycleAt returns the cycle whose record starts at byte off, as an index
// entry names it (CycleEntry.Offset). It reports the same problems as Seek,
// and a record that is not a cycle as *ErrCorrupt. It may be called from
// several goroutines, and on a file that is still growing.
func (rf *File) CycleAt(off int64) (*Cycle, error) {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	if off >= rf.size {
		if st, err := rf.f.Stat(); err == nil {
			rf.size = st.Size()
		}
	}
	if off < rf.dataAt || off >= rf.size {
		return nil, fmt.Errorf("no record at byte %d: the recording is %d bytes", off, rf.size)
	}
	e, _, err := rf.recordAt(off)
	if err != nil {
		return nil, err
	}
	if e.Kind != KindCycle || e.Cycle == nil {
		return nil, &ErrCorrupt{Offset: off, Reason: fmt.Sprintf("a %q record, not a cycle", e.Kind)}
	}
	return rf.build(e, off)
}
