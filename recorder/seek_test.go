package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// writeSynthetic writes n cycles over a nodes-node cluster, switching node sets
// every 1 000 cycles, and returns the file's path.
func writeSynthetic(tb testing.TB, dir string, n, nodes int) string {
	tb.Helper()
	path := filepath.Join(dir, fmt.Sprintf("synthetic-%d-%d.rec", n, nodes))
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w, err := NewWriter(f, Header{KubernetesVersion: "v1.37.1"})
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	var set *NodeSet
	for i := 1; i <= n; i++ {
		if (i-1)%1000 == 0 {
			set = &NodeSet{ID: (i-1)/1000 + 1, Names: make([]string, nodes)}
			for k := range set.Names {
				set.Names[k] = fmt.Sprintf("node-%d-%d", set.ID, k)
			}
		}
		if err := w.WriteCycle(syntheticCycle(rng, i, set)); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

// syntheticCycle is a bound cycle that scored a tenth of the nodes with
// scores like the default profile's: some constant, some varying.
func syntheticCycle(rng *rand.Rand, seq int, set *NodeSet) *Cycle {
	n := len(set.Names)
	k := max(1, n/10)
	start := rng.Intn(n)
	feasible := make([]int, k)
	for i := range feasible {
		feasible[i] = (start + i) % n
	}
	sp := &ScorePhase{Nodes: feasible, Totals: make([]int64, k)}
	for p, name := range []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "VolumeBinding", "PodTopologySpread", "InterPodAffinity", "NodeResourcesBalancedAllocation", "ImageLocality"} {
		pl := ScorePlugin{Name: name, Weight: int64(1 + p%3), Raw: make([]int64, k)}
		for i := range pl.Raw {
			if p%2 == 1 {
				pl.Raw[i] = int64(rng.Intn(100))
			}
			sp.Totals[i] += pl.Raw[i] * pl.Weight
		}
		sp.Plugins = append(sp.Plugins, pl)
	}
	return &Cycle{
		Seq: seq, Pod: PodRef{Namespace: "default", Name: fmt.Sprintf("pod-%d", seq)}, Profile: "default-scheduler",
		Start: time.Unix(1_800_000_000, 0).Add(time.Duration(seq) * time.Millisecond), Nodes: set,
		Filter:    &FilterPhase{Plugins: []string{"NodeName", "NodeResourcesFit"}, Feasible: feasible, Evaluated: k},
		Score:     sp,
		Selection: &Selection{Node: set.Names[feasible[0]], Rule: RuleHighestScore},
		Outcome:   Outcome{Result: ResultBound, Node: set.Names[feasible[0]]},
	}
}

func TestSeekFindsEveryCycleWithItsNodes(t *testing.T) {
	path := writeSynthetic(t, t.TempDir(), 3500, 200)
	rf, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	first, err := rf.First()
	if err != nil || first.Seq != 1 || first.NodeName(0) != "node-1-0" {
		t.Fatalf("First() = %+v, %v", first, err)
	}
	for _, seq := range []int{1, 2, 999, 1000, 1001, 2500, 3499, 3500} {
		c, err := rf.Seek(seq)
		if err != nil {
			t.Fatalf("Seek(%d): %v", seq, err)
		}
		wantSet := (seq-1)/1000 + 1 // a new node set every 1 000 cycles
		if c.Seq != seq || c.NodeSetID != wantSet || c.NodeName(3) != fmt.Sprintf("node-%d-3", wantSet) {
			t.Errorf("Seek(%d) = seq %d set %d node %q, want set %d", seq, c.Seq, c.NodeSetID, c.NodeName(3), wantSet)
		}
	}
	if _, err := rf.Seek(4000); err == nil {
		t.Error("Seek past the end: want an error")
	}
}

// BenchmarkReplay1GB writes a recording of about 1 GB of 5 000-node cycles and
// measures opening it to its first cycle and seeking to random cycles, with the
// bytes allocated and the heap in use while doing so.
func BenchmarkReplay1GB(b *testing.B) {
	const nodes, cycles = 5000, 112000
	path := writeSynthetic(b, b.TempDir(), cycles, nodes)
	st, _ := os.Stat(path)
	rng := rand.New(rand.NewSource(2))
	var open, seek time.Duration
	var seeks int
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var peakHeap uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		rf, err := OpenFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := rf.First(); err != nil {
			b.Fatal(err)
		}
		open += time.Since(t0)
		for k := 0; k < 20; k++ {
			seq := 1 + rng.Intn(cycles)
			t1 := time.Now()
			c, err := rf.Seek(seq)
			if err != nil || c.Seq != seq || c.NumNodes() != nodes {
				b.Fatalf("Seek(%d): %v", seq, err)
			}
			seek += time.Since(t1)
			seeks++
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peakHeap = max(peakHeap, ms.HeapInuse)
		rf.Close()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(st.Size())/1e9, "file-GB")
	b.ReportMetric(float64(open.Microseconds())/1000/float64(b.N), "open-to-first-ms")
	b.ReportMetric(float64(seek.Microseconds())/1000/float64(seeks), "seek-ms")
	b.ReportMetric(float64(peakHeap)/(1<<20), "heap-inuse-MB")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "alloc-MB/op")
}

// FuzzFile opens arbitrary bytes as a file for random access. Opening,
// First and Seek must not panic, must keep the reader's bounds, must return
// the cycle asked for, and must agree with the sequential reader on every
// cycle it finds: the same record, and a missing node set reported.
func FuzzFile(f *testing.F) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	f.Add(writeRecording(f, testCycle(1, nodes), testCycle(2, nodes)), 2)
	f.Fuzz(func(t *testing.T, data []byte, seq int) {
		path := filepath.Join(t.TempDir(), "fuzz.rec")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		size := int64(len(data))
		rf, err := openFile(path, fuzzLimits)
		_, seqErr := newReader(bytes.NewReader(data), fuzzLimits)
		if (err == nil) != (seqErr == nil) {
			t.Fatalf("OpenFile: %v; NewReader: %v; want both to accept or refuse", err, seqErr)
		}
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("OpenFile error %q spans lines", err)
			}
			return
		}
		defer rf.Close()
		if p := rf.HeaderProblem(); p != nil {
			checkProblem(t, p, max(size, 1))
		}
		rd, _ := newReader(bytes.NewReader(data), fuzzLimits)
		first := map[int]*Cycle{} // each seq's first intact cycle, as read in order
		missing := map[int]bool{}
		var order []int
		duplicates := false
		for rec, err := range rd.All() {
			var m *ErrMissingNodeSet
			var dup *ErrDuplicate
			switch {
			case errors.As(err, &m):
				missing[m.Seq] = true
			case errors.As(err, &dup):
				duplicates = true
			case err == nil && rec.Cycle != nil:
				if _, ok := first[rec.Cycle.Seq]; !ok {
					first[rec.Cycle.Seq] = rec.Cycle
					order = append(order, rec.Cycle.Seq)
				}
			}
		}

		check := func(what string, c *Cycle, err error) {
			t.Helper()
			var m *ErrMissingNodeSet
			if err != nil && !errors.As(err, &m) {
				t.Fatalf("%s: %v", what, err)
			}
			if m != nil {
				checkProblem(t, err, size)
			}
			if c.Nodes == nil && m == nil && (c.NodeSetID != 0) {
				t.Fatalf("%s: cycle %d has no node set and no problem says so", what, c.Seq)
			}
			if n := intsIn(c); n > fuzzLimits.ints+size {
				t.Fatalf("%s: cycle %d expanded to %d values from %d bytes", what, c.Seq, n, size)
			}
			want, ok := first[c.Seq]
			if !ok {
				t.Fatalf("%s: cycle %d, which the sequential reader did not read", what, c.Seq)
			}
			if got, w := cycleJSON(t, c), cycleJSON(t, want); got != w {
				t.Fatalf("%s: cycle differs from the sequential reader's:\n got %s\nwant %s", what, got, w)
			}
			if !duplicates && c.Nodes != nil && want.Nodes != nil && !slicesEqual(c.Nodes.Names, want.Nodes.Names) {
				t.Fatalf("%s: node names %q, sequential reader %q", what, c.Nodes.Names, want.Nodes.Names)
			}
		}

		c, err := rf.First()
		switch {
		case errors.Is(err, io.EOF):
			if len(order) > 0 {
				t.Fatalf("First: EOF, but the sequential reader read cycle %d", order[0])
			}
		case c == nil:
			t.Fatalf("First: %v", err)
		default:
			if len(order) == 0 || c.Seq != order[0] {
				t.Fatalf("First: cycle %d, sequential reader's first %v", c.Seq, order)
			}
			check("First", c, err)
		}
		for _, s := range append([]int{seq}, order...) {
			c, err := rf.Seek(s)
			if c == nil {
				if _, ok := first[s]; ok {
					t.Fatalf("Seek(%d): %v, but the sequential reader read it", s, err)
				}
				if err == nil || strings.Contains(err.Error(), "\n") {
					t.Fatalf("Seek(%d) found nothing; error %v", s, err)
				}
				continue
			}
			if c.Seq != s {
				t.Fatalf("Seek(%d) returned cycle %d", s, c.Seq)
			}
			check(fmt.Sprintf("Seek(%d)", s), c, err)
		}
	})
}

// TestOpenedCyclesKeepTheirNodesWhenBytesMoved: a line added, cut short or
// lost before the node set moves it from the offset the cycles' records
// name (nodeSetAt). Each damage is reported where it is, and the cycles the
// debugger opens (File.CycleAt, File.ApplyUsage) still have their node
// names, as the sequential Reader gives them; a node set damaged where it
// is is still reported per cycle.
func TestOpenedCyclesKeepTheirNodesWhenBytesMoved(t *testing.T) {
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	var cycles []*Cycle
	for seq := 1; seq <= 3; seq++ {
		c := testCycle(seq, nodes)
		c.NodeUse = []NodeUse{{Node: 0, Generation: int64(seq), Requested: map[string]int64{"cpu": int64(seq) * 100}}}
		cycles = append(cycles, c)
	}
	lines := bytes.SplitAfter(writeRecording(t, cycles...), []byte("\n"))
	lines = lines[:len(lines)-1]
	with := func(i int, add ...[]byte) []byte {
		out := slices.Clone(lines[:i])
		out = append(out, add...)
		return bytes.Join(append(out, lines[i:]...), nil)
	}
	damagedSet := slices.Clone(lines)
	damagedSet[1] = bytes.Replace(damagedSet[1], []byte(`"a"`), []byte(`"x"`), 1)
	tests := []struct {
		name      string
		data      []byte
		wantNodes bool
	}{
		{"a line of garbage before the node set", with(1, []byte("hello world\n")), true},
		{"the header written twice", with(1, lines[0]), true},
		{"a torn line before the node set", with(1, []byte("0123abcd {\"kind\":\"qu\n")), true},
		{"the header's first bytes lost", bytes.Join(lines, nil)[5:], true},
		{"the node set damaged in place", bytes.Join(damagedSet, nil), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "moved.rec")
			if err := os.WriteFile(path, tt.data, 0o600); err != nil {
				t.Fatal(err)
			}
			idx, err := NewIndexReader(bytes.NewReader(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			var entries []CycleEntry
			for rec, err := range idx.All() {
				if rec.Entry != nil && err == nil {
					entries = append(entries, *rec.Entry)
				}
			}
			if len(entries) != 3 {
				t.Fatalf("the index holds %d cycles, want 3", len(entries))
			}
			rf, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer rf.Close()
			u := NewUsage()
			for _, e := range entries {
				c, err := rf.CycleAt(e.Offset)
				if c == nil {
					t.Fatalf("CycleAt(%d): %v", e.Offset, err)
				}
				if err := rf.ApplyUsage(u, e.Offset); err != nil {
					t.Fatalf("ApplyUsage(%d): %v", e.Offset, err)
				}
				var missing *ErrMissingNodeSet
				switch {
				case tt.wantNodes && (err != nil || c.NodeName(1) != "b"):
					t.Errorf("cycle %d: node 1 is %q (%v), want b", c.Seq, c.NodeName(1), err)
				case !tt.wantNodes && !errors.As(err, &missing):
					t.Errorf("cycle %d: %v, want its damaged node set reported", c.Seq, err)
				}
			}
			if use, ok := u.Node("a"); tt.wantNodes && (!ok || use.Requested["cpu"] != 300) {
				t.Errorf("usage of node a: %+v, %v; want the last cycle's 300m cpu", use, ok)
			}
		})
	}
}
