package recorder

import (
	"cmp"
	"slices"
	"time"
)

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
// the one before it ended. A record that repeats one read before (its number
// in the file, a cycle's sequence number or a node set's ID was seen) is a
// copy: the readers report it (*ErrDuplicate, *ErrOutOfOrder) and skip it, so
// that it is neither counted nor shown twice. A record whose number in the
// file goes back but was not seen before was moved, not copied: it is
// reported (*ErrOutOfOrder with Kept) and kept, so that two lines swapped
// lose nothing. sequence is that check; the Reader and the index reader
// both call it.

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
	// its offset; seen holds the numbers of the file's records read so far.
	n    int64
	nAt  int64
	seen numberSet
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
	s.n, s.nAt, s.seen = 0, 0, numberSet{} // each file numbers its records from 1
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
// before records were numbered): numbers increase from record to record.
// A number read before is a copy (copied true, with its problem); a number
// lower than the one before it, not read before, is a record moved (its
// problem; the record is kept). It catches what the kinds' own numbers
// cannot, such as two cycles swapped. A gap is no problem: the records
// between were damaged and reported as such.
func (s *sequence) record(n, off int64) (problem error, copied bool) {
	if n == 0 {
		return nil, false
	}
	switch {
	case n == s.n:
		return &ErrDuplicate{Offset: off, Kind: kindRecord, ID: int(n), First: s.nAt}, true
	case s.seen.has(n):
		return &ErrOutOfOrder{Offset: off, Kind: kindRecord, Seq: int(n), After: int(s.n), AfterAt: s.nAt}, true
	case s.n != 0 && n < s.n:
		problem = &ErrOutOfOrder{Offset: off, Kind: kindRecord, Seq: int(n), After: int(s.n), AfterAt: s.nAt, Kept: true}
	}
	s.seen.add(n)
	s.n, s.nAt = n, off
	return problem, false
}

// continues reports whether a record numbered n, read right after a header
// in the middle of a file, goes on from the records before that header: the
// header was copied there, as the first record of a flight recorder's next
// file is numbered 1.
func (s *sequence) continues(n int64) bool { return n > 1 && n > s.n }

// moveQueue notes a queue event kept although its number is lower than the
// one before it (it was moved, not copied): the events after it follow it.
func (s *sequence) moveQueue(n int, off int64) { s.queue, s.queueAt = n, off }

// numberSet is a set of record numbers as sorted, disjoint ranges [lo, hi]:
// records are numbered as they are written, so a file read in order is one
// range, and each record out of place adds at most one.
type numberSet struct{ ranges [][2]int64 }

func (s *numberSet) has(n int64) bool {
	i, _ := slices.BinarySearchFunc(s.ranges, n, func(r [2]int64, n int64) int { return cmp.Compare(r[1], n) })
	return i < len(s.ranges) && s.ranges[i][0] <= n
}

func (s *numberSet) add(n int64) {
	// The first range that ends at n-1 or later: n extends it, or goes
	// before it.
	i, _ := slices.BinarySearchFunc(s.ranges, n-1, func(r [2]int64, n int64) int { return cmp.Compare(r[1], n) })
	switch {
	case i == len(s.ranges) || n < s.ranges[i][0]-1:
		s.ranges = slices.Insert(s.ranges, i, [2]int64{n, n})
	case n < s.ranges[i][0]:
		s.ranges[i][0] = n
	case n > s.ranges[i][1]: // n == hi+1
		s.ranges[i][1] = n
		if i+1 < len(s.ranges) && s.ranges[i+1][0] == n+1 {
			s.ranges[i][1] = s.ranges[i+1][1]
			s.ranges = slices.Delete(s.ranges, i+1, i+2)
		}
	}
}

// kindRecord names, in a problem, a record by its number in its file.
const kindRecord = "record"
