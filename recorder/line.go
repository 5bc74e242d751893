package recorder

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// Limits on a line's length. A reader holds at most one line in memory, so
// these bound what a damaged or hand-made file can make it allocate.
const (
	// maxHeaderLine bounds the header record; a real one is a few kilobytes
	// even with many profiles.
	maxHeaderLine = 1 << 20
	// maxRecordLine bounds every other record; a node set of a 15 000-node
	// cluster with labels is a few tens of megabytes.
	maxRecordLine = 128 << 20
)

// limits are the bounds a reader applies; tests and fuzzing use small ones.
type limits struct {
	header, record int
	// ints bounds the values a record's runs-form lists expand to.
	ints int64
}

var defaultLimits = limits{header: maxHeaderLine, record: maxRecordLine, ints: maxRecordInts}

// lineReader splits a recording into lines, counting their offsets, and
// never holds more than a limit's worth of one line.
type lineReader struct {
	r      *bufio.Reader
	offset int64 // offset of the next line
	line   int   // number of the last line started
	buf    []byte
	// partial is set when next returned a line too long without skipping
	// its rest.
	partial bool
}

// next returns the next line without its newline and the line's offset. At
// a clean end it returns io.EOF; for a last line without a newline,
// *ErrTorn; for a line longer than limit, *ErrCorrupt, after skipping to its
// end if skip is set. With an error, the bytes read of the line (at most
// limit) are returned too, so a caller can look at how it starts. The line is
// valid until the next call.
func (lr *lineReader) next(limit int, skip bool) ([]byte, int64, error) {
	off := lr.offset
	lr.partial = false
	if cap(lr.buf) > 4<<20 {
		lr.buf = nil // do not keep one huge line's buffer for the rest of the file
	}
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.offset += int64(len(chunk))
		content := len(lr.buf) + len(chunk)
		if err == nil {
			content-- // the newline
		}
		if content > limit {
			lr.line++
			lr.buf = append(lr.buf, chunk[:min(len(chunk), limit-len(lr.buf))]...)
			if errors.Is(err, bufio.ErrBufferFull) {
				if lr.partial = !skip; skip {
					err = lr.skipLine()
				}
			}
			if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
				return lr.buf, off, err
			}
			return lr.buf, off, &ErrCorrupt{Offset: off, Line: lr.line, Reason: fmt.Sprintf("record is longer than %d bytes", limit)}
		}
		lr.buf = append(lr.buf, chunk...)
		switch {
		case err == nil:
			lr.line++
			return lr.buf[:len(lr.buf)-1], off, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(lr.buf) == 0 {
				return nil, off, io.EOF
			}
			lr.line++
			return lr.buf, off, &ErrTorn{Offset: off}
		default:
			return lr.buf, off, err
		}
	}
}

// skipLine discards input up to and including the next newline: the rest of
// a line too long to keep.
func (lr *lineReader) skipLine() error {
	lr.partial = false
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.offset += int64(len(chunk))
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
	}
}

// framed reports whether b starts like a record line: eight hex digits of
// checksum, a space and a JSON object.
func framed(b []byte) bool {
	if len(b) < 10 || b[8] != ' ' || b[9] != '{' {
		return false
	}
	for _, c := range b[:8] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
