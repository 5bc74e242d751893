package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// TestRunSettlesOnErrors checks that a run answers at once when the scheduler
// can only fail with an error it would retry forever: a cluster with no nodes,
// an extender nobody listens on. Before, such runs waited out the settle
// timeout (a minute) and failed with "did not settle"; a regression fails the
// same way here.
func TestRunSettlesOnErrors(t *testing.T) {
	closed := filepath.Join(t.TempDir(), "extender.yaml")
	if err := os.WriteFile(closed, []byte(`apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: http://127.0.0.1:1/ext
  filterVerb: filter
  weight: 1
`), 0o600); err != nil {
		t.Fatal(err)
	}
	pods := `
apiVersion: v1
kind: Pod
metadata: {name: first}
spec: {containers: [{name: c, image: pause}]}
---
apiVersion: v1
kind: Pod
metadata: {name: second}
spec: {containers: [{name: c, image: pause}]}
`
	node := `apiVersion: v1
kind: Node
metadata: {name: only}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
`
	tests := []struct {
		name     string
		manifest string
		config   string
		result   string
		message  string
	}{
		{name: "no nodes", manifest: pods, result: recorder.ResultUnschedulable, message: "no nodes available to schedule pods"},
		{name: "unreachable extender", manifest: node + pods, config: closed, result: recorder.ResultError, message: "127.0.0.1:1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := LoadConfigFile(tc.config)
			if err != nil {
				t.Fatal(err)
			}
			res, cycles := runFixture(t, tc.name, []byte(tc.manifest), Options{Config: cfg, SettleTimeout: 30 * time.Second})
			if res.Cycles < 2 {
				t.Fatalf("got %d cycles, want one for each pod", res.Cycles)
			}
			seen := map[string]bool{}
			for _, c := range cycles {
				seen[c.Pod.Name] = true
				if c.Outcome.Result != tc.result || !strings.Contains(c.Outcome.Message, tc.message) {
					t.Errorf("cycle %d of %s: %s %q, want %s mentioning %q", c.Seq, c.Pod.Name, c.Outcome.Result, c.Outcome.Message, tc.result, tc.message)
				}
			}
			if got := fmt.Sprint(seen); got != "map[first:true second:true]" {
				t.Errorf("cycles for %s, want both pods", got)
			}
		})
	}
}

// TestSimClockSkipsToTheNextTimer checks that skipping fires the earliest
// timer at once and moves the clock by what was skipped: an hour's backoff
// costs no wall time. (A clock that failed to skip would leave the test
// waiting an hour, failing it by its timeout, never by a measured duration.)
func TestSimClockSkipsToTheNextTimer(t *testing.T) {
	c := newSimClock()
	before := c.Now()
	soon := c.NewTimer(time.Hour)
	later := c.NewTimer(2 * time.Hour)
	ticker := c.NewTicker(90 * time.Minute)
	defer ticker.Stop()
	if !c.skipToNextTimer() {
		t.Fatal("skipToNextTimer found no timer armed")
	}
	<-soon.C()
	if got := c.Skipped(); got < time.Hour-time.Minute || got > time.Hour {
		t.Errorf("skipped %v, want about an hour", got)
	}
	if c.Since(before) < time.Hour {
		t.Errorf("the clock moved %v, want at least the hour skipped", c.Since(before))
	}
	c.skipToNextTimer()
	<-ticker.C()
	if !later.Stop() {
		t.Error("Stop of the two-hour timer reported it had fired already")
	}
	c.skipToNextTimer() // the ticker, re-armed for 3 h
	<-ticker.C()
	select {
	case <-later.C():
		t.Error("a stopped timer fired")
	default:
	}
}

// TestRecordingSaysWhichClock checks that a fixture run's header names the
// simulated clock and cycles carry its time.
func TestRecordingSaysWhichClock(t *testing.T) {
	fx, err := fixture.Load("default", embedded(t, "default.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(t.Context(), fx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Header().Clock; got != recorder.ClockSimulated {
		t.Errorf("header clock %q, want %q", got, recorder.ClockSimulated)
	}
}
