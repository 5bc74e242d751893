package commands

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/featuregates"
)

// TestCapacityPodGroup: capacity --pod-group train on the gang fixture
// says three more copies fit, names them, and says which member of the
// fourth fit nowhere for want of cpu; JSON holds the same; --min above
// what fits fails in one line.
func TestCapacityPodGroup(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	out, errOut, code := run(t, "capacity", "-f", gangFixture, gangGates, "--pod-group", "train")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"capacity: pod group default/train (Gang, minCount 2, 2 member(s))",
		"3 more copies fit (4 groups in all), each bound by its pod-group cycle: train-copy-1, train-copy-2, train-copy-3",
		"copy 4 (train-copy-4) does not bind: minCount (2) cannot be satisfied",
		"its member train-0-copy-4 fits nowhere: 0/2 nodes are available: 2 Insufficient cpu.",
		"cpu: the pod asks 500m; the 2 nodes NodeResourcesFit rejected have 0 free in all",
		"found by 4 run(s) of the fixture, at 0, 1, 2, 4 copies",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, errOut, code = run(t, "capacity", "-f", gangFixture, gangGates, "--pod-group", "default/train", "-o", "json")
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, errOut)
	}
	var res engine.GroupCapacityResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not the document: %v\n%s", err, out)
	}
	if !res.Bound || res.More != 3 || res.StoppedGroup != "train-copy-4" || len(res.Short) != 1 || res.Short[0].Resource != "cpu" {
		t.Errorf("json: %+v, want bound, 3 more, train-copy-4 stopped for cpu", res)
	}

	_, errOut, code = run(t, "capacity", "-f", gangFixture, gangGates, "--pod-group", "train", "--min", "5")
	if code == 0 || !strings.Contains(errOut, "--min 5: 4 of pod group default/train fit") || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
		t.Errorf("--min 5: exit %d, stderr %q: want a one-line failure saying 4 fit", code, errOut)
	}
	if _, errOut, code = run(t, "capacity", "-f", gangFixture, gangGates, "--pod-group", "train", "--min", "4"); code != 0 {
		t.Errorf("--min 4: exit %d: %s", code, errOut)
	}
}

// TestCapacityPodGroupRefusals: bad input is refused in one line.
func TestCapacityPodGroupRefusals(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"both", []string{"--pod-group", "train", "deploy/web"}, "a workload (deploy/web) or a pod group (--pod-group train), not both"},
		{"neither", nil, "name the workload as KIND/NAME"},
		{"unknown group", []string{"--pod-group", "trian"}, `no PodGroup "trian"`},
		{"too few members", []string{"--pod-group", "batch"}, "has 1 member(s), fewer than its minCount 2"},
		{"negative min", []string{"--pod-group", "train", "--min", "-1"}, "--min must be 0 or more"},
		{"bad output", []string{"--pod-group", "train", "-o", "xml"}, "xml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, append([]string{"capacity", "-f", gangFixture, gangGates}, tt.args...)...)
			if code == 0 || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("exit %d, stderr %q: want a one-line error saying %q", code, errOut, tt.want)
			}
		})
	}
}
