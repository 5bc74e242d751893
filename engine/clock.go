package engine

import (
	"sync/atomic"
	"time"
	_ "unsafe" // for go:linkname

	fwk "k8s.io/kube-scheduler/framework"
)

// nanotime is the runtime's monotonic clock. Filter and Score wrappers time
// every plugin call on every node; time.Now also reads the wall clock, which
// doubled the cost of timing on the scheduler's hottest path.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// Sampling: on clusters of up to timeAllNodes nodes every call is timed; on
// larger ones, calls on about one node in sampleEvery (picked by the node's
// cache generation), and the sum is scaled up to all calls. A plugin's Filter
// runs thousands of times per cycle on a large cluster, and reading the clock
// around each call cost more than many plugins themselves; upstream samples its
// plugin metrics likewise.
const (
	timeAllNodes = 64
	sampleEvery  = 16
)

// sampled reports whether calls on node should be timed.
func sampled(timeAll bool, node fwk.NodeInfo) bool {
	return timeAll || node.GetGeneration()%sampleEvery == 0
}

// callTimer sums the sampled call durations of one plugin in one cycle.
type callTimer struct {
	timed, nanos atomic.Int64
}

// begin returns a call's start time, or 0 if it is not sampled.
func (t *callTimer) begin(sample bool) int64 {
	if sample {
		return nanotime()
	}
	return 0
}

// end records a sampled call.
func (t *callTimer) end(start int64) {
	if start != 0 {
		t.nanos.Add(nanotime() - start)
		t.timed.Add(1)
	}
}

// total estimates the summed time of calls calls from the sampled ones.
func (t *callTimer) total(calls int) time.Duration {
	timed := t.timed.Load()
	if timed == 0 {
		return 0
	}
	return time.Duration(t.nanos.Load() * int64(calls) / timed)
}
