package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// benchCluster writes a fixture of nodes spread over three zones in two sizes,
// each labelled with its hostname as a kubelet labels its node,
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
  labels: {kubernetes.io/hostname: z%d-s%d, topology.kubernetes.io/zone: zone-%d, size: s%d}
  annotations: {schedscope.io/replicas: "%d"}
status:
  allocatable: {cpu: "%s", memory: %s, pods: "110"}
---
`, z, s, z, s, z, s, n, size.cpu, size.mem)
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

// fixtureRun schedules every pending pod of data, all at once (burst) or one
// at a time (sequential), and returns the time from the first pod's creation
// until the scheduler settled. With record set, every cycle is also written
// to w as record writes it: through an AsyncWriter.
func fixtureRun(b *testing.B, data []byte, record, burst bool, w io.Writer) (time.Duration, int) {
	b.Helper()
	fx, err := fixture.Load("bench", data)
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{DisableRecording: !record}
	var aw *recorder.AsyncWriter
	var cycles atomic.Int64
	if record {
		opts.OnCycle = func(c *recorder.Cycle) {
			cycles.Add(1)
			_ = aw.WriteCycle(c)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e, err := New(ctx, fx, opts)
	if err != nil {
		b.Fatal(err)
	}
	if record {
		rw, err := recorder.NewWriter(w, e.Header())
		if err != nil {
			b.Fatal(err)
		}
		aw = recorder.NewAsyncWriter(rw, recorder.DefaultAsyncQueue, false)
	}
	run := e.Run
	if burst {
		run = e.RunBurst
	}
	start := time.Now()
	res, err := run(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if aw != nil {
		if err := aw.Close(); err != nil {
			b.Fatal(err)
		}
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
	return d, int(cycles.Load())
}

// burst schedules every pending pod at once; see fixtureRun.
func burst(b *testing.B, data []byte, record bool, w io.Writer) (time.Duration, int) {
	return fixtureRun(b, data, record, true, w)
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

// BenchmarkRecordingOverhead schedules the same workload four ways in each
// iteration, side by side so all see the same machine state: the bare upstream
// scheduler (no wrappers) and full recording written to a file, each with
// sequential and with burst arrival. It reports the pods/s of each, recorded ÷
// bare in each arrival mode (target ≥ 0.95), recorded sequential ÷ recorded
// burst (target ≥ 0.8), and the recording's bytes per cycle.
func BenchmarkRecordingOverhead(b *testing.B) {
	for _, size := range []struct{ nodes, pods int }{{1000, 2000}, {5000, 1000}} {
		b.Run(fmt.Sprintf("nodes=%d/pods=%d", size.nodes, size.pods), func(b *testing.B) {
			data := benchCluster(size.nodes, size.pods)
			var took [2][2]time.Duration // [burst][record]
			var bytesW int64
			var cycles int
			for i := 0; i < b.N; i++ {
				for _, burst := range []bool{false, true} {
					d, _ := fixtureRun(b, data, false, burst, nil)
					took[b2i(burst)][0] += d
					f, err := os.Create(filepath.Join(b.TempDir(), "bench.rec"))
					if err != nil {
						b.Fatal(err)
					}
					cw := &countingWriter{w: f}
					d, n := fixtureRun(b, data, true, burst, cw)
					f.Close()
					took[b2i(burst)][1] += d
					bytesW += cw.n
					cycles += n
				}
			}
			pods := float64(size.pods * b.N)
			ps := func(burst, record int) float64 { return pods / took[burst][record].Seconds() }
			b.ReportMetric(ps(0, 0), "bare-seq-pods/s")
			b.ReportMetric(ps(0, 1), "recorded-seq-pods/s")
			b.ReportMetric(ps(1, 0), "bare-burst-pods/s")
			b.ReportMetric(ps(1, 1), "recorded-burst-pods/s")
			b.ReportMetric(ps(0, 1)/ps(0, 0), "seq-ratio")
			b.ReportMetric(ps(1, 1)/ps(1, 0), "burst-ratio")
			b.ReportMetric(ps(0, 1)/ps(1, 1), "seq/burst")
			b.ReportMetric(float64(bytesW)/float64(cycles), "B/cycle")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}

// BenchmarkWriteCycle5000Nodes encodes and writes cycles recorded on a
// 5 000-node cluster, reporting cycles written per second and bytes per cycle.
func BenchmarkWriteCycle5000Nodes(b *testing.B) {
	data := benchCluster(5000, 60)
	fx, err := fixture.Load("bench", data)
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

// BenchmarkRecordCommand runs the record command as users do — the built
// binary, under /usr/bin/time -v — on 1 000 nodes × 2 000 pods in each arrival
// mode, and the bare upstream scheduler (recording disabled) in this process
// on the same fixture in the same mode, side by side. It reports the pods/s
// record prints, the bare pods/s, their ratio (target ≥ 0.9), the process's
// peak RSS and its wall time from start to exit.
func BenchmarkRecordCommand(b *testing.B) {
	const nodes, pods = 1000, 2000
	dir := b.TempDir()
	bin := filepath.Join(dir, "kubectl-schedscope")
	build := exec.Command("go", "build", "-o", bin, "../cmd/kubectl-schedscope")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	data := benchCluster(nodes, pods)
	fixture := filepath.Join(dir, "cluster.yaml")
	if err := os.WriteFile(fixture, data, 0o600); err != nil {
		b.Fatal(err)
	}
	for _, arrival := range []string{"sequential", "burst"} {
		b.Run("arrival="+arrival, func(b *testing.B) {
			var recPS, barePS, rssMB, wall float64
			for i := 0; i < b.N; i++ {
				r := runRecord(b, bin, fixture, filepath.Join(dir, "out.rec"), arrival)
				recPS += r.podsPerSec
				rssMB += r.rssMB
				wall += r.wall.Seconds()
				d, _ := fixtureRun(b, data, false, arrival == "burst", nil)
				barePS += pods / d.Seconds()
			}
			n := float64(b.N)
			b.ReportMetric(recPS/n, "record-pods/s")
			b.ReportMetric(barePS/n, "bare-pods/s")
			b.ReportMetric(recPS/barePS, "ratio")
			b.ReportMetric(rssMB/n, "peak-RSS-MB")
			b.ReportMetric(wall/n, "wall-s")
			b.ReportMetric(0, "ns/op")
		})
	}
}

type recordRun struct {
	podsPerSec, rssMB float64
	wall              time.Duration
}

var (
	recordRate = regexp.MustCompile(`\(([0-9.]+) pods/s`)
)

// runRecord runs bin record under /usr/bin/time -v and reads the pods/s it
// printed and its peak RSS.
func runRecord(b *testing.B, bin, fixture, out, arrival string) recordRun {
	b.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command("/usr/bin/time", "-v", bin, "record", "-f", fixture, "-o", out, "--arrival", arrival)
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("record: %v\n%s", err, stderr.String())
	}
	r := recordRun{wall: time.Since(start)}
	m := recordRate.FindStringSubmatch(stderr.String())
	if m == nil {
		b.Fatalf("record printed no pods/s:\n%s", stderr.String())
	}
	r.podsPerSec, _ = strconv.ParseFloat(m[1], 64)
	r.rssMB = peakRSS(stderr.String())
	return r
}

// benchNodes is benchCluster's nodes alone.
func benchNodes(nodes int) string {
	s := string(benchCluster(nodes, 3))
	return s[:strings.Index(s, "apiVersion: v1\nkind: Pod")]
}

// benchTemplate is the Deployment's pod template, the bare pods' spec.
const benchTemplate = `    spec:
      containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
`

// BenchmarkDeploymentVersusBarePods schedules, side by side in each
// iteration, the same pods on the same 1 000 nodes two ways: 2 000 bare pods
// created at once (RunBurst, recorded), with the topology spread
// kube-scheduler gives a ReplicaSet's pods by default stated (so the
// scheduler does the same work for both: the stated constraints select by
// the ReplicaSet's selector, app and pod-template-hash, as the default ones
// do, and the nodes carry their hostname label; without it the stated
// hostname constraint made PodTopologySpread skip every node, which the
// default constraints do not), and a Deployment of 2 000 replicas
// whose pods the Deployment and ReplicaSet controllers make, in the
// ReplicaSet controller's batches, and the simulated kubelet starts. It
// reports the time of each, until every pod is bound and the run settled,
// and deployment ÷ bare (target ≤ 1.2).
func BenchmarkDeploymentVersusBarePods(b *testing.B) {
	const nodes, pods = 1000, 2000
	QuietUpstreamLogs() // the controllers' retried syncs would break the benchmark's line
	bare := benchNodes(nodes) + fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata: {name: plain, namespace: default, labels: {app: plain, pod-template-hash: 6b9c5d7f48}, annotations: {schedscope.io/replicas: "%d"}}
spec:
  topologySpreadConstraints:
  - {maxSkew: 3, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: plain, pod-template-hash: 6b9c5d7f48}}}
  - {maxSkew: 5, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: plain, pod-template-hash: 6b9c5d7f48}}}
  containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
`, pods)
	deploy := benchNodes(nodes) + fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: plain, namespace: default}
spec:
  replicas: %d
  selector: {matchLabels: {app: plain}}
  template:
    metadata: {labels: {app: plain}}
%s`, pods, benchTemplate)
	var took [2]time.Duration
	for i := 0; i < b.N; i++ {
		for k, data := range []string{bare, deploy} {
			fx, err := fixture.Load("bench", []byte(data))
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			var cycles atomic.Int64
			e, err := New(ctx, fx, Options{OnCycle: func(*recorder.Cycle) { cycles.Add(1) }})
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			if _, err := e.RunBurst(ctx); err != nil {
				b.Fatal(err)
			}
			took[k] += time.Since(start)
			list, err := e.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
			if err != nil {
				b.Fatal(err)
			}
			bound := 0
			for _, p := range list.Items {
				if p.Spec.NodeName != "" {
					bound++
				}
			}
			cancel()
			if bound != pods || cycles.Load() < pods {
				b.Fatalf("run %d: %d of %d pods bound in %d cycles", k, bound, pods, cycles.Load())
			}
		}
	}
	b.ReportMetric(took[0].Seconds()/float64(b.N), "bare-s")
	b.ReportMetric(took[1].Seconds()/float64(b.N), "deployment-s")
	b.ReportMetric(took[1].Seconds()/took[0].Seconds(), "deployment/bare")
	b.ReportMetric(0, "ns/op")
}
