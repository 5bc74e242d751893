package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// zeros is an endless stream of zero bytes, like /dev/zero, that counts what
// was read from it.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

func TestNotARecordingFailsAtOnce(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"fixture YAML", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n", `not a schedscope recording: it starts with "apiVersion: v1"`},
		{"short text", "hello", `not a schedscope recording: it starts with "hello"`},
		{"JSON", `{"kind":"header"}` + "\n", `it starts with "{\"kind\":\"header\"}"`},
		{"empty", "", "recording is empty"},
		{"torn header", "01234567 {\"kind\":\"hea", "header is incomplete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewReader(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q, want one line containing %q", err, tt.want)
			}
		})
	}
}

func TestDevZeroFailsWithinBoundedInput(t *testing.T) {
	z := &zeros{}
	_, err := NewReader(z)
	var notRec *ErrNotRecording
	if !errors.As(err, &notRec) {
		t.Fatalf("error %v, want *ErrNotRecording", err)
	}
	if z.n > maxHeaderLine+512<<10 {
		t.Errorf("read %d bytes before failing, want at most a header line's limit", z.n)
	}
	if want := `it starts with "\x00\x00\x00\x00\x00\x00\x00\x00", not`; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q, want it to contain %q", err, want)
	}
}

func TestLongLinesAreCorruptWithTheirOffset(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	data := writeRecording(t, testCycle(1, nodes))
	lines := bytes.SplitAfter(data, []byte("\n"))
	long := checksumLine([]byte(`{"kind":"observed","observed":{"pod":{"namespace":"x","name":"` + strings.Repeat("y", 5000) + `"}}}`))
	var in []byte
	in = append(in, lines[0]...)
	in = append(in, long...)
	in = append(in, lines[1]...)
	in = append(in, lines[2]...)
	rd, err := newReader(bytes.NewReader(in), limits{header: 4096, record: 4096})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rec, err := range rd.All() {
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		got = append(got, fmt.Sprintf("%s at %d", rec.Kind, rec.Offset))
	}
	want := []string{
		fmt.Sprintf("corrupt record at byte %d (line 2): record is longer than 4096 bytes", len(lines[0])),
		fmt.Sprintf("nodeSet at %d", len(lines[0])+len(long)),
		fmt.Sprintf("cycle at %d", len(lines[0])+len(long)+len(lines[1])),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// runsBomb is a small hand-made recording whose one cycle claims a million
// values in each of many runs-form lists.
func runsBomb(nodeSet bool) []byte {
	var b bytes.Buffer
	b.WriteString(checksumLine([]byte(`{"kind":"header","header":{"format":"schedscope-recording","schemaVersion":1}}`)))
	at := b.Len()
	if nodeSet {
		b.WriteString(checksumLine([]byte(`{"kind":"nodeSet","nodeSet":{"id":1,"names":["a","b","c","d"]}}`)))
	}
	var plugins []string
	for i := 0; i < 700; i++ {
		plugins = append(plugins, fmt.Sprintf(`{"name":"P%d","weight":1,"raw":{"runs":[[0,0,1048576]]},"normalized":{"runs":[[0,0,1048576]]}}`, i))
	}
	b.WriteString(checksumLine([]byte(fmt.Sprintf(`{"kind":"cycle","cycle":{"seq":1,"nodeSet":1,"score":{"nodes":[0],"plugins":[%s],"totals":[1]}},"nodeSetAt":%d}`, strings.Join(plugins, ","), at))))
	b.WriteString(checksumLine([]byte(`{"kind":"cycle","cycle":{"seq":2,"nodeSet":1,"filter":{"plugins":["X"],"feasible":{"runs":[[0,1,4]]},"evaluated":4}},"nodeSetAt":` + fmt.Sprint(at) + `}`)))
	return b.Bytes()
}

func TestRunsBombIsCorruptNotExpanded(t *testing.T) {
	for _, withSet := range []bool{true, false} {
		t.Run(fmt.Sprintf("node set %v", withSet), func(t *testing.T) {
			data := runsBomb(withSet)
			if len(data) > 200<<10 {
				t.Fatalf("the bomb is %d bytes; it should be small", len(data))
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			rec, err := Load(bytes.NewReader(data))
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
				t.Errorf("reading %d bytes allocated %d MB", len(data), alloc>>20)
			}
			if len(rec.Cycles) != 1 || rec.Cycles[0].Seq != 2 {
				t.Fatalf("kept %d cycles, want only cycle 2", len(rec.Cycles))
			}
			var corrupt *ErrCorrupt
			if len(rec.Problems) == 0 || !errors.As(rec.Problems[0], &corrupt) {
				t.Fatalf("problems %v, want the bomb reported as corrupt", rec.Problems)
			}
			bombAt := bytes.Index(data, []byte(`{"kind":"cycle"`)) - 9
			if corrupt.Offset != int64(bombAt) || !strings.Contains(corrupt.Reason, "runs expand to more than") {
				t.Errorf("corrupt %v, want offset %d and the expansion named", corrupt, bombAt)
			}
		})
	}
}

func TestDamagedHeaderStillYieldsCycles(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	data := writeRecording(t, testCycle(1, nodes), testCycle(2, nodes))
	headerLen := bytes.IndexByte(data, '\n') + 1
	tests := []struct {
		name   string
		damage func([]byte) []byte
		want   string
	}{
		{"flipped byte in the JSON", func(d []byte) []byte { d[40] ^= 0x20; return d }, "header: checksum mismatch"},
		{"checksum digits damaged", func(d []byte) []byte { d[2] = 'x'; return d }, "header is not a checksum-framed record"},
		{"header line lost", func(d []byte) []byte { return d[headerLen:] }, `the first record is a "nodeSet" record, not the header`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := Load(bytes.NewReader(tt.damage(bytes.Clone(data))))
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Header.Unreadable || rec.Header.KubernetesVersion != "" {
				t.Errorf("header %+v, want it marked unreadable", rec.Header)
			}
			var seqs []int
			for _, c := range rec.Cycles {
				seqs = append(seqs, c.Seq)
				if c.NodeName(1) != "b" {
					t.Errorf("cycle %d lost its node names", c.Seq)
				}
			}
			if diff := cmp.Diff([]int{1, 2}, seqs); diff != "" {
				t.Errorf("cycles (-want +got):\n%s", diff)
			}
			var corrupt *ErrCorrupt
			if len(rec.Problems) != 1 || !errors.As(rec.Problems[0], &corrupt) || corrupt.Offset != 0 || !strings.Contains(corrupt.Reason, tt.want) {
				t.Fatalf("problems %v, want one corrupt header at byte 0 saying %q", rec.Problems, tt.want)
			}
		})
	}
}

func TestDamagedNodeSetReportedPerCycle(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	data := writeRecording(t, testCycle(1, nodes), testCycle(2, nodes), testCycle(3, nodes))
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[1][20] ^= 0x01 // the node set
	damaged := bytes.Join(lines, nil)
	setAt := len(lines[0])

	rec, err := Load(bytes.NewReader(damaged))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Cycles) != 3 {
		t.Fatalf("kept %d cycles, want all 3", len(rec.Cycles))
	}
	var got []string
	for _, p := range rec.Problems {
		var missing *ErrMissingNodeSet
		var corrupt *ErrCorrupt
		switch {
		case errors.As(p, &missing):
			got = append(got, fmt.Sprintf("cycle %d set %d: %s", missing.Seq, missing.ID, missing.Reason))
		case errors.As(p, &corrupt):
			got = append(got, fmt.Sprintf("corrupt at %d", corrupt.Offset))
		default:
			got = append(got, p.Error())
		}
	}
	reason := fmt.Sprintf("its record at byte %d is damaged: checksum mismatch", setAt)
	want := []string{
		fmt.Sprintf("corrupt at %d", setAt),
		"cycle 1 set 1: " + reason, "cycle 2 set 1: " + reason, "cycle 3 set 1: " + reason,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if rec.Cycles[0].Nodes != nil || rec.Cycles[0].NodeName(0) != "#0" {
		t.Errorf("cycle 1 has nodes %+v, want none", rec.Cycles[0].Nodes)
	}

	// The random-access reader says the same about the same cycle.
	path := filepath.Join(t.TempDir(), "damaged.rec")
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	rf, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	c, err := rf.Seek(2)
	var missing *ErrMissingNodeSet
	if c == nil || c.Seq != 2 || !errors.As(err, &missing) || missing.Seq != 2 || missing.ID != 1 {
		t.Fatalf("Seek(2) = %v, %v; want cycle 2 and its missing node set", c, err)
	}
	if strings.Contains(err.Error(), "line 0") {
		t.Errorf("error %q names line 0", err)
	}
}

func TestDuplicatesReported(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	data := writeRecording(t, testCycle(1, nodes), testCycle(2, nodes))
	lines := bytes.SplitAfter(data, []byte("\n"))
	// header, node set 1, cycle 1, cycle 2, node set 1 again, cycle 2 again.
	in := bytes.Join([][]byte{lines[0], lines[1], lines[2], lines[3], lines[1], lines[3]}, nil)
	rec, err := Load(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range rec.Problems {
		got = append(got, p.Error())
	}
	setAt, cycle2At := len(lines[0]), len(lines[0])+len(lines[1])+len(lines[2])
	end := cycle2At + len(lines[3])
	want := []string{
		fmt.Sprintf("node set 1 appears again at byte %d (first at byte %d)", end, setAt),
		fmt.Sprintf("cycle 2 appears again at byte %d (first at byte %d)", end+len(lines[1]), cycle2At),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if len(rec.Cycles) != 2 {
		t.Errorf("kept %d cycles, want 2: the repeat is skipped", len(rec.Cycles))
	}
}

func TestRotatedStreamIsNotDuplicate(t *testing.T) {
	// A flight recorder followed across rotation: the next file's header and
	// node set follow the first file's records.
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	first := writeRecording(t, testCycle(1, nodes))
	second := writeRecording(t, testCycle(2, nodes))
	rec, err := Load(io.MultiReader(bytes.NewReader(first), bytes.NewReader(second)))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Problems) != 0 || len(rec.Cycles) != 2 || rec.Cycles[1].NodeName(1) != "b" {
		t.Errorf("problems %v, %d cycles", rec.Problems, len(rec.Cycles))
	}
}

func TestEmptyCycleBody(t *testing.T) {
	data := checksumLine([]byte(`{"kind":"header","header":{"format":"schedscope-recording","schemaVersion":1}}`)) +
		checksumLine([]byte(`{"kind":"cycle","cycle":{}}`)) +
		checksumLine([]byte(`{"kind":"cycle","cycle":{"seq":3,"filter":{},"score":{"plugins":[{}]},"selection":{}}}`))
	// The empty body decodes without panicking, and is corrupt: it has no seq.
	rec, err := Load(strings.NewReader(data))
	if err != nil || len(rec.Problems) != 1 || !strings.Contains(rec.Problems[0].Error(), "seq is 0") || len(rec.Cycles) != 1 {
		t.Fatalf("Load: %v, problems %v, %d cycles", err, rec.Problems, len(rec.Cycles))
	}
	path := filepath.Join(t.TempDir(), "empty.rec")
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	rf, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	if c, err := rf.Seek(3); err != nil || c.Seq != 3 {
		t.Errorf("Seek(3) = %v, %v", c, err)
	}
	if c, err := rf.Seek(0); c != nil || err == nil {
		t.Errorf("Seek(0) = %v, %v; want the corrupt cycle refused", c, err)
	}
}
