package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder"
)

// benchCluster writes a fixture of nodes spread over three zones in two sizes,
// and pending pods of three kinds: plain requests, a spread deployment and pods
// that prefer a zone, so filters and scores differ between nodes.
func benchCluster(nodes, pods int) []byte {
	var b strings.Builder
	sizes := []struct{ cpu, mem string }{{"8", "32Gi"}, {"16", "64Gi"}}
	per := nodes / 6
	for z := 0; z < 3; z++ {
		for s, size := range sizes {
			n := per
			if z == 2 && s == 1 {
				n = nodes - 5*per
			}
			fmt.Fprintf(&b, `apiVersion: v1
kind: Node
metadata:
  name: z%d-s%d
  labels: {topology.kubernetes.io/zone: zone-%d, size: s%d}
  annotations: {schedscope.io/replicas: "%d"}
status:
  allocatable: {cpu: "%s", memory: %s, pods: "110"}
---
`, z, s, z, s, n, size.cpu, size.mem)
		}
	}
	third := pods / 3
	fmt.Fprintf(&b, `apiVersion: v1
kind: Pod
metadata: {name: plain, namespace: default, annotations: {schedscope.io/replicas: "%d"}}
spec:
  containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}, annotations: {schedscope.io/replicas: "%d"}}
spec:
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 200m, memory: 256Mi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: zonal, namespace: default, annotations: {schedscope.io/replicas: "%d"}}
spec:
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - {weight: 50, preference: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-1]}]}}
  containers: [{name: c, image: busybox, resources: {requests: {cpu: 150m, memory: 64Mi}}}]
`, third, third, pods-2*third)
	return []byte(b.String())
}

// burst schedules every pending pod of data at once and returns the time from
// the first pod's creation until the scheduler settled. With record set, every
// cycle is also written to w.
func burst(b *testing.B, data []byte, record bool, w io.Writer) (time.Duration, int) {
	b.Helper()
	fx, err := LoadFixture("bench", data)
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{DisableRecording: !record}
	var mu sync.Mutex
	var rw *recorder.Writer
	cycles := 0
	if record {
		opts.OnCycle = func(c *recorder.Cycle) {
			mu.Lock()
			defer mu.Unlock()
			cycles++
			if err := rw.WriteCycle(c); err != nil {
				b.Error(err)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e, err := New(ctx, fx, opts)
	if err != nil {
		b.Fatal(err)
	}
	if record {
		if rw, err = recorder.NewWriter(w, e.Header()); err != nil {
			b.Fatal(err)
		}
	}
	start := time.Now()
	res, err := e.RunBurst(ctx)
	if err != nil {
		b.Fatal(err)
	}
	d := time.Since(start)
	bound := 0
	for _, n := range res.Bindings {
		if n != "" {
			bound++
		}
	}
	if bound != len(fx.Pending) {
		b.Fatalf("%d of %d pods bound", bound, len(fx.Pending))
	}
	return d, cycles
}

// countingWriter counts bytes on their way to a file.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.w.Write(p)
}

// BenchmarkRecordingOverhead schedules the same workload with the bare upstream
// scheduler (no wrappers) and with full recording written to a file, alternating
// the two in each iteration so both see the same machine state. It reports the
// pods/s of each and their ratio (target ≥ 0.95), and the recording's bytes per
// cycle.
func BenchmarkRecordingOverhead(b *testing.B) {
	for _, size := range []struct{ nodes, pods int }{{1000, 2000}, {5000, 1000}} {
		b.Run(fmt.Sprintf("nodes=%d/pods=%d", size.nodes, size.pods), func(b *testing.B) {
			data := benchCluster(size.nodes, size.pods)
			var bare, rec time.Duration
			var bytesW int64
			var cycles int
			for i := 0; i < b.N; i++ {
				d, _ := burst(b, data, false, nil)
				bare += d
				f, err := os.Create(filepath.Join(b.TempDir(), "bench.rec"))
				if err != nil {
					b.Fatal(err)
				}
				cw := &countingWriter{w: f}
				d, n := burst(b, data, true, cw)
				f.Close()
				rec += d
				bytesW += cw.n
				cycles += n
			}
			pods := float64(size.pods * b.N)
			barePS, recPS := pods/bare.Seconds(), pods/rec.Seconds()
			b.ReportMetric(barePS, "bare-pods/s")
			b.ReportMetric(recPS, "recorded-pods/s")
			b.ReportMetric(recPS/barePS, "ratio")
			b.ReportMetric(float64(bytesW)/float64(cycles), "B/cycle")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkWriteCycle5000Nodes encodes and writes cycles recorded on a
// 5 000-node cluster, reporting cycles written per second and bytes per cycle.
func BenchmarkWriteCycle5000Nodes(b *testing.B) {
	data := benchCluster(5000, 60)
	fx, err := LoadFixture("bench", data)
	if err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	var cycles []*recorder.Cycle
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e, err := New(ctx, fx, Options{OnCycle: func(c *recorder.Cycle) {
		mu.Lock()
		cycles = append(cycles, c)
		mu.Unlock()
	}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.RunBurst(ctx); err != nil {
		b.Fatal(err)
	}
	// Write the node set once, as a recording does, before measuring.
	cw := &countingWriter{w: io.Discard}
	w, err := recorder.NewWriter(cw, e.Header())
	if err != nil {
		b.Fatal(err)
	}
	if err := w.WriteCycle(cycles[0]); err != nil {
		b.Fatal(err)
	}
	cw.n = 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := w.WriteCycle(cycles[i%len(cycles)]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cw.n)/float64(b.N), "B/cycle")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
}

// BenchmarkLargestCluster records one pod on 15 000 nodes and reads the
// recording back, checking that every node of the cycle is accounted for.
func BenchmarkLargestCluster(b *testing.B) {
	data := benchCluster(15000, 3)
	for i := 0; i < b.N; i++ {
		var buf bytes.Buffer
		_, n := burst(b, data, true, &buf)
		size := buf.Len()
		rec, err := recorder.Load(&buf)
		if err != nil || len(rec.Problems) > 0 || len(rec.Cycles) != n {
			b.Fatalf("recording unreadable: %v %v (%d of %d cycles)", err, rec.Problems, len(rec.Cycles), n)
		}
		for _, c := range rec.Cycles {
			if c.NumNodes() != 15000 {
				b.Fatalf("cycle %d has %d nodes, want 15000", c.Seq, c.NumNodes())
			}
		}
		b.ReportMetric(float64(size)/float64(n), "B/cycle")
	}
}
