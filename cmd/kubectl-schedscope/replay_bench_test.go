package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder"
)

// benchRecordingNodes is the cluster size of the replay benchmark's recording.
const benchRecordingNodes = 5000

// benchRecording returns a recording of at least size bytes of 5 000-node
// cycles: the file named by $SCHEDSCOPE_BENCH_RECORDING, or one in the
// temporary directory, written once and reused by later runs.
func benchRecording(tb testing.TB, size int64) string {
	tb.Helper()
	path := os.Getenv("SCHEDSCOPE_BENCH_RECORDING")
	if path == "" {
		path = filepath.Join(os.TempDir(), fmt.Sprintf("schedscope-bench-%dMB-%dnodes.rec", size>>20, benchRecordingNodes))
	}
	if st, err := os.Stat(path); err == nil && st.Size() >= size {
		return path
	}
	tmp := path + ".writing"
	f, err := os.Create(tmp)
	if err != nil {
		tb.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w, err := recorder.NewWriter(bw, recorder.Header{KubernetesVersion: "v1.37.1", Source: recorder.Source{Kind: "fixture", Name: "bench"}})
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	var set *recorder.NodeSet
	for seq := 1; ; seq++ {
		if (seq-1)%1000 == 0 {
			set = &recorder.NodeSet{ID: (seq-1)/1000 + 1, Names: make([]string, benchRecordingNodes)}
			for k := range set.Names {
				set.Names[k] = fmt.Sprintf("node-%d-%d", set.ID, k)
			}
		}
		if err := w.WriteCycle(benchCycle(rng, seq, set)); err != nil {
			tb.Fatal(err)
		}
		if seq%1000 == 0 {
			if st, err := f.Stat(); err == nil && st.Size()+int64(bw.Buffered()) >= size {
				break
			}
		}
	}
	if err := bw.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		tb.Fatal(err)
	}
	return path
}

// benchCycle is a cycle as the default profile records it on a large
// cluster: a tenth of the nodes scored, some scores constant and some
// varying; one cycle in fifty is unschedulable, with every node rejected.
func benchCycle(rng *rand.Rand, seq int, set *recorder.NodeSet) *recorder.Cycle {
	n := len(set.Names)
	c := &recorder.Cycle{
		Seq: seq, Pod: recorder.PodRef{Namespace: "default", Name: fmt.Sprintf("pod-%d", seq), UID: fmt.Sprintf("uid-%d", seq)},
		Profile: "default-scheduler", Attempt: 1, Nodes: set,
		Start:    time.Unix(1_800_000_000, 0).Add(time.Duration(seq) * time.Millisecond),
		Duration: time.Duration(500+rng.Intn(3000)) * time.Microsecond,
	}
	plugins := []string{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit", "VolumeRestrictions", "VolumeBinding", "PodTopologySpread", "InterPodAffinity"}
	if seq%50 == 0 {
		rejected := make([]recorder.NodeStatus, n)
		for i := range rejected {
			rejected[i] = recorder.NodeStatus{Node: i, Plugin: 5, Code: recorder.CodeUnschedulable, Reasons: []string{"Insufficient cpu"}}
		}
		c.Filter = &recorder.FilterPhase{Plugins: plugins, Rejected: rejected, Evaluated: n}
		c.PostFilter = &recorder.PostFilterPhase{Code: recorder.CodeUnschedulable, Plugins: []recorder.PluginStatus{{Plugin: "DefaultPreemption", Code: recorder.CodeUnschedulable}}}
		c.Outcome = recorder.Outcome{Result: recorder.ResultUnschedulable, Message: fmt.Sprintf("0/%d nodes are available: %d Insufficient cpu.", n, n)}
		return c
	}
	k := max(1, n/10)
	start := rng.Intn(n)
	feasible := make([]int, k)
	for i := range feasible {
		feasible[i] = (start + i) % n
	}
	sp := &recorder.ScorePhase{Nodes: feasible, Totals: make([]int64, k)}
	for p, name := range []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "VolumeBinding", "PodTopologySpread", "InterPodAffinity", "NodeResourcesBalancedAllocation", "ImageLocality"} {
		pl := recorder.ScorePlugin{Name: name, Weight: int64(1 + p%3), Raw: make([]int64, k)}
		for i := range pl.Raw {
			if p%2 == 1 {
				pl.Raw[i] = int64(rng.Intn(100))
			}
			sp.Totals[i] += pl.Raw[i] * pl.Weight
		}
		sp.Plugins = append(sp.Plugins, pl)
	}
	node := set.Names[feasible[0]]
	c.Filter = &recorder.FilterPhase{Plugins: plugins, Feasible: feasible, Evaluated: k}
	c.Score = sp
	c.Selection = &recorder.Selection{Node: node, Rule: recorder.RuleHighestScore}
	c.Outcome = recorder.Outcome{Result: recorder.ResultBound, Node: node}
	c.NodeUse = []recorder.NodeUse{{Node: feasible[0], Generation: int64(seq), Requested: map[string]int64{"cpu": 500, "memory": 1 << 30}, Pods: []recorder.PodRef{{Namespace: "default", Name: fmt.Sprintf("pod-%d", seq)}}}}
	return c
}

// BenchmarkReplayBinary measures replay as users run it: the built binary,
// in a tmux pane of 200×50, over a 1 GB recording of 5 000-node cycles.
// It reports the time from starting the process to the first frame showing
// a cycle, the rate at which the whole file was indexed (from the start to
// the first frame after indexing ended), the time from a :cycle command to
// the frame showing that cycle (for random cycles, the median and the
// slowest), and the process's peak RSS (/usr/bin/time -v). The times of the
// frames come from the TUI itself (SCHEDSCOPE_TRACE).
func BenchmarkReplayBinary(b *testing.B) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		b.Fatal("tmux is needed to run replay in a terminal")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		b.Fatal("/usr/bin/time (GNU time) is needed for the peak RSS")
	}
	path := benchRecording(b, 1<<30)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "kubectl-schedscope")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	var first, main, index, rss, seekMedian, seekMax []float64
	for i := 0; i < b.N; i++ {
		r := runReplay(b, tmux, bin, path, filepath.Join(dir, fmt.Sprint(i)))
		first = append(first, r.firstFrame.Seconds()*1000)
		main = append(main, r.mainFrame.Seconds()*1000)
		index = append(index, float64(st.Size())/1e6/r.indexed.Seconds())
		rss = append(rss, float64(r.rssKB)/1024)
		slices.Sort(r.seeks)
		seekMedian = append(seekMedian, r.seeks[len(r.seeks)/2].Seconds()*1000)
		seekMax = append(seekMax, r.seeks[len(r.seeks)-1].Seconds()*1000)
	}
	b.ReportMetric(float64(st.Size())/1e9, "file-GB")
	b.ReportMetric(slices.Max(first), "first-frame-ms")
	b.ReportMetric(slices.Max(main), "command-to-first-frame-ms")
	b.ReportMetric(slices.Min(index), "index-MB/s")
	b.ReportMetric(slices.Max(seekMedian), "seek-p50-ms")
	b.ReportMetric(slices.Max(seekMax), "seek-max-ms")
	b.ReportMetric(slices.Max(rss), "peak-RSS-MB")
}

// replayRun is what one run of replay measured.
type replayRun struct {
	// firstFrame counts from starting the process, mainFrame from the
	// start of the command (after the program's initialization).
	firstFrame, mainFrame, indexed time.Duration
	seeks                          []time.Duration
	rssKB                          int64
}

// runReplay runs replay over path in tmux, waits for the index, asks for
// 20 random cycles with :cycle, quits and reads the trace and the RSS.
func runReplay(b *testing.B, tmux, bin, path, work string) replayRun {
	b.Helper()
	if err := os.MkdirAll(work, 0o755); err != nil {
		b.Fatal(err)
	}
	sock, trace, timing := filepath.Join(work, "tmux.sock"), filepath.Join(work, "trace"), filepath.Join(work, "time")
	sh := func(args ...string) string {
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			b.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	screen := func() string { return sh("capture-pane", "-p", "-t", "bench") }
	waitFor := func(what string, limit time.Duration, ok func(string) bool) string {
		deadline := time.Now().Add(limit)
		for {
			s := screen()
			if ok(s) {
				return s
			}
			if time.Now().After(deadline) {
				b.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	start := time.Now()
	sh("new-session", "-d", "-s", "bench", "-x", "200", "-y", "50",
		fmt.Sprintf("env TERM=xterm-256color SCHEDSCOPE_TRACE=%s /usr/bin/time -v -o %s %s replay --follow=false %s; sleep 600", trace, timing, bin, path))
	defer exec.Command(tmux, "-S", sock, "kill-server").Run()
	s := waitFor("the index", 5*time.Minute, func(s string) bool { return strings.Contains(s, "■ done") })
	m := regexp.MustCompile(`(\d+) cycles:`).FindStringSubmatch(s)
	if m == nil {
		b.Fatalf("no cycle count on the screen:\n%s", s)
	}
	n, _ := strconv.Atoi(m[1])
	rng := rand.New(rand.NewSource(3))
	for k := 0; k < 20; k++ {
		seq := 1 + rng.Intn(n)
		sh("send-keys", "-t", "bench", ":", fmt.Sprintf("cycle %d", seq), "Enter")
		waitFor(fmt.Sprintf("cycle %d", seq), 30*time.Second, func(s string) bool {
			return strings.Contains(s, fmt.Sprintf("cycles › cycle %d ›", seq)) && !strings.Contains(s, "reading cycle")
		})
		sh("send-keys", "-t", "bench", "Escape")
		time.Sleep(100 * time.Millisecond)
	}
	sh("send-keys", "-t", "bench", "q")
	var r replayRun
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, _ := os.ReadFile(timing)
		if m := regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`).FindSubmatch(data); m != nil {
			r.rssKB, _ = strconv.ParseInt(string(m[1]), 10, 64)
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("replay did not quit; screen:\n%s", screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		b.Fatal(err)
	}
	var started, firstCycle int64
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		name, value, _ := strings.Cut(line, " ")
		v, _ := strconv.ParseInt(value, 10, 64)
		switch name {
		case "started":
			started = v
		case "first-cycle":
			firstCycle = v
			r.firstFrame = time.Unix(0, v).Sub(start)
		case "indexed":
			r.indexed = time.Unix(0, v).Sub(start)
		case "seek":
			r.seeks = append(r.seeks, time.Duration(v))
		}
	}
	r.mainFrame = time.Duration(firstCycle - started)
	if r.firstFrame <= 0 || r.indexed <= 0 || len(r.seeks) != 20 || started == 0 {
		b.Fatalf("trace %q: want the first frame, the end of indexing and 20 seeks", data)
	}
	return r
}

func TestWriteBenchRecording(t *testing.T) {
	if os.Getenv("SCHEDSCOPE_BENCH_RECORDING") == "" {
		t.Skip("writes the replay benchmark's recording to $SCHEDSCOPE_BENCH_RECORDING")
	}
	path := benchRecording(t, 1<<30)
	st, _ := os.Stat(path)
	t.Logf("%s: %d bytes", path, st.Size())
}
