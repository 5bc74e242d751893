package commands

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

// TestArrival runs a fixture with each arrival mode through record and
// explain: both bind every pod; a recording says how its pods arrived on
// stderr and that its clock was simulated.
func TestArrival(t *testing.T) {
	tests := []struct {
		name    string
		arrival []string
		want    string
	}{
		{name: "default", want: "sequential arrival"},
		{name: "sequential", arrival: []string{"--arrival", "sequential"}, want: "sequential arrival"},
		{name: "burst", arrival: []string{"--arrival", "burst"}, want: "burst arrival"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.rec")
			_, errOut, code := run(t, append([]string{"record", "-f", "resources-fit", "-o", path}, tc.arrival...)...)
			if code != 0 {
				t.Fatalf("record: exit %d: %s", code, errOut)
			}
			checkOneLine(t, errOut, tc.want)
			rec, err := recorder.LoadFile(path)
			if err != nil || len(rec.Problems) > 0 {
				t.Fatalf("LoadFile: %v %v", err, rec.Problems)
			}
			if rec.Header.Clock != recorder.ClockSimulated {
				t.Errorf("header clock %q, want %q", rec.Header.Clock, recorder.ClockSimulated)
			}
			for _, c := range rec.Cycles {
				if c.Outcome.Result != recorder.ResultBound {
					t.Errorf("cycle %d of %s: %s, want bound", c.Seq, c.Pod.Name, c.Outcome.Result)
				}
			}
			out, errOut, code := run(t, append([]string{"explain", "-f", "resources-fit", "-o", "json"}, tc.arrival...)...)
			if code != 0 || !strings.Contains(out, `"clock": "simulated"`) && !strings.Contains(out, `"clock":"simulated"`) {
				t.Errorf("explain: exit %d, stderr %q; output names no simulated clock", code, errOut)
			}
		})
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--arrival", "sideways"}, "--arrival must be sequential or burst"},
		{[]string{"--arrival-interval", "-1s"}, "--arrival-interval must be between 0 and 1m0s, not -1s"},
		{[]string{"--arrival-interval", "2m"}, "--arrival-interval must be between 0 and 1m0s, not 2m0s"},
		{[]string{"--arrival", "burst", "--arrival-interval", "1s"}, "--arrival-interval spaces sequential arrivals"},
	} {
		_, errOut, code := run(t, append([]string{"explain"}, bad.args...)...)
		if code == 0 || !strings.Contains(errOut, bad.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", bad.args, code, errOut, bad.want)
			continue
		}
		checkOneLine(t, errOut, bad.want)
	}
	if _, errOut, code := run(t, "explain", "-f", "topology-spread", "--arrival-interval", "10ms"); code != 0 {
		t.Errorf("--arrival-interval 10ms: exit %d, stderr %q", code, errOut)
	}
}
