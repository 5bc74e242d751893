package commands

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/schedscope/schedscope/fixtures"
)

// everyWorkload holds every kind of workload the controllers make pods for
// (Deployment, ReplicaSet, ReplicationController, StatefulSet with claim
// templates, DaemonSet, indexed Job), a budget and a bare pod, in two
// namespaces that are not default, on nodes alike enough that ties are
// common.
const everyWorkload = "testdata/every-workload.yaml"

// runsEach is how many runs of a fixture the determinism tests compare
// (SCHEDSCOPE_DETERMINISM_RUNS sets another number, for a longer run by hand).
func runsEach(t *testing.T, def int) int {
	t.Helper()
	if v := os.Getenv("SCHEDSCOPE_DETERMINISM_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 2 {
			t.Fatalf("SCHEDSCOPE_DETERMINISM_RUNS=%q: want a whole number of at least 2", v)
		}
		return n
	}
	return def
}

// controllerFixtures are the embedded fixtures whose workloads the
// controllers make pods for, written to dir, and everyWorkload.
func controllerFixtures(t *testing.T, dir string) []string {
	t.Helper()
	paths := []string{everyWorkload}
	for _, name := range fixtures.Names() {
		data, err := fixtures.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`(?m)^kind: (Deployment|ReplicaSet|StatefulSet|DaemonSet|Job|ReplicationController)$`).Match(data) {
			continue
		}
		if name == "budgets" || name == "budgets.yaml" {
			// Its preemption chooses among replicas alike in priority and
			// started in the same second: the order of the node's pods in
			// the scheduler's cache decides, which follows when each pod's
			// status was last written (README says so).
			continue
		}
		p := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if len(paths) < 4 {
		t.Fatalf("want several fixtures with workloads, got %v", paths)
	}
	return paths
}

// TestExplainIsAFunctionOfItsInputs: the same fixture gives the same
// explain -o json every run, byte for byte once what measures time is
// masked: the same cycles in the same order, the same pod names and UIDs,
// the same placements and scores. Masked are times and durations, and the
// numbers that order the queue's events among pods: a pod's binding cycle
// runs beside the next pod's scheduling cycle, as in kube-scheduler, and
// which of the two reaches the queue first is a matter of time too.
func TestExplainIsAFunctionOfItsInputs(t *testing.T) {
	runs := runsEach(t, 20)
	for _, path := range controllerFixtures(t, t.TempDir()) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".yaml"), func(t *testing.T) {
			outs := inParallel(t, runs, func(i int) (string, error) {
				out, errOut, code := run(t, "explain", "-f", path, "-o", "json")
				if code != 0 {
					return "", fmt.Errorf("run %d: exit %d: %s", i+1, code, errOut)
				}
				return maskTimes(out)
			})
			if !strings.Contains(outs[0], `"cycles":[{`) {
				t.Fatalf("no cycle in the first run: %.300s", outs[0])
			}
			for i, got := range outs[1:] {
				if got != outs[0] {
					t.Fatalf("run %d differs from run 1 at: %s", i+2, firstDifference(outs[0], got))
				}
			}
		})
	}
}

// TestDiffOfAConfigurationAgainstItself: the CI gate diff is for says
// nothing changed, every time, on a fixture with every workload kind.
func TestDiffOfAConfigurationAgainstItself(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	inParallel(t, runsEach(t, 100), func(i int) (string, error) {
		out, errOut, code := run(t, "diff", "-f", everyWorkload, "--config", cfg, "--with-config", cfg)
		if code != 0 || !strings.Contains(out, "0 of 20 pod(s) changed") {
			return "", fmt.Errorf("run %d: exit %d, want 0 with all 20 pods compared and none changed:\n%s%s", i+1, code, out, errOut)
		}
		return out, nil
	})
}

// inParallel calls f(0) … f(n-1), several at once (a run mostly waits
// for its controllers; runs side by side also vary its timing the more),
// and returns their results in order; the first error fails the test.
func inParallel(t *testing.T, n int, f func(i int) (string, error)) []string {
	t.Helper()
	out := make([]string, n)
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, 6) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				out[i], errs[i] = f(i)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// timeLike matches a value that states a time or a duration.
var timeLike = regexp.MustCompile(`^(\d{4}-\d\d-\d\dT.*|[0-9.]+(ns|µs|ms|s|m|h)|([0-9.]+[hm])+[0-9.]+(ms|s))$`)

// maskTimes rewrites an explain -o json with every time, duration and
// queue-event sequence number replaced by null, keys sorted.
func maskTimes(out string) (string, error) {
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return "", fmt.Errorf("explain -o json: %v", err)
	}
	var mask func(v any, inQueue bool) any
	mask = func(v any, inQueue bool) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				switch {
				case k == "start" || k == "created" || k == "duration" || k == "time":
					x[k] = nil
				case k == "seq" && inQueue:
					x[k] = nil
				default:
					x[k] = mask(e, inQueue || k == "queue")
				}
			}
		case []any:
			for i, e := range x {
				x[i] = mask(e, inQueue)
			}
		case string:
			if timeLike.MatchString(x) {
				return nil
			}
		}
		return v
	}
	b, err := json.Marshal(mask(v, false))
	return string(b), err
}

// firstDifference shows where a and b first differ.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	return "\n  run 1: …" + a[from:min(len(a), i+100)] + "\n  later: …" + b[from:min(len(b), i+100)]
}
