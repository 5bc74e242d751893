package recorder

import (
	"bytes"
	"errors"
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

func writeRecording(t *testing.T, cycles ...*Cycle) []byte {
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
		{"newer schema", `"schemaVersion":1`, `"schemaVersion":99`, "schema version 99 is not supported"},
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
