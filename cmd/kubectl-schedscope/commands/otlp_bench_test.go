package commands

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder/export/otel/otlptest"
)

// otlpBenchFixture is 1 000 nodes and 2 000 pending pods (the replicas
// annotation copies an object).
const otlpBenchFixture = `apiVersion: v1
kind: Node
metadata: {name: node, labels: {topology.kubernetes.io/zone: zone-a}, annotations: {schedscope.io/replicas: "1000"}}
status: {allocatable: {cpu: "16", memory: 64Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}, annotations: {schedscope.io/replicas: "2000"}}
spec:
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 200m, memory: 256Mi}}}]
`

var (
	recordPodsPerSec = regexp.MustCompile(`\(([0-9.]+) pods/s`)
	otlpSent         = regexp.MustCompile(`otlp: sent ([0-9]+) cycles as traces \(([0-9]+) spans\)`)
	otlpDropped      = regexp.MustCompile(`([0-9]+) records dropped`)
)

// BenchmarkRecordOTLP runs the record command with and without
// --otlp-endpoint to a local OTLP receiver (the Collector's, at nice 19),
// one after the other in each iteration, and reports the pods/s of both and their ratio;
// then export --otlp of the recording, whose spans/s is what the receiver
// takes sustained (export waits for room rather than drop).
func BenchmarkRecordOTLP(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "kubectl-schedscope")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	fixture := filepath.Join(dir, "cluster.yaml")
	if err := os.WriteFile(fixture, []byte(otlpBenchFixture), 0o600); err != nil {
		b.Fatal(err)
	}
	rec := filepath.Join(dir, "out.ssr")
	run := func(args ...string) string {
		b.Helper()
		var stderr, stdout bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stderr, cmd.Stdout = &stderr, &stdout
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v: %v\n%s", args, err, stderr.String())
		}
		return stdout.String() + stderr.String()
	}
	rate := func(out string) float64 {
		m := recordPodsPerSec.FindStringSubmatch(out)
		if m == nil {
			b.Fatalf("record printed no pods/s:\n%s", out)
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	var bare, with, spansPerSec, dropped float64
	for i := 0; i < b.N; i++ {
		// The receiver stands in for a backend on another machine: niced,
		// it takes the cores only when the scheduler leaves them idle.
		rcv := otlptest.Start(b, "nice", "-n", "19")
		bare += rate(run("record", "-f", fixture, "-o", rec))
		out := run("record", "-f", fixture, "-o", rec, "--otlp-endpoint", rcv.HTTP)
		with += rate(out)
		if m := otlpDropped.FindStringSubmatch(out); m != nil {
			d, _ := strconv.ParseFloat(m[1], 64)
			dropped += d
		}
		if !otlpSent.MatchString(out) {
			b.Fatalf("record with --otlp-endpoint did not say what it sent:\n%s", out)
		}
		start := time.Now()
		m := otlpSent.FindStringSubmatch(run("export", "--otlp", rcv.HTTP, rec))
		took := time.Since(start)
		if m == nil {
			b.Fatal("export did not say what it sent")
		}
		spans, _ := strconv.ParseFloat(m[2], 64)
		spansPerSec += spans / took.Seconds()
	}
	n := float64(b.N)
	b.ReportMetric(bare/n, "bare-pods/s")
	b.ReportMetric(with/n, "otlp-pods/s")
	b.ReportMetric(with/bare, "ratio")
	b.ReportMetric(dropped/n, "dropped")
	b.ReportMetric(spansPerSec/n, "spans/s")
	b.ReportMetric(0, "ns/op")
}
