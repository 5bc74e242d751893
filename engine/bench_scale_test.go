package engine

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
// peak RSS of explain, cold (no admitted-fixture cache: every command
// loads the snapshot) and cached (after a first question wrote the cache
// entry; that first question is reported too); sim's first frame and first
// cycle on screen, in tmux; in this process, how many fixture objects the
// loader decodes and admits per second; and at the cap on a fixture's
// objects (fixture.MaxObjects: the same cluster with more bound pods),
// explain's time and peak RSS, and the time and peak RSS of refusing a
// fixture one object over it. Each figure is the mean over
// b.N iterations (make bench asks for three: on a shared 2-core machine
// one run of a command moved by 10-30% from the next).
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
	// The same snapshot as YAML, each document as kubectl get -o yaml
	// writes one, and as one List, as kubectl get nodes,pods -A -o yaml
	// writes a cluster.
	asYAML, asList := filepath.Join(dir, "snapshot-as.yaml"), filepath.Join(dir, "list.yaml")
	docs, list, err := scale.AsYAML(data)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(asYAML, docs, 0o600); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(asList, list, 0o600); err != nil {
		b.Fatal(err)
	}
	// At the cap, and one object over it (50 namespaces).
	atCap := filepath.Join(dir, "cap.yaml")
	if err := os.WriteFile(atCap, scale.Snapshot(nodes, fixture.MaxObjects-nodes-pending-50, pending), 0o600); err != nil {
		b.Fatal(err)
	}
	overCap := filepath.Join(dir, "over.yaml")
	if err := os.WriteFile(overCap, scale.Snapshot(nodes, fixture.MaxObjects-nodes-pending-50+1, pending), 0o600); err != nil {
		b.Fatal(err)
	}
	stuck := fmt.Sprintf("pending-%d", pending-1)
	// cold: no admitted-fixture cache (every command loads the snapshot);
	// cached: the cache holds the snapshot, as after a first question.
	cold := append(os.Environ(), "SCHEDSCOPE_NO_CACHE=1")
	cached := append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	m := map[string]float64{}
	for i := 0; i < b.N; i++ {
		for _, mode := range []struct {
			name string
			env  []string
		}{{"", cold}, {"cached-", cached}} {
			if mode.name != "" {
				// The first question, which writes the cache entry: the
				// entry of an iteration before is removed.
				if err := os.RemoveAll(filepath.Join(dir, "cache")); err != nil {
					b.Fatal(err)
				}
				wall, _, _ := timed(b, bin, mode.env, nil, "explain", "-f", path, "--pod", "pending-7")
				m["explain-writing-cache-s"] += wall
			}
			wall, rss, out := timed(b, bin, mode.env, nil, "explain", "-f", path, "--pod", "pending-7")
			if !strings.Contains(out, "Bound on node-") {
				b.Fatalf("explain did not bind pending-7:\n%s", out)
			}
			m[mode.name+"explain-s"] += wall
			m[mode.name+"explain-peak-RSS-MB"] += rss
			if mode.name == "" {
				for _, f := range []struct{ path, name string }{{asYAML, "yaml"}, {asList, "list"}} {
					wall, _, out := timed(b, bin, mode.env, nil, "explain", "-f", f.path, "--pod", "pending-7")
					if !strings.Contains(out, "Bound on node-") {
						b.Fatalf("explain of the snapshot as %s did not bind pending-7:\n%s", f.name, out)
					}
					m[f.name+"-explain-s"] += wall
				}
			}
			wall, _, out = timed(b, bin, mode.env, data, "explain", "-f", "-", "--pod", "pending-7")
			if !strings.Contains(out, "Bound on node-") {
				b.Fatalf("explain -f - did not bind pending-7:\n%s", out)
			}
			m[mode.name+"explain-stdin-s"] += wall
			wall, _, out = timed(b, bin, mode.env, nil, "whatif", "-f", path, "--pod", "pending-7", "--set-weight", "NodeResourcesFit=5")
			if !strings.Contains(out, "pending-7") {
				b.Fatalf("whatif said nothing of pending-7:\n%s", out)
			}
			m[mode.name+"whatif-s"] += wall
			wall, _, out = timed(b, bin, mode.env, nil, "suggest", "-f", path, "--pod", stuck)
			if !strings.Contains(out, "make it schedulable") {
				b.Fatalf("suggest found nothing for %s:\n%s", stuck, out)
			}
			m[mode.name+"suggest-s"] += wall
		}
		wall, rss, out := timed(b, bin, cold, nil, "explain", "-f", atCap, "--pod", "pending-7")
		if !strings.Contains(out, "Bound on node-") {
			b.Fatalf("explain at the cap did not bind pending-7:\n%s", out)
		}
		m["cap-explain-s"] += wall
		m["cap-explain-peak-RSS-MB"] += rss
		wall, rss, msg := refused(b, bin, cold, "explain", "-f", overCap, "--pod", "pending-7")
		if want := fmt.Sprintf("error: %s:", overCap); !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, fmt.Sprintf("the fixture holds more than %d objects", fixture.MaxObjects)) {
			b.Fatalf("over the cap, explain said %q", msg)
		}
		m["over-cap-refused-s"] += wall
		m["over-cap-peak-RSS-MB"] += rss
		first, cycle := simFrames(b, bin, path, cold)
		m["sim-first-frame-s"] += first
		m["sim-first-cycle-s"] += cycle
		start := time.Now()
		fx, err := fixture.Load(path, data)
		if err != nil {
			b.Fatal(err)
		}
		m["objects/s"] += float64(len(fx.Objects)+len(fx.Pending)) / time.Since(start).Seconds()
	}
	m["yaml/json-explain"] = m["yaml-explain-s"] / m["explain-s"] * float64(b.N)
	m["list/json-explain"] = m["list-explain-s"] / m["explain-s"] * float64(b.N)
	for unit, v := range m {
		if v > 0 { // sim's frames are not measured without tmux
			b.ReportMetric(v/float64(b.N), unit)
		}
	}
	b.ReportMetric(float64(len(data))/float64(nodes+bound+pending+50), "fixture-B/object")
	b.ReportMetric(0, "ns/op")
}

// timed runs bin with args and env under /usr/bin/time -v, stdin fed from in when
// set, and returns its wall time in seconds, its peak RSS in MB and what it
// printed.
func timed(b *testing.B, bin string, env []string, in []byte, args ...string) (float64, float64, string) {
	b.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("/usr/bin/time", append([]string{"-v", bin}, args...)...)
	cmd.Stdout, cmd.Stderr, cmd.Env = &stdout, &stderr, env
	if in != nil {
		cmd.Stdin = bytes.NewReader(in)
	}
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return time.Since(start).Seconds(), peakRSS(stderr.String()), stdout.String()
}

// peakRSS reads the peak RSS in MB from /usr/bin/time -v's report, 0 when
// it holds none.
func peakRSS(report string) float64 {
	mb, _ := scale.PeakRSS(report)
	return mb
}

// refused runs bin with args as timed does, expecting it to fail, and
// returns its wall time in seconds, its peak RSS in MB and what it wrote
// to stderr: one line, or the benchmark fails.
func refused(b *testing.B, bin string, env []string, args ...string) (float64, float64, string) {
	b.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command("/usr/bin/time", append([]string{"-v", bin}, args...)...)
	cmd.Stderr, cmd.Env = &stderr, env
	start := time.Now()
	if err := cmd.Run(); err == nil {
		b.Fatalf("%s: succeeded", strings.Join(args, " "))
	}
	wall := time.Since(start).Seconds()
	// /usr/bin/time writes its report after the command's own output.
	out, report, _ := strings.Cut(stderr.String(), "\tCommand being timed")
	var said []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, "Command exited with non-zero status") {
			said = append(said, l)
		}
	}
	out = strings.Join(said, "\n")
	if strings.Contains(out, "\n") {
		b.Fatalf("%s: more than one line:\n%s", strings.Join(args, " "), out)
	}
	return wall, peakRSS(report), out
}

// simFrames starts `sim -f path` in a tmux pane of 200×50 and returns the
// seconds from its start to its first frame (the debugger saying it is
// loading the fixture) and to the first cycle on screen; 0, 0 without tmux.
func simFrames(b *testing.B, bin, path string, env []string) (first, cycle float64) {
	b.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		return 0, 0
	}
	dir := b.TempDir()
	// The first-run hint is not what this measures.
	if err := os.MkdirAll(filepath.Join(dir, "schedscope"), 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "schedscope", "first-run-seen"), nil, 0o600); err != nil {
		b.Fatal(err)
	}
	sock := filepath.Join(dir, "tmux.sock")
	start := time.Now()
	// A new tmux server, and the pane, take this command's environment.
	cmd := exec.Command(tmux, "-S", sock, "new-session", "-d", "-s", "sim", "-x", "200", "-y", "50", bin+" sim -f "+path+"; sleep 600")
	cmd.Env = append(env, "XDG_CONFIG_HOME="+dir, "TERM=xterm-256color")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("tmux: %v\n%s", err, out)
	}
	defer exec.Command(tmux, "-S", sock, "kill-server").Run()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		out, err := exec.Command(tmux, "-S", sock, "capture-pane", "-p", "-t", "sim").Output()
		if err != nil {
			b.Fatalf("tmux capture-pane: %v", err)
		}
		screen := string(out)
		if first == 0 && strings.Contains(screen, "loading the fixture") {
			first = time.Since(start).Seconds()
		}
		if strings.Contains(screen, "default/pending-0") {
			if first == 0 {
				first = time.Since(start).Seconds()
			}
			return first, time.Since(start).Seconds()
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatal("sim showed no cycle within 2 minutes")
	return 0, 0
}
