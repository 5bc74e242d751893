package recorder

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Summary is what a headless check of a recording found.
type Summary struct {
	Header Header
	// Records counts intact records, the header, repeated or out-of-order
	// records and records of unknown kinds included.
	Records int
	// NodeSets and Cycles count distinct IDs and sequence numbers; the
	// repeats, which readers skip, are counted in DuplicateNodeSets and
	// DuplicateCycles (and listed in Problems).
	NodeSets, DuplicateNodeSets int
	Cycles, DuplicateCycles     int
	Observed                    int
	// PodGroups counts pod-group cycles (KindPodGroup).
	PodGroups int
	// Queue counts scheduling queue events; DuplicateQueue the events that
	// repeat the one before them and OutOfOrderQueue those numbered lower,
	// which readers skip (and Problems lists).
	Queue, DuplicateQueue, OutOfOrderQueue int
	// OutOfPlace counts the records whose number in their file repeats or
	// goes back (moved, copied or spliced in) while their kind's own
	// numbers do not say so, such as two cycles swapped; readers skip them.
	OutOfPlace int
	// Unknown counts records of kinds this build does not know, by kind:
	// written by a newer schedscope, they are skipped, not problems.
	Unknown map[string]int
	// Cluster says the recording holds what a fixture run's controllers
	// left (KindCluster).
	Cluster bool
	// Ended says the recording ends with its writer's end record
	// (KindEnd): nothing was cut from its end.
	Ended bool
	// Problems lists what is wrong, in file order (see IsProblem).
	Problems []error
}

// Verify reads a whole recording without keeping its cycles, counting its
// records and collecting its problems. Its error is for a file that is not
// a recording or cannot be read, as NewReader's.
func Verify(r io.Reader) (*Summary, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	s := &Summary{Header: rd.Header()}
	if !s.Header.Unreadable {
		s.Records++
	}
	for rec, err := range rd.All() {
		if err != nil {
			if !IsProblem(err) {
				s.Unknown = rd.Skipped()
				return s, err
			}
			s.Problems = append(s.Problems, err)
			var dup *ErrDuplicate
			var order *ErrOutOfOrder
			switch {
			case errors.As(err, &dup):
				s.Records++
				switch dup.Kind {
				case KindCycle:
					s.DuplicateCycles++
				case KindNodeSet:
					s.DuplicateNodeSets++
				case KindQueue:
					s.DuplicateQueue++
				case kindRecord:
					s.OutOfPlace++
				}
			case errors.As(err, &order):
				if !order.Kept { // a record kept is counted as it is read
					s.Records++
				}
				if order.Kind == KindQueue {
					s.OutOfOrderQueue++
				} else {
					s.OutOfPlace++
				}
			}
			continue
		}
		s.Records++
		if s.Ended {
			// Appended by another writer, or spliced in.
			s.Problems = append(s.Problems, fmt.Errorf("the %s record at byte %d comes after the recording's end record", rec.Kind, rec.Offset))
			s.Ended = false
		}
		switch rec.Kind {
		case KindEnd:
			s.Ended = true
		case KindNodeSet:
			s.NodeSets++
		case KindCycle:
			s.Cycles++
		case KindObserved:
			s.Observed++
		case KindQueue:
			s.Queue++
		case KindCluster:
			s.Cluster = true
		case KindPodGroup:
			s.PodGroups++
		}
	}
	s.Unknown = rd.Skipped()
	for _, n := range s.Unknown {
		s.Records += n
	}
	return s, nil
}

// VerifyFile verifies the recording at path; errors name the file.
func VerifyFile(path string) (*Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, not a recording", path)
	}
	s, err := Verify(f)
	if err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}
