package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sequencedLines writes a recording as the engine's writer would (queue
// events 1 and 2, cycle 1 with node set 1, queue event 3, cycle 2, queue
// event 4) and returns its lines by name.
func sequencedLines(t *testing.T, created time.Time) map[string][]byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{SchedscopeVersion: "test", Created: created})
	if err != nil {
		t.Fatal(err)
	}
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	queue := func(seq int) *QueueEvent {
		return &QueueEvent{Seq: seq, Time: created.Add(time.Duration(seq) * time.Second), Pod: PodRef{Namespace: "default", Name: "web"}, Op: QueueMove, To: QueueActive}
	}
	for _, write := range []func() error{
		func() error { return w.WriteQueue(queue(1)) },
		func() error { return w.WriteQueue(queue(2)) },
		func() error { return w.WriteCycle(testCycle(1, nodes)) },
		func() error { return w.WriteQueue(queue(3)) },
		func() error { return w.WriteCycle(testCycle(2, nodes)) },
		func() error { return w.WriteQueue(queue(4)) },
	} {
		if err := write(); err != nil {
			t.Fatal(err)
		}
	}
	lines := bytes.SplitAfter(buf.Bytes(), []byte("\n"))
	names := []string{"header", "q1", "q2", "set1", "c1", "q3", "c2", "q4"}
	out := map[string][]byte{}
	for i, name := range names {
		out[name] = lines[i]
	}
	return out
}

// writtenInOrder writes the records names names (q1…q4, c1, c2; the header
// and node set 1 are written by the writer itself) in that order with one
// Writer, as a run whose records ended in that order is written, and
// returns its lines by name.
func writtenInOrder(t *testing.T, created time.Time, names []string) map[string][]byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{SchedscopeVersion: "test", Created: created})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	last := 0
	take := func(name string) {
		out[name] = slices.Clone(buf.Bytes()[last:])
		last = buf.Len()
	}
	take("header")
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	for _, name := range names {
		var err error
		switch {
		case name == "header" || name == "set1":
			continue
		case strings.HasPrefix(name, "q"):
			seq, _ := strconv.Atoi(name[1:])
			err = w.WriteQueue(&QueueEvent{Seq: seq, Time: created.Add(time.Duration(seq) * time.Second), Pod: PodRef{Namespace: "default", Name: "web"}, Op: QueueMove, To: QueueActive})
		case strings.HasPrefix(name, "c"):
			seq, _ := strconv.Atoi(name[1:])
			before := buf.Len()
			err = w.WriteCycle(testCycle(seq, nodes))
			if lines := bytes.SplitAfter(buf.Bytes()[before:], []byte("\n")); len(lines) > 2 {
				out["set1"] = slices.Clone(lines[0])
				last += len(lines[0])
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		take(name)
	}
	return out
}

// offsetRef is a line's offset in a wanted problem: @3 is the offset of the
// input's fourth line.
var offsetRef = regexp.MustCompile(`@(\d+)`)

// TestRecordsOutOfPlace: a record whose number repeats (a copy) is reported
// with its offset and skipped by both readers, which read on; a record
// whose number goes back without repeating (moved) is reported and kept;
// cycles out of sequence order, gaps and a flight recorder's next file are
// not problems.
func TestRecordsOutOfPlace(t *testing.T) {
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	run := sequencedLines(t, created)
	other := sequencedLines(t, created.Add(time.Hour)) // another run's recording

	type kept struct {
		NodeSets int
		Cycles   []int
		Queue    []int
	}
	tests := []struct {
		name string
		// lines names the lines of run, or, after "2:", of other.
		lines []string
		// written: the lines are written in this order by one Writer (as
		// the writer numbers them), not cut from run.
		written bool
		want    kept
		// wantProblems refer to line offsets as @N (N counts from 0).
		wantProblems []string
	}{
		{
			name:  "as written",
			lines: []string{"header", "q1", "q2", "set1", "c1", "q3", "c2", "q4"},
			want:  kept{1, []int{1, 2}, []int{1, 2, 3, 4}},
		},
		{
			name:    "cycles out of sequence order, as bindings and held preemptions end them",
			lines:   []string{"header", "q1", "q2", "set1", "c2", "q3", "c1", "q4"},
			written: true,
			want:    kept{1, []int{2, 1}, []int{1, 2, 3, 4}},
		},
		{
			name:  "two cycle lines swapped",
			lines: []string{"header", "q1", "q2", "set1", "c2", "q3", "c1", "q4"},
			want:  kept{1, []int{2, 1}, []int{1, 2, 3, 4}},
			wantProblems: []string{
				"record 5 at byte @5 is out of order: it comes after record 6 (at byte @4); it was moved, not copied, and is kept",
				"record 4 at byte @6 is out of order: it comes after record 5 (at byte @5); it was moved, not copied, and is kept",
			},
		},
		{
			name:  "gaps left by dropped records",
			lines: []string{"header", "q1", "set1", "c2", "q4"},
			want:  kept{1, []int{2}, []int{1, 4}},
		},
		{
			name:    "a flight recorder's file read alone starts mid-sequence",
			lines:   []string{"header", "q3", "set1", "c2", "q4"},
			written: true,
			want:    kept{1, []int{2}, []int{3, 4}},
		},
		{
			name:  "a flight recorder's next file goes on numbering",
			lines: []string{"header", "q1", "q2", "set1", "c1", "header", "set1", "q3", "c2", "q4"},
			want:  kept{2, []int{1, 2}, []int{1, 2, 3, 4}},
		},
		{
			name:  "another recording after the first numbers anew",
			lines: []string{"header", "q1", "q2", "set1", "c1", "2:header", "2:q1", "2:set1", "2:c1"},
			want:  kept{2, []int{1, 1}, []int{1, 2, 1}},
		},
		{
			name:  "another recording right after an empty one (its header alone)",
			lines: []string{"header", "2:header", "2:q1", "2:set1", "2:c1"},
			want:  kept{1, []int{1}, []int{1}},
		},
		{
			name:         "swapped queue lines",
			lines:        []string{"header", "q2", "q1", "set1", "c1", "q3", "c2", "q4"},
			want:         kept{1, []int{1, 2}, []int{2, 1, 3, 4}},
			wantProblems: []string{"queue event 1 at byte @2 is out of order: it comes after queue event 2 (at byte @1); it was moved, not copied, and is kept"},
		},
		{
			name:         "a queue line moved down past others",
			lines:        []string{"header", "q1", "set1", "c1", "q3", "q2", "c2", "q4"},
			want:         kept{1, []int{1, 2}, []int{1, 3, 2, 4}},
			wantProblems: []string{"queue event 2 at byte @5 is out of order: it comes after queue event 3 (at byte @4); it was moved, not copied, and is kept"},
		},
		{
			name:         "a duplicated queue record",
			lines:        []string{"header", "q1", "q2", "q2", "set1", "c1", "q3", "c2", "q4"},
			want:         kept{1, []int{1, 2}, []int{1, 2, 3, 4}},
			wantProblems: []string{"queue event 2 appears again at byte @3 (first at byte @2)"},
		},
		{
			name:         "a queue record copied further on",
			lines:        []string{"header", "q1", "q2", "set1", "c1", "q3", "c2", "q4", "q2"},
			want:         kept{1, []int{1, 2}, []int{1, 2, 3, 4}},
			wantProblems: []string{"queue event 2 at byte @8 is out of order: it comes after queue event 4 (at byte @7)"},
		},
		{
			name:         "a duplicated cycle",
			lines:        []string{"header", "q1", "q2", "set1", "c1", "q3", "c2", "c1", "q4"},
			want:         kept{1, []int{1, 2}, []int{1, 2, 3, 4}},
			wantProblems: []string{"cycle 1 appears again at byte @7 (first at byte @4)"},
		},
		{
			name:         "a duplicated node set",
			lines:        []string{"header", "q1", "q2", "set1", "c1", "set1", "q3", "c2", "q4"},
			want:         kept{1, []int{1, 2}, []int{1, 2, 3, 4}},
			wantProblems: []string{"node set 1 appears again at byte @5 (first at byte @3)"},
		},
		{
			name:  "a cycle repeated across a flight recorder's files",
			lines: []string{"header", "set1", "c1", "c2", "header", "set1", "c2", "q4"},
			want:  kept{2, []int{1, 2}, []int{4}},
			wantProblems: []string{
				"cycle 2 appears again at byte @6 (first at byte @3)",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in []byte
			var at []int64
			lines := run
			if tt.written {
				lines = writtenInOrder(t, created, tt.lines)
			}
			for _, name := range tt.lines {
				line := lines[name]
				if n, ok := strings.CutPrefix(name, "2:"); ok {
					line = other[n]
				}
				at = append(at, int64(len(in)))
				in = append(in, line...)
			}
			var wantProblems []string
			for _, p := range tt.wantProblems {
				wantProblems = append(wantProblems, offsetRef.ReplaceAllStringFunc(p, func(ref string) string {
					i, _ := strconv.Atoi(ref[1:])
					return strconv.FormatInt(at[i], 10)
				}))
			}
			for _, reader := range []struct {
				name string
				open func(io.Reader) (*Reader, error)
			}{{"Reader", NewReader}, {"index reader", NewIndexReader}} {
				rd, err := reader.open(bytes.NewReader(in))
				if err != nil {
					t.Fatal(err)
				}
				var got kept
				var problems []string
				for rec, err := range rd.All() {
					switch {
					case err != nil:
						if !IsProblem(err) {
							t.Fatalf("%s: %v", reader.name, err)
						}
						checkProblem(t, err, int64(len(in)))
						problems = append(problems, err.Error())
					case rec.Kind == KindNodeSet:
						got.NodeSets++
					case rec.Cycle != nil:
						got.Cycles = append(got.Cycles, rec.Cycle.Seq)
					case rec.Entry != nil:
						got.Cycles = append(got.Cycles, rec.Entry.Seq)
					case rec.Queue != nil:
						got.Queue = append(got.Queue, rec.Queue.Seq)
					}
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("%s: records kept (-want +got):\n%s", reader.name, diff)
				}
				if diff := cmp.Diff(wantProblems, problems); diff != "" {
					t.Errorf("%s: problems (-want +got):\n%s", reader.name, diff)
				}
			}
		})
	}
}

func TestOutOfPlaceProblems(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"duplicate queue event", &ErrDuplicate{Offset: 90, Kind: KindQueue, ID: 7, First: 40}, "queue event 7 appears again at byte 90 (first at byte 40)"},
		{"queue event out of order", &ErrOutOfOrder{Offset: 90, Kind: KindQueue, Seq: 5, After: 7, AfterAt: 40}, "queue event 5 at byte 90 is out of order: it comes after queue event 7 (at byte 40)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			wrapped := errors.Join(errors.New("x.rec"), tt.err)
			if !IsProblem(wrapped) || problemOffset(wrapped) != 90 {
				t.Errorf("IsProblem %v, offset %d; want a problem at byte 90", IsProblem(wrapped), problemOffset(wrapped))
			}
		})
	}
}

// TestLinesOutOfPlaceKeepEveryCycle: in a recording of 50 cycles, two cycle
// lines swapped, near or far apart, or the header copied into the middle
// or repeated right after itself, lose no cycle in either reader; each is
// reported, the header by its byte and line.
func TestLinesOutOfPlaceKeepEveryCycle(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	var cycles []*Cycle
	for seq := 1; seq <= 50; seq++ {
		cycles = append(cycles, testCycle(seq, nodes))
	}
	lines := bytes.SplitAfter(writeRecording(t, cycles...), []byte("\n"))
	lines = lines[:len(lines)-1] // after the last newline
	// lines: the header, node set 1, cycles 1 to 50 (cycle s on line s+1);
	// the record on line i is numbered i.
	swap := func(i, j int) [][]byte {
		out := slices.Clone(lines)
		out[i], out[j] = out[j], out[i]
		return out
	}
	offsetOf := func(in [][]byte, i int) int {
		return len(bytes.Join(in[:i], nil))
	}
	headerCopied := slices.Insert(slices.Clone(lines), 27, lines[0])
	headerRepeated := slices.Insert(slices.Clone(lines), 1, lines[0])
	headerCopiedTwice := slices.Insert(slices.Clone(lines), 27, lines[0], lines[0])
	tests := []struct {
		name  string
		lines [][]byte
		want  []string
	}{
		{"two neighbouring cycle lines swapped", swap(12, 13), []string{
			fmt.Sprintf("record 12 at byte %d is out of order: it comes after record 13 (at byte %d); it was moved, not copied, and is kept", offsetOf(swap(12, 13), 13), offsetOf(swap(12, 13), 12)),
		}},
		{"two cycle lines far apart swapped", swap(10, 40), []string{
			fmt.Sprintf("record 11 at byte %d is out of order: it comes after record 40 (at byte %d); it was moved, not copied, and is kept", offsetOf(swap(10, 40), 11), offsetOf(swap(10, 40), 10)),
			fmt.Sprintf("record 10 at byte %d is out of order: it comes after record 39 (at byte %d); it was moved, not copied, and is kept", offsetOf(swap(10, 40), 40), offsetOf(swap(10, 40), 39)),
		}},
		{"the header copied into the middle", headerCopied, []string{
			fmt.Sprintf("corrupt record at byte %d (line 28): a header in the middle of the recording, followed by record 27, which goes on from record 26 before it: the header was copied there, it does not start a next file", offsetOf(headerCopied, 27)),
		}},
		{"the header repeated right after it", headerRepeated, []string{
			fmt.Sprintf("corrupt record at byte %d (line 2): the header at byte 0 again, right after it: a copy (a flight recorder's next file has a record after its header)", offsetOf(headerRepeated, 1)),
		}},
		{"the header copied twice into the middle", headerCopiedTwice, []string{
			fmt.Sprintf("corrupt record at byte %d (line 29): the header at byte %d again, right after it: a copy (a flight recorder's next file has a record after its header)", offsetOf(headerCopiedTwice, 28), offsetOf(headerCopiedTwice, 27)),
			fmt.Sprintf("corrupt record at byte %d (line 28): a header in the middle of the recording, followed by record 27, which goes on from record 26 before it: the header was copied there, it does not start a next file", offsetOf(headerCopiedTwice, 27)),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := bytes.Join(tt.lines, nil)
			for _, reader := range []struct {
				name string
				open func(io.Reader) (*Reader, error)
			}{{"Reader", NewReader}, {"index reader", NewIndexReader}} {
				rd, err := reader.open(bytes.NewReader(in))
				if err != nil {
					t.Fatal(err)
				}
				var seqs, problems []string
				for rec, err := range rd.All() {
					switch {
					case err != nil:
						if !IsProblem(err) {
							t.Fatalf("%s: %v", reader.name, err)
						}
						checkProblem(t, err, int64(len(in)))
						problems = append(problems, err.Error())
					case rec.Kind == KindHeader:
						t.Errorf("%s: a header at byte %d read as a flight recorder's next file", reader.name, rec.Offset)
					case rec.Cycle != nil:
						seqs = append(seqs, strconv.Itoa(rec.Cycle.Seq))
					case rec.Entry != nil:
						seqs = append(seqs, strconv.Itoa(rec.Entry.Seq))
					}
				}
				slices.SortFunc(seqs, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
				var want []string
				for seq := 1; seq <= 50; seq++ {
					want = append(want, strconv.Itoa(seq))
				}
				if diff := cmp.Diff(want, seqs); diff != "" {
					t.Errorf("%s: cycles read (-want +got):\n%s", reader.name, diff)
				}
				if diff := cmp.Diff(tt.want, problems); diff != "" {
					t.Errorf("%s: problems (-want +got):\n%s", reader.name, diff)
				}
			}
		})
	}
}
