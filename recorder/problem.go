package recorder

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNotRecording reports a file that is not a schedscope recording at all:
// its first line is not a checksum-framed record.
type ErrNotRecording struct {
	// Start is how the file begins, at most a few dozen bytes.
	Start string
}

func (e *ErrNotRecording) Error() string {
	if e.Start == "" {
		return "not a schedscope recording"
	}
	return fmt.Sprintf("not a schedscope recording: it starts with %s, not a checksum and a JSON record", strconv.QuoteToASCII(e.Start))
}

// ErrMissingNodeSet reports a cycle whose node set is not in the recording or
// could not be read: its node indices cannot be named. The cycle itself is
// still read.
type ErrMissingNodeSet struct {
	// Offset is the byte offset of the cycle's record.
	Offset int64
	Seq    int
	ID     int
	// Reason says why the set is missing when it was found but damaged.
	Reason string
}

func (e *ErrMissingNodeSet) Error() string {
	s := fmt.Sprintf("cycle %d (record at byte %d) refers to node set %d, which is not in the recording; its node names are unknown", e.Seq, e.Offset, e.ID)
	if e.Reason != "" {
		s = fmt.Sprintf("cycle %d (record at byte %d) refers to node set %d, which could not be read (%s); its node names are unknown", e.Seq, e.Offset, e.ID, e.Reason)
	}
	return s
}

// ErrDropped reports records a live session dropped from its recording
// because writing fell behind the scheduler. The records around it are whole.
type ErrDropped struct {
	// Offset is the byte offset of the note.
	Offset int64
	Dropped
}

func (e *ErrDropped) Error() string {
	what := fmt.Sprintf("%d cycles", e.Cycles)
	switch {
	case e.Cycles == 1:
		what = fmt.Sprintf("cycle %d", e.FirstSeq)
	case e.Cycles > 1:
		what = fmt.Sprintf("%d cycles (%d to %d)", e.Cycles, e.FirstSeq, e.LastSeq)
	}
	var parts []string
	if e.Cycles > 0 {
		parts = append(parts, what)
	}
	if e.Observed > 0 {
		parts = append(parts, fmt.Sprintf("%d observed bindings", e.Observed))
	}
	if e.Queue > 0 {
		parts = append(parts, fmt.Sprintf("%d queue events", e.Queue))
	}
	if len(parts) > 0 {
		what = strings.Join(parts, " and ")
	}
	return fmt.Sprintf("%s were dropped while recording, before byte %d: writing fell behind the scheduler", what, e.Offset)
}

// ErrDuplicate reports a second record for a cycle sequence number or a node
// set ID already seen (a node set in the same file), or a queue event that
// repeats the one before it. The second record is skipped.
type ErrDuplicate struct {
	// Offset is the byte offset of the second record.
	Offset int64
	// Kind is KindCycle, KindNodeSet or KindQueue.
	Kind string
	// ID is the cycle's or queue event's sequence number, or the node set's ID.
	ID int
	// First is the byte offset of the first record.
	First int64
}

func (e *ErrDuplicate) Error() string {
	return fmt.Sprintf("%s %d appears again at byte %d (first at byte %d)", numbered(e.Kind), e.ID, e.Offset, e.First)
}

// ErrOutOfOrder reports a record whose number in its file, or a queue event
// whose sequence number, is lower than that of the record before it:
// records are numbered as they are written, so the record was moved or
// copied. A copy is skipped; a record moved is kept (Kept).
type ErrOutOfOrder struct {
	// Offset is the byte offset of the record.
	Offset int64
	// Kind is KindQueue, or "record" for a record's number in its file.
	Kind string
	Seq  int
	// After is the sequence number of the record before it, at byte AfterAt.
	After   int
	AfterAt int64
	// Kept says the record was read all the same: its number was not read
	// before, so it is no copy.
	Kept bool
}

func (e *ErrOutOfOrder) Error() string {
	what := numbered(e.Kind)
	s := fmt.Sprintf("%s %d at byte %d is out of order: it comes after %s %d (at byte %d)", what, e.Seq, e.Offset, what, e.After, e.AfterAt)
	if e.Kept {
		s += "; it was moved, not copied, and is kept"
	}
	return s
}

// numbered names the records of a kind that carry a number.
func numbered(kind string) string {
	switch kind {
	case KindNodeSet:
		return "node set"
	case KindQueue:
		return "queue event"
	case kindRecord:
		return "record"
	}
	return "cycle"
}

// IsProblem reports whether err is a damaged, missing, duplicate or
// out-of-order record that a reader reports and reads past, as opposed to an
// error that stops reading.
func IsProblem(err error) bool {
	var (
		torn    *ErrTorn
		corrupt *ErrCorrupt
		missing *ErrMissingNodeSet
		dup     *ErrDuplicate
		order   *ErrOutOfOrder
		dropped *ErrDropped
	)
	return errors.As(err, &torn) || errors.As(err, &corrupt) || errors.As(err, &missing) || errors.As(err, &dup) || errors.As(err, &order) || errors.As(err, &dropped)
}

// problemOffset returns the byte offset a problem names.
func problemOffset(err error) int64 {
	var (
		torn    *ErrTorn
		corrupt *ErrCorrupt
		missing *ErrMissingNodeSet
		dup     *ErrDuplicate
		order   *ErrOutOfOrder
		dropped *ErrDropped
	)
	switch {
	case errors.As(err, &torn):
		return torn.Offset
	case errors.As(err, &corrupt):
		return corrupt.Offset
	case errors.As(err, &missing):
		return missing.Offset
	case errors.As(err, &dup):
		return dup.Offset
	case errors.As(err, &order):
		return order.Offset
	case errors.As(err, &dropped):
		return dropped.Offset
	}
	return 0
}
