package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func testCycle(seq int, nodes *NodeSet) *Cycle {
	return &Cycle{
		Seq: seq, Pod: PodRef{Namespace: "default", Name: "web"}, Profile: "default-scheduler", Attempt: 1,
		Start: time.Date(2026, 1, 1, 0, 0, seq, 0, time.UTC), Nodes: nodes,
		Filter: &FilterPhase{Plugins: []string{"NodeResourcesFit"}, Feasible: []int{0},
			Rejected: []NodeStatus{{Node: 1, Plugin: 0, Code: CodeUnschedulable, Reasons: []string{"Insufficient cpu"}}}, Evaluated: 2},
		Score:   &ScorePhase{Nodes: []int{0}, Plugins: []ScorePlugin{{Name: "NodeResourcesFit", Weight: 1, Raw: []int64{42}}}, Totals: []int64{42}},
		Outcome: Outcome{Result: ResultBound, Node: "a"},
	}
}

func writeRecording(t testing.TB, cycles ...*Cycle) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{SchedscopeVersion: "test", KubernetesVersion: "v1.37.1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cycles {
		if err := w.WriteCycle(c); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	want := []*Cycle{testCycle(1, nodes), testCycle(2, nodes)}
	data := writeRecording(t, want...)
	if got := strings.Count(string(data), `"kind":"nodeSet"`); got != 1 {
		t.Errorf("node set written %d times, want once", got)
	}
	rec, err := Load(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Problems) != 0 {
		t.Fatalf("problems: %v", rec.Problems)
	}
	if rec.Header.Format != FormatName || rec.Header.SchemaVersion != SchemaVersion || rec.Header.KubernetesVersion != "v1.37.1" {
		t.Errorf("header %+v", rec.Header)
	}
	if diff := cmp.Diff(want, rec.Cycles, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
}

func TestTornTail(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	data := writeRecording(t, testCycle(1, nodes), testCycle(2, nodes))
	torn := data[:len(data)-20] // cut inside the last record
	rd, err := NewReader(bytes.NewReader(torn))
	if err != nil {
		t.Fatal(err)
	}
	var cycles int
	var tornErr *ErrTorn
	for rec, err := range rd.All() {
		switch {
		case err == nil:
			if rec.Cycle != nil {
				cycles++
			}
		case errors.As(err, &tornErr):
		default:
			t.Fatalf("unexpected error %v", err)
		}
	}
	if cycles != 1 || tornErr == nil {
		t.Fatalf("got %d cycles and torn error %v; want the first cycle kept and the tear reported", cycles, tornErr)
	}
	if !strings.Contains(tornErr.Error(), "torn") {
		t.Errorf("message %q", tornErr)
	}
}

func TestCorruptMiddleRecordIsSkipped(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	data := writeRecording(t, testCycle(1, nodes), testCycle(2, nodes), testCycle(3, nodes))
	lines := bytes.SplitAfter(data, []byte("\n"))
	// lines: header, nodeSet, cycle 1, cycle 2, cycle 3; flip a byte inside cycle 2.
	i := bytes.Index(lines[3], []byte(`"web"`))
	lines[3][i+1] = 'X'
	offset := len(lines[0]) + len(lines[1]) + len(lines[2])
	rec, err := Load(bytes.NewReader(bytes.Join(lines, nil)))
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int
	for _, c := range rec.Cycles {
		seqs = append(seqs, c.Seq)
	}
	if diff := cmp.Diff([]int{1, 3}, seqs); diff != "" {
		t.Errorf("cycles kept (-want +got):\n%s", diff)
	}
	var corrupt *ErrCorrupt
	if len(rec.Problems) != 1 || !errors.As(rec.Problems[0], &corrupt) || corrupt.Offset != int64(offset) || corrupt.Line != 4 {
		t.Fatalf("problems %v, want one corrupt record at byte %d line 4", rec.Problems, offset)
	}
}

func TestUnknownVersionRejected(t *testing.T) {
	tests := []struct {
		name, from, to, want string
	}{
		{"newer schema", fmt.Sprintf(`"schemaVersion":%d`, SchemaVersion), `"schemaVersion":99`, "schema version 99 is not supported"},
		{"schema zero", fmt.Sprintf(`"schemaVersion":%d`, SchemaVersion), `"schemaVersion":0`, "schema version 0 is not supported"},
		{"other format", FormatName, "asciicast", `not a schedscope recording (format "asciicast")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := writeRecording(t)
			header := bytes.TrimSuffix(data, []byte("\n"))[9:]
			changed := bytes.Replace(header, []byte(tt.from), []byte(tt.to), 1)
			line := []byte(checksumLine(changed))
			_, err := NewReader(bytes.NewReader(line))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestEmptyRecording(t *testing.T) {
	if _, err := NewReader(strings.NewReader("")); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("error %v", err)
	}
}

func TestObservedRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{})
	if err != nil {
		t.Fatal(err)
	}
	want := []*Observed{
		{Pod: PodRef{Namespace: "default", Name: "web"}, Node: "b", Time: time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC), Seq: 1, Predicted: "a", TieSet: []string{"a", "b"}},
		{Pod: PodRef{Namespace: "default", Name: "api"}, Node: "c", Time: time.Date(2026, 1, 1, 0, 0, 2, 0, time.UTC)},
	}
	if err := w.WriteCycle(testCycle(1, &NodeSet{ID: 1, Names: []string{"a", "b"}})); err != nil {
		t.Fatal(err)
	}
	for _, o := range want {
		if err := w.WriteObserved(o); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := Load(&buf)
	if err != nil || len(rec.Problems) > 0 || len(rec.Cycles) != 1 {
		t.Fatalf("Load: %v %v, %d cycles", err, rec.Problems, len(rec.Cycles))
	}
	if diff := cmp.Diff(want, rec.Observed); diff != "" {
		t.Errorf("observed (-want +got):\n%s", diff)
	}
	agree := []bool{rec.Observed[0].Agrees(), rec.Observed[1].Agrees()}
	if diff := cmp.Diff([]bool{true, false}, agree); diff != "" {
		t.Errorf("Agrees: a tie-set member agrees, no prediction does not (-want +got):\n%s", diff)
	}
}

// FuzzReader feeds the sequential reader arbitrary bytes. It must not panic
// or loop, must keep every bound, must name every problem's offset, and
// what it reads must write and read back the same.
func FuzzReader(f *testing.F) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	f.Add(writeRecording(f, testCycle(1, nodes), testCycle(2, nodes)))
	f.Add(withQueueRecords(writeRecording(f, testCycle(1, nodes))))
	f.Fuzz(func(t *testing.T, data []byte) {
		size := int64(len(data))
		rd, err := newReader(bytes.NewReader(data), fuzzLimits)
		if err != nil {
			var notRec *ErrNotRecording
			var version *ErrVersion
			if !errors.As(err, &notRec) && !errors.As(err, &version) && !strings.Contains(err.Error(), "header is incomplete") {
				t.Fatalf("NewReader: unexpected error %v", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("NewReader error %q spans lines", err)
			}
			return
		}
		var cycles []*Cycle
		var observed []*Observed
		lastOff, duplicates := int64(-1), false
		for steps := 0; ; steps++ {
			if steps > 4*len(data)+16 {
				t.Fatalf("no end after %d calls to Next on %d bytes", steps, len(data))
			}
			rec, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				checkProblem(t, err, size)
				var dup *ErrDuplicate
				duplicates = duplicates || errors.As(err, &dup)
				continue
			}
			if rec.Offset <= lastOff || rec.Offset >= size {
				t.Fatalf("record at offset %d after one at %d, in %d bytes", rec.Offset, lastOff, size)
			}
			lastOff = rec.Offset
			switch rec.Kind {
			case KindCycle:
				if n := intsIn(rec.Cycle); n > fuzzLimits.ints+size {
					t.Fatalf("cycle at %d expanded to %d values from %d bytes", rec.Offset, n, size)
				}
				useCycle(rec.Cycle) // every index of a cycle read is in range: nothing panics
				cycles = append(cycles, rec.Cycle)
			case KindObserved:
				observed = append(observed, rec.Observed)
			}
		}
		if duplicates || sharedIDs(cycles) {
			return // a writer writes one node set per ID; the round trip would differ
		}
		var buf bytes.Buffer
		w, err := NewWriter(&buf, rd.Header())
		if err != nil {
			t.Fatalf("writing the header read back: %v", err)
		}
		for _, c := range cycles {
			if err := w.WriteCycle(c); err != nil {
				t.Fatalf("writing a cycle that was read: %v", err)
			}
		}
		for _, o := range observed {
			if err := w.WriteObserved(o); err != nil {
				t.Fatalf("writing an observed binding that was read: %v", err)
			}
		}
		again, err := Load(&buf)
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		if len(again.Cycles) != len(cycles) || len(again.Observed) != len(observed) {
			t.Fatalf("read back %d cycles and %d observed, wrote %d and %d", len(again.Cycles), len(again.Observed), len(cycles), len(observed))
		}
		for i, c := range cycles {
			if got, want := cycleJSON(t, again.Cycles[i]), cycleJSON(t, c); got != want {
				t.Fatalf("cycle %d read back differs:\n got %s\nwant %s", i, got, want)
			}
			if got, want := nodeNames(again.Cycles[i]), nodeNames(c); !slicesEqual(got, want) {
				t.Fatalf("cycle %d node names read back %q, want %q", i, got, want)
			}
		}
	})
}

// sharedIDs reports whether two different node sets of cycles share an ID.
func sharedIDs(cycles []*Cycle) bool {
	seen := map[int]*NodeSet{}
	for _, c := range cycles {
		if c.Nodes == nil {
			continue
		}
		if s, ok := seen[c.Nodes.ID]; ok && s != c.Nodes {
			return true
		}
		seen[c.Nodes.ID] = c.Nodes
	}
	return false
}

func nodeNames(c *Cycle) []string {
	if c.Nodes == nil {
		return nil
	}
	return c.Nodes.Names
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
