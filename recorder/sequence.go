package recorder

import "time"

// Records carry numbers that say where they belong, and a record whose
// number says it cannot be where it is was moved, copied or spliced in:
//
//   - a node set's ID is written once per file (Writer writes a set before
//     the first cycle of that file that refers to it);
//   - a cycle's sequence number is given when the cycle starts, once per run.
//     Cycles are not written in that order: a cycle is written when it ends,
//     after its binding, and a cycle that preempted is held until its
//     victims are gone, so a cycle may follow a later one. Its number only
//     must not repeat;
//   - a queue event's sequence number is given as the event happens, under
//     the scheduling queue's lock, and events are written in that order: the
//     numbers increase from one record to the next.
//
//   - every record after a file's header carries its number in that file
//     (envelope.N), given as it is written: the numbers increase from line
//     to line, which catches what the kinds' own numbers cannot, such as two
//     cycles swapped. Recordings written before it have none.
//
// Numbers may skip: a live session drops records when the disk falls behind
// (a KindDropped record notes it), and a flight recorder's file starts where
// the one before it ended. A record whose number repeats, or a queue event
// whose number goes back, is a problem the readers report (*ErrDuplicate,
// *ErrOutOfOrder) and skip, so that it is neither counted nor shown twice.
// sequence is that check; the Reader and the index reader both call it.

// sequence is what a reader has seen of records' numbers.
type sequence struct {
	// sets holds the offset of each node set of the current file, cycles the
	// offset of each cycle.
	sets   map[int]int64
	cycles map[int]int64
	// queue is the last queue event's sequence number, queueAt the offset
	// of its record.
	queue   int
	queueAt int64
	// created is when the recording being read was created, from its
	// header; zero when unknown.
	created time.Time
	// n is the number of the last numbered record of the current file, nAt
	// its offset.
	n   int64
	nAt int64
}

func newSequence(h Header) sequence {
	return sequence{sets: map[int]int64{}, cycles: map[int]int64{}, created: h.Created}
}

// admit checks the number of a record read at off, of kind KindNodeSet,
// KindCycle or KindQueue, and notes it. It returns the problem that makes
// the record one to skip, or nil.
func (s *sequence) admit(kind string, n int, off int64) error {
	switch kind {
	case KindNodeSet, KindCycle:
		seen := s.sets
		if kind == KindCycle {
			seen = s.cycles
		}
		if first, ok := seen[n]; ok {
			return &ErrDuplicate{Offset: off, Kind: kind, ID: n, First: first}
		}
		seen[n] = off
	case KindQueue:
		switch {
		case s.queue == 0:
		case n == s.queue:
			return &ErrDuplicate{Offset: off, Kind: KindQueue, ID: n, First: s.queueAt}
		case n < s.queue:
			return &ErrOutOfOrder{Offset: off, Kind: KindQueue, Seq: n, After: s.queue, AfterAt: s.queueAt}
		}
		s.queue, s.queueAt = n, off
	}
	return nil
}

// header notes a header read after the first record: a flight recorder's
// next file, followed across rotation (its header is the first file's),
// whose node sets start anew while cycles and queue events go on being
// numbered; or, when it was created at another time than the recording
// read so far, another recording, which numbers everything anew. h is nil
// when the header's body is missing: it is taken for the next file, as is a
// header that follows an unreadable one.
func (s *sequence) header(h *Header) {
	clear(s.sets)
	s.n, s.nAt = 0, 0 // each file numbers its records from 1
	switch {
	case h == nil:
	case s.created.IsZero() || h.Created.Equal(s.created):
		s.created = h.Created
	default:
		clear(s.cycles)
		s.queue, s.queueAt, s.created = 0, 0, h.Created
	}
}

// record checks a record's number in its file, n (0: a recording written
// before records were numbered): numbers increase from record to record,
// so a record that repeats or goes back was copied or moved. It catches
// what the kinds' own numbers cannot, such as two cycles swapped. A gap is
// no problem: the records between were damaged and reported as such.
func (s *sequence) record(n, off int64) error {
	if n == 0 {
		return nil
	}
	switch {
	case s.n == 0:
	case n == s.n:
		return &ErrDuplicate{Offset: off, Kind: kindRecord, ID: int(n), First: s.nAt}
	case n < s.n:
		return &ErrOutOfOrder{Offset: off, Kind: kindRecord, Seq: int(n), After: int(s.n), AfterAt: s.nAt}
	}
	s.n, s.nAt = n, off
	return nil
}

// kindRecord names, in a problem, a record by its number in its file.
const kindRecord = "record"
