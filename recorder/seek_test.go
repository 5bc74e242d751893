package recorder

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
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
