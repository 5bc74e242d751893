package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// readBoth reads data with a Reader and an index Reader, returning the cycles
// of one, the entries of the other and each one's problems.
func readBoth(t *testing.T, data []byte) (cycles []*Cycle, entries []CycleEntry, problems, indexProblems []string) {
	return readBothWithin(t, data, fuzzLimits)
}

func readBothWithin(t *testing.T, data []byte, lim limits) (cycles []*Cycle, entries []CycleEntry, problems, indexProblems []string) {
	t.Helper()
	rd, err := newReader(bytes.NewReader(data), lim)
	if err != nil {
		t.Fatal(err)
	}
	for rec, err := range rd.All() {
		switch {
		case err != nil:
			problems = append(problems, err.Error())
		case rec.Cycle != nil:
			cycles = append(cycles, rec.Cycle)
		}
	}
	ix, err := newIndexReader(bytes.NewReader(data), lim)
	if err != nil {
		t.Fatal(err)
	}
	for rec, err := range ix.All() {
		switch {
		case err != nil:
			indexProblems = append(indexProblems, err.Error())
		case rec.Cycle != nil:
			t.Fatalf("an index reader returned a whole cycle at byte %d", rec.Offset)
		case rec.Entry != nil:
			entries = append(entries, *rec.Entry)
		}
	}
	return cycles, entries, problems, indexProblems
}

// richEntryCycle fails in every phase that names plugins in an entry.
func richEntryCycle(seq int, nodes *NodeSet) *Cycle {
	c := testCycle(seq, nodes)
	c.Pod.UID = "uid-1"
	c.Duration = 1234 * time.Microsecond
	c.PreFilter = &PreFilterPhase{Code: CodeSuccess, Plugins: []PluginStatus{{Plugin: "NodePorts", Code: CodeSuccess}, {Plugin: "VolumeBinding", Code: CodeSkip}, {Plugin: "Odd \"name\"", Code: CodeUnschedulable}}}
	c.PostFilter = &PostFilterPhase{Code: CodeUnschedulable, Plugins: []PluginStatus{{Plugin: "DefaultPreemption", Code: CodeUnschedulable}}}
	c.Reserve = []PluginStatus{{Plugin: "VolumeBinding", Code: CodeSuccess}}
	c.Permit = []PluginStatus{{Plugin: "Gate", Code: CodeWait}}
	c.Outcome = Outcome{Result: ResultUnschedulable, NominatedNode: "b", Message: "0/2 nodes are available"}
	return c
}

func TestIndexEntriesAgreeWithCycles(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	other := &NodeSet{ID: 2, Names: []string{"c", "d"}}
	data := writeRecording(t, testCycle(1, nodes), richEntryCycle(2, nodes), testCycle(3, other), richEntryCycle(4, nil))
	fixtures, _ := filepath.Glob("../tui/testdata/*.rec")
	inputs := map[string][]byte{"synthetic": data}
	for _, f := range fixtures {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = b
	}
	if len(inputs) < 3 {
		t.Fatalf("found %d recordings, want the TUI's too", len(inputs))
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			cycles, entries, problems, indexProblems := readBoth(t, data)
			if len(problems) != 0 || len(indexProblems) != 0 {
				t.Fatalf("problems %q, index problems %q", problems, indexProblems)
			}
			var want []CycleEntry
			for _, c := range cycles {
				want = append(want, EntryOf(c))
			}
			if diff := cmp.Diff(want, entries, cmpopts.IgnoreFields(CycleEntry{}, "Offset"), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("entries (-want +got):\n%s", diff)
			}
			// Each entry opens its cycle again.
			path := filepath.Join(t.TempDir(), "r.rec")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			rf, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer rf.Close()
			for i, e := range entries {
				c, err := rf.CycleAt(e.Offset)
				if c == nil || (err != nil && !IsProblem(err)) {
					t.Fatalf("CycleAt(%d) for cycle %d: %v", e.Offset, e.Seq, err)
				}
				if got, want := cycleJSON(t, c), cycleJSON(t, cycles[i]); got != want {
					t.Fatalf("CycleAt(%d) = %s, want %s", e.Offset, got, want)
				}
				if diff := cmp.Diff(nodeNames(cycles[i]), nodeNames(c)); diff != "" {
					t.Fatalf("cycle %d node names (-want +got):\n%s", e.Seq, diff)
				}
			}
			if _, err := rf.CycleAt(rf.dataAt - 1); err == nil {
				t.Error("CycleAt the header: want an error")
			}
		})
	}
}

func TestIndexReportsWhatTheReaderReports(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	data := writeRecording(t, testCycle(1, nodes), richEntryCycle(2, nodes), testCycle(3, nodes))
	lines := func() [][]byte { return bytes.SplitAfter(bytes.Clone(data), []byte("\n")) }
	tests := []struct {
		name   string
		damage func() []byte
	}{
		{"torn tail", func() []byte { return data[:len(data)-20] }},
		{"corrupt cycle", func() []byte {
			l := lines()
			l[3][bytes.Index(l[3], []byte(`"web"`))+1] = 'X'
			return bytes.Join(l, nil)
		}},
		{"damaged node set", func() []byte {
			l := lines()
			l[1][20] ^= 1
			return bytes.Join(l, nil)
		}},
		{"node set lost", func() []byte {
			l := lines()
			return bytes.Join(append(l[:1:1], l[2:]...), nil)
		}},
		{"duplicates", func() []byte {
			l := lines()
			return bytes.Join([][]byte{l[0], l[1], l[2], l[3], l[1], l[3]}, nil)
		}},
		{"line too long", func() []byte {
			l := lines()
			long := []byte(checksumLine(bytes.Repeat([]byte("x"), fuzzLimits.record+10)))
			return bytes.Join([][]byte{l[0], l[1], l[2], long, l[3]}, nil)
		}},
		{"not JSON", func() []byte {
			l := lines()
			return bytes.Join([][]byte{l[0], l[1], []byte(checksumLine([]byte(`{"kind":"cycle","cycle":{"seq":[}`))), l[2]}, nil)
		}},
		{"rotated", func() []byte {
			return append(bytes.Clone(data), writeRecording(t, testCycle(4, nodes))...)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.damage()
			cycles, entries, problems, indexProblems := readBoth(t, in)
			if diff := cmp.Diff(problems, indexProblems); diff != "" {
				t.Errorf("problems (-reader +index):\n%s", diff)
			}
			var seqs, entrySeqs []int
			for _, c := range cycles {
				seqs = append(seqs, c.Seq)
			}
			for _, e := range entries {
				entrySeqs = append(entrySeqs, e.Seq)
			}
			if diff := cmp.Diff(seqs, entrySeqs); diff != "" {
				t.Errorf("cycles (-reader +index):\n%s", diff)
			}
		})
	}
}

func TestIndexLeavesRunsBombToCycleAt(t *testing.T) {
	data := runsBomb(true)
	_, entries, _, indexProblems := readBothWithin(t, data, defaultLimits)
	if len(entries) != 2 || len(indexProblems) != 0 {
		t.Fatalf("entries %+v, problems %q: want both cycles indexed, unexpanded", entries, indexProblems)
	}
	path := filepath.Join(t.TempDir(), "bomb.rec")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	rf, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	c, err := rf.CycleAt(entries[0].Offset)
	var corrupt *ErrCorrupt
	if c != nil || !errors.As(err, &corrupt) || corrupt.Offset != entries[0].Offset {
		t.Fatalf("CycleAt(bomb) = %v, %v; want it corrupt at byte %d", c, err, entries[0].Offset)
	}
	if c, err := rf.CycleAt(entries[1].Offset); err != nil || c.Seq != 2 || c.NodeName(3) != "d" {
		t.Fatalf("CycleAt(cycle 2) = %v, %v", c, err)
	}
}

func TestSkimRejectsMalformedJSON(t *testing.T) {
	tests := []string{``, `{`, `{"a"}`, `{"a":}`, `{"a":1`, `{"a":[1,2}`, `{"a":"x}`, `{"a":1 "b":2}`, `[1]`, `{"a":{"b":[}]}}`}
	for _, in := range tests {
		if err := members([]byte(in), func(k, v []byte) bool { return true }); err == nil {
			t.Errorf("members(%q): want an error", in)
		}
	}
	var got []string
	err := members([]byte(` { "a" : [1, {"x":"]"}] , "b":"q\"}", "c": -1.5e3,"d":null}`), func(k, v []byte) bool {
		got = append(got, fmt.Sprintf("%s=%s", k, v))
		return true
	})
	want := []string{`a=[1, {"x":"]"}]`, `b="q\"}"`, `c=-1.5e3`, `d=null`}
	if diff := cmp.Diff(want, got); err != nil || diff != "" {
		t.Errorf("members: %v (-want +got):\n%s", err, diff)
	}
}

// FuzzIndex indexes arbitrary bytes: it must not panic, and every entry it
// returns must open to the cycle it names or to a problem.
func FuzzIndex(f *testing.F) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	f.Add(writeRecording(f, testCycle(1, nodes), richEntryCycle(2, nodes)))
	f.Add(runsBomb(true))
	f.Add(withQueueRecords(writeRecording(f, testCycle(1, nodes))))
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := NewIndexReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		path := filepath.Join(t.TempDir(), "f.rec")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		rf, ferr := OpenFile(path)
		if ferr == nil {
			defer rf.Close()
		}
		for {
			rec, err := ix.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				checkProblem(t, err, int64(len(data)))
				continue
			}
			if rec.Entry == nil || ferr != nil || rec.Entry.Segment > 0 {
				continue
			}
			c, err := rf.CycleAt(rec.Entry.Offset)
			if err != nil && !IsProblem(err) {
				t.Fatalf("CycleAt(%d): %v", rec.Entry.Offset, err)
			}
			if c != nil && c.Seq != rec.Entry.Seq {
				t.Fatalf("CycleAt(%d) = cycle %d, the index says %d", rec.Entry.Offset, c.Seq, rec.Entry.Seq)
			}
		}
	})
}

// BenchmarkSkimCycle measures skimming the records of 5 000-node cycles: a
// bound one (score lists) and an unschedulable one (every node rejected).
func BenchmarkSkimCycle(b *testing.B) {
	set := &NodeSet{ID: 1, Names: make([]string, 5000)}
	for i := range set.Names {
		set.Names[i] = fmt.Sprintf("node-%d", i)
	}
	bound := syntheticCycle(rand.New(rand.NewSource(1)), 1, set)
	unsched := testCycle(2, set)
	unsched.Filter.Feasible, unsched.Filter.Rejected, unsched.Score = nil, nil, nil
	for i := range set.Names {
		unsched.Filter.Rejected = append(unsched.Filter.Rejected, NodeStatus{Node: i, Plugin: 0, Code: CodeUnschedulable, Reasons: []string{"Insufficient cpu"}})
	}
	for _, c := range []*Cycle{bound, unsched} {
		data := writeRecording(b, c)
		line := bytes.SplitAfter(data, []byte("\n"))[2]
		line = line[:len(line)-1]
		b.Run(c.Outcome.Result, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			in := interner{}
			for b.Loop() {
				s, reason := skimLine(line)
				if s == nil {
					b.Fatal(reason)
				}
				if _, _, err := skimCycle(s.cycle, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestApplyUsageAgreesWithUsageAt(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b", "c"}}
	var cycles []*Cycle
	for seq := 1; seq <= 6; seq++ {
		c := testCycle(seq, nodes)
		c.NodeUse = []NodeUse{{Node: seq % 3, Generation: int64(seq), Requested: map[string]int64{"cpu": int64(100 * seq)}, Pods: []PodRef{{Namespace: "default", Name: fmt.Sprint("p", seq)}}}}
		if seq == 4 {
			c.NodeUse = nil
		}
		cycles = append(cycles, c)
	}
	data := writeRecording(t, cycles...)
	path := filepath.Join(t.TempDir(), "u.rec")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	_, entries, _, _ := readBoth(t, data)
	rf, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	u := NewUsage()
	for i, e := range entries {
		if err := rf.ApplyUsage(u, e.Offset); err != nil {
			t.Fatal(err)
		}
		want := UsageAt(cycles, i).ForSet(cycles[i])
		if diff := cmp.Diff(want, u.Clone().ForSet(cycles[i])); diff != "" {
			t.Fatalf("use as of cycle %d (-UsageAt +ApplyUsage):\n%s", e.Seq, diff)
		}
	}
}
