package recorder

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestRotatingWriterKeepsCompleteFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "flight.rec")
	w, err := NewRotatingWriter(path, Header{KubernetesVersion: "v1.37.1"}, 4<<10, 2)
	if err != nil {
		t.Fatal(err)
	}
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	for i := 1; i <= 60; i++ {
		if err := w.WriteCycle(testCycle(i, nodes)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".3"); !os.IsNotExist(err) {
		t.Errorf("%s.3 exists; only 2 old files should be kept", path)
	}
	var seqs []int
	for _, p := range []string{path + ".2", path + ".1", path} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() > 8<<10 {
			t.Errorf("%s is %d bytes, past the 4 KiB cap by more than a record", p, info.Size())
		}
		rec, err := LoadFile(p)
		if err != nil || len(rec.Problems) > 0 {
			t.Fatalf("%s: %v %v", p, err, rec.Problems)
		}
		for _, c := range rec.Cycles {
			if c.Nodes == nil || c.NodeName(1) != "b" {
				t.Fatalf("%s: cycle %d lacks its node set", p, c.Seq)
			}
			seqs = append(seqs, c.Seq)
		}
	}
	// The kept files hold the newest cycles, in order, without gaps.
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			t.Fatalf("cycles across files not consecutive: %v", seqs)
		}
	}
	if last := seqs[len(seqs)-1]; last != 60 {
		t.Errorf("last cycle %d, want 60 (%s)", last, fmt.Sprint(seqs))
	}
}

// TestRotatedFileKnowsNodeUsage checks that a file started by rotation can
// rebuild what was placed on nodes before it began.
func TestRotatedFileKnowsNodeUsage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "flight.rec")
	w, err := NewRotatingWriter(path, Header{}, 2<<10, 3)
	if err != nil {
		t.Fatal(err)
	}
	nodes := &NodeSet{ID: 1, Names: []string{"a", "b"}}
	for i := 1; i <= 20; i++ {
		c := testCycle(i, nodes)
		if i == 1 {
			c.NodeUse = []NodeUse{{Node: 1, Generation: 7, Requested: map[string]int64{"cpu": 500}, Pods: []PodRef{{Namespace: "default", Name: "early"}}}}
		}
		if err := w.WriteCycle(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var rec *Recording
	for _, p := range []string{path, path + ".1", path + ".2"} {
		r, err := LoadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Cycles) > 0 && r.Cycles[0].Seq != 1 {
			rec = r
			break
		}
	}
	if rec == nil {
		t.Fatal("no rotated file holds cycles")
	}
	nu, ok := UsageAt(rec.Cycles, 0).Node("b")
	if !ok || nu.Requested["cpu"] != 500 || len(nu.Pods) != 1 || nu.Pods[0].Name != "early" {
		t.Errorf("the rotated file's first cycle should know default/early on b, got %+v", nu)
	}
}
