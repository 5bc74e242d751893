package recorder

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// What a fixture run's controllers left is written before the end record
// and read back by each reader; a cluster record without a body is damaged.
func TestClusterRecord(t *testing.T) {
	st := &ClusterState{
		Workloads: []WorkloadState{{Kind: "Deployment", Namespace: "default", Name: "web", Desired: 2, Pods: []WorkloadPod{{Name: "web-1", Node: "a"}, {Name: "web-2"}}}},
		Budgets:   []BudgetState{},
		Claims:    []ClaimState{},
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteCluster(st); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteEnd(); err != nil {
		t.Fatal(err)
	}
	data := append(buf.Bytes(), checksumLine([]byte(`{"kind":"cluster","n":3}`))...)
	for name, open := range map[string]func() (*Reader, error){
		"sequential": func() (*Reader, error) { return NewReader(bytes.NewReader(data)) },
		"index":      func() (*Reader, error) { return NewIndexReader(bytes.NewReader(data)) },
	} {
		rd, err := open()
		if err != nil {
			t.Fatal(err)
		}
		var got *ClusterState
		var damaged int
		for rec, err := range rd.All() {
			if _, ok := err.(*ErrCorrupt); ok {
				damaged++
			}
			if rec.Cluster != nil {
				got = rec.Cluster
			}
		}
		if diff := cmp.Diff(st, got); diff != "" {
			t.Errorf("%s: the cluster read back (-want +got):\n%s", name, diff)
		}
		if damaged != 1 {
			t.Errorf("%s: %d damaged records, want the cluster record without a body", name, damaged)
		}
	}
}
