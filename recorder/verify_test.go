package recorder

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestVerify(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	clean := writeRecording(t, testCycle(1, nodes), testCycle(2, nodes), testCycle(3, nodes))
	lines := bytes.SplitAfter(clean, []byte("\n"))
	damaged := bytes.Clone(clean)
	damaged[len(lines[0])+len(lines[1])+30] ^= 1 // inside cycle 1

	// cycle 2 again, its node set again, and a record of a kind from a newer writer.
	repeated := string(clean) + string(lines[3]) + string(lines[1]) + checksumLine([]byte(`{"kind":"bogus","bogus":{}}`))

	// queue events 1, 3, 2 (moved), 4 and 4 again.
	q := sequencedLines(t, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var queued []byte
	var at []int
	for _, name := range []string{"header", "q1", "q3", "q2", "q4", "q4"} {
		at = append(at, len(queued))
		queued = append(queued, q[name]...)
	}

	// cycles 1 and 2 swapped: their own numbers allow it, the records' do not.
	var swapped []byte
	var swappedAt []int
	for _, name := range []string{"header", "q1", "q2", "set1", "c2", "q3", "c1", "q4"} {
		swappedAt = append(swappedAt, len(swapped))
		swapped = append(swapped, q[name]...)
	}

	type counts struct {
		Records, NodeSets, DuplicateNodeSets, Cycles, DuplicateCycles, Observed int
		Queue, DuplicateQueue, OutOfOrderQueue, OutOfPlace                      int
		Unknown                                                                 map[string]int
	}
	tests := []struct {
		name         string
		in           []byte
		want         counts
		wantProblems []string
	}{
		{"clean", clean, counts{Records: 5, NodeSets: 1, Cycles: 3, Unknown: map[string]int{}}, nil},
		{"repeated and unknown records", []byte(repeated), counts{Records: 8, NodeSets: 1, DuplicateNodeSets: 1, Cycles: 3, DuplicateCycles: 1, Unknown: map[string]int{"bogus": 1}}, []string{
			fmt.Sprintf("cycle 2 appears again at byte %d (first at byte %d)", len(clean), len(lines[0])+len(lines[1])+len(lines[2])),
			fmt.Sprintf("node set 1 appears again at byte %d (first at byte %d)", len(clean)+len(lines[3]), len(lines[0])),
		}},
		{"queue events out of order and repeated", queued, counts{Records: 6, Queue: 4, DuplicateQueue: 1, OutOfOrderQueue: 1, Unknown: map[string]int{}}, []string{
			fmt.Sprintf("queue event 2 at byte %d is out of order: it comes after queue event 3 (at byte %d); it was moved, not copied, and is kept", at[3], at[2]),
			fmt.Sprintf("queue event 4 appears again at byte %d (first at byte %d)", at[5], at[4]),
		}},
		{"two cycle lines swapped", swapped, counts{Records: 8, NodeSets: 1, Cycles: 2, Queue: 4, OutOfPlace: 2, Unknown: map[string]int{}}, []string{
			fmt.Sprintf("record 5 at byte %d is out of order: it comes after record 6 (at byte %d); it was moved, not copied, and is kept", swappedAt[5], swappedAt[4]),
			fmt.Sprintf("record 4 at byte %d is out of order: it comes after record 5 (at byte %d); it was moved, not copied, and is kept", swappedAt[6], swappedAt[5]),
		}},
		{"damaged cycle and torn tail", damaged[:len(damaged)-10], counts{Records: 3, NodeSets: 1, Cycles: 1, Unknown: map[string]int{}}, []string{
			fmt.Sprintf("corrupt record at byte %d (line 3): checksum mismatch", len(lines[0])+len(lines[1])),
			fmt.Sprintf("recording ends with a torn record at byte %d (kept everything before it)", len(clean)-len(lines[4])),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Verify(bytes.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, counts{s.Records, s.NodeSets, s.DuplicateNodeSets, s.Cycles, s.DuplicateCycles, s.Observed, s.Queue, s.DuplicateQueue, s.OutOfOrderQueue, s.OutOfPlace, s.Unknown}); diff != "" {
				t.Errorf("counts (-want +got):\n%s", diff)
			}
			var got []string
			for _, p := range s.Problems {
				got = append(got, p.Error())
			}
			if diff := cmp.Diff(tt.wantProblems, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
