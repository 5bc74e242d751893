package recorder

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// seekWindow is how far past the binary search's landing point Seek scans.
const seekWindow = 32 << 20

// File opens a recording for random access: the first cycle, or any cycle by
// sequence number, without reading the file from the start. Memory use does
// not grow with the file: it holds the header and the node sets it has read.
//
// Seek relies on cycles being written in nearly increasing sequence order, as
// the engine emits them; it binary-searches byte offsets, then scans a short
// window around the landing point.
type File struct {
	f        *os.File
	size     int64
	header   Header
	dataAt   int64 // offset just after the header line
	nodeSets map[int64]*NodeSet
}

// OpenFile opens path and reads its header.
func OpenFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	rd, err := NewReader(br)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rf := &File{f: f, size: st.Size(), header: rd.Header(), nodeSets: map[int64]*NodeSet{}}
	rf.dataAt = rd.offset
	return rf, nil
}

// Close closes the file.
func (rf *File) Close() error { return rf.f.Close() }

// Header returns the recording's header.
func (rf *File) Header() Header { return rf.header }

// First returns the first cycle.
func (rf *File) First() (*Cycle, error) {
	off := rf.dataAt
	for off < rf.size {
		e, next, err := rf.recordAt(off)
		if err != nil {
			return nil, err
		}
		if e.Kind == KindCycle && e.Cycle != nil {
			return rf.resolve(e)
		}
		off = next
	}
	return nil, io.EOF
}

// Seek returns the cycle with sequence number seq.
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
	for off < rf.size {
		e, next, err := rf.recordAt(off)
		if err != nil {
			var corrupt *ErrCorrupt
			if errors.As(err, &corrupt) {
				off = next
				continue
			}
			return nil, err
		}
		if e.Kind == KindCycle && e.Cycle != nil && e.Cycle.Seq == seq {
			return rf.resolve(e)
		}
		// Cycles are written in nearly increasing order; a preempting cycle
		// waits for its victims and can land later. Look a bounded number of
		// bytes past the landing point.
		if off > lo+seekWindow {
			break
		}
		off = next
	}
	return nil, fmt.Errorf("cycle %d is not in the recording", seq)
}

// cycleAfter returns the first intact cycle record starting at or after off.
func (rf *File) cycleAfter(off int64) (*envelope, int64, error) {
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

// recordAt decodes the line at off and returns the offset of the next line.
func (rf *File) recordAt(off int64) (*envelope, int64, error) {
	r := bufio.NewReaderSize(io.NewSectionReader(rf.f, off, rf.size-off), 64<<10)
	line, err := r.ReadBytes('\n')
	next := off + int64(len(line))
	if err != nil {
		return nil, next, &ErrTorn{Offset: off}
	}
	e, reason := decodeLine(line[:len(line)-1])
	if e == nil {
		return nil, next, &ErrCorrupt{Offset: off, Reason: reason}
	}
	return e, next, nil
}

// resolve attaches the cycle's node set, reading it once.
func (rf *File) resolve(e *envelope) (*Cycle, error) {
	c := e.Cycle
	if e.NodeSetAt == 0 {
		return c, nil
	}
	if ns, ok := rf.nodeSets[e.NodeSetAt]; ok {
		c.Nodes = ns
		return c, nil
	}
	ne, _, err := rf.recordAt(e.NodeSetAt)
	if err != nil {
		return nil, fmt.Errorf("node set of cycle %d: %w", c.Seq, err)
	}
	if ne.NodeSet == nil || ne.NodeSet.ID != c.NodeSetID {
		return nil, &ErrCorrupt{Offset: e.NodeSetAt, Reason: fmt.Sprintf("cycle %d points at a record that is not its node set %d", c.Seq, c.NodeSetID)}
	}
	rf.nodeSets[e.NodeSetAt] = ne.NodeSet
	c.Nodes = ne.NodeSet
	return c, nil
}
