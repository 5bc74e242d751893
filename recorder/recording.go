package recorder

import (
	"fmt"
	"io"
	"os"
)

// Recording is a whole recording loaded in memory.
type Recording struct {
	Header Header
	Cycles []*Cycle
	// Observed lists bindings seen on a live cluster, in recording order.
	Observed []*Observed
	// Queue lists the scheduling queue's events, in recording order (none
	// in a version 1 recording).
	Queue []*QueueEvent
	// PodGroups lists the pod-group cycles, in recording order (none in a
	// recording made before they were recorded, or without pod groups).
	PodGroups []*PodGroupCycle
	// Problems lists what was wrong with the recording, in file order: a
	// damaged header, torn or corrupt records that were skipped, cycles whose
	// node set is missing, duplicates (see IsProblem).
	Problems []error
}

// Load reads every record from r. Damaged records are skipped and listed in
// Problems; only a file that is not a recording, of another version, or that
// cannot be read is an error.
func Load(r io.Reader) (*Recording, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	rec := &Recording{Header: rd.Header()}
	for record, err := range rd.All() {
		if err != nil {
			if IsProblem(err) {
				rec.Problems = append(rec.Problems, err)
				continue
			}
			return rec, err
		}
		if record.Cycle != nil {
			rec.Cycles = append(rec.Cycles, record.Cycle)
		}
		if record.Observed != nil {
			rec.Observed = append(rec.Observed, record.Observed)
		}
		if record.Queue != nil {
			rec.Queue = append(rec.Queue, record.Queue)
		}
		if record.PodGroup != nil {
			rec.PodGroups = append(rec.PodGroups, record.PodGroup)
		}
	}
	return rec, nil
}

// LoadFile reads a recording file; errors name the file.
func LoadFile(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}
