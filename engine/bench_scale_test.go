package engine

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/engine/internal/scale"
)

// BenchmarkSnapshotScale answers questions about a snapshot of a large
// cluster — 5 000 nodes, 40 000 bound pods, 20 pending — as users ask
// them: the built binary, under /usr/bin/time -v, one command at a time.
// It reports each command's wall time from process start to exit and the
// peak RSS of explain, and, in this process, how many fixture objects the
// loader decodes and admits per second.
func BenchmarkSnapshotScale(b *testing.B) {
	const nodes, bound, pending = 5000, 40000, 20
	dir := b.TempDir()
	bin := filepath.Join(dir, "kubectl-schedscope")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/kubectl-schedscope").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	data := scale.Snapshot(nodes, bound, pending)
	path := filepath.Join(dir, "snapshot.yaml")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	stuck := fmt.Sprintf("pending-%d", pending-1)
	var explain, explainRSS, piped, whatif, suggest, perSec float64
	for i := 0; i < b.N; i++ {
		wall, rss, out := timed(b, bin, nil, "explain", "-f", path, "--pod", "pending-7")
		if !strings.Contains(out, "Bound on node-") {
			b.Fatalf("explain did not bind pending-7:\n%s", out)
		}
		explain += wall
		explainRSS += rss
		wall, _, out = timed(b, bin, data, "explain", "-f", "-", "--pod", "pending-7")
		if !strings.Contains(out, "Bound on node-") {
			b.Fatalf("explain -f - did not bind pending-7:\n%s", out)
		}
		piped += wall
		wall, _, out = timed(b, bin, nil, "whatif", "-f", path, "--pod", "pending-7", "--set-weight", "NodeResourcesFit=5")
		if !strings.Contains(out, "pending-7") {
			b.Fatalf("whatif said nothing of pending-7:\n%s", out)
		}
		whatif += wall
		wall, _, out = timed(b, bin, nil, "suggest", "-f", path, "--pod", stuck)
		if !strings.Contains(out, "make it schedulable") {
			b.Fatalf("suggest found nothing for %s:\n%s", stuck, out)
		}
		suggest += wall
		start := time.Now()
		fx, err := fixture.Load(path, data)
		if err != nil {
			b.Fatal(err)
		}
		perSec += float64(len(fx.Objects)+len(fx.Pending)) / time.Since(start).Seconds()
	}
	n := float64(b.N)
	b.ReportMetric(explain/n, "explain-s")
	b.ReportMetric(explainRSS/n, "explain-peak-RSS-MB")
	b.ReportMetric(piped/n, "explain-stdin-s")
	b.ReportMetric(whatif/n, "whatif-s")
	b.ReportMetric(suggest/n, "suggest-s")
	b.ReportMetric(perSec/n, "objects/s")
	b.ReportMetric(float64(len(data))/float64(nodes+bound+pending+50), "fixture-B/object")
	b.ReportMetric(0, "ns/op")
}

// timed runs bin with args under /usr/bin/time -v, stdin fed from in when
// set, and returns its wall time in seconds, its peak RSS in MB and what it
// printed.
func timed(b *testing.B, bin string, in []byte, args ...string) (float64, float64, string) {
	b.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("/usr/bin/time", append([]string{"-v", bin}, args...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if in != nil {
		cmd.Stdin = bytes.NewReader(in)
	}
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	wall := time.Since(start).Seconds()
	var rss float64
	if m := maxRSS.FindStringSubmatch(stderr.String()); m != nil {
		kb, _ := strconv.ParseFloat(m[1], 64)
		rss = kb / 1024
	}
	return wall, rss, stdout.String()
}
