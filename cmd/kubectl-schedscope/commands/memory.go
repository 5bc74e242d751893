package commands

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// The process's memory policy. Go collects when the heap has grown past
// what the last collection left live by GOGC percent (100 by default; a
// command that runs a fixture sets 300, simulate.go). Loading a large
// snapshot makes garbage several times the size of what it keeps: a
// 40 000-pod snapshot peaked at 850 MB of memory for 300 MB live. A soft
// limit of softMemoryLimit makes the collector work harder as the heap
// nears it; on that snapshot the peak came down to about 570 MB (about
// 640 MB at a limit of 512 MiB, 600 MB at 470 MiB, 520 MB at 400 MiB, where
// the collector began to cost whole seconds; measured by hand, explain cold
// and cached, two runs each).
//
// The limit then follows the live heap, staying at a multiple of it once
// that is larger: a run that keeps more than the limit live (a larger
// cluster, a long live session) is collected as GOGC=50 would (1.5 times),
// rather than collected without end at the limit. A command that builds a
// scheduler for forks of the cluster (whatif, suggest) keeps two or three
// schedulers' caches live at once; at 1.5 times the collector took a third
// of its CPU, and it follows at 3 times instead (forkingMemory).
// GOMEMLIMIT set by the user wins.
const softMemoryLimit = 448 << 20

// Multiples of the live heap the limit follows, in tenths.
const (
	followOne   = 15
	followForks = 30
)

// follow is the multiple in force, in tenths.
var follow atomic.Int64

// LimitMemory sets the memory policy for the rest of the process.
func LimitMemory() {
	follow.Store(followOne)
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	debug.SetMemoryLimit(softMemoryLimit)
	go followLiveHeap(250 * time.Millisecond)
}

// forkingMemory lets the heap grow further past what is live, for a
// command that runs several schedulers over one cluster.
func forkingMemory() { follow.Store(followForks) }

// followLiveHeap sets the memory limit to the larger of softMemoryLimit
// and the follow multiple of the live heap, every period.
func followLiveHeap(period time.Duration) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	limit := int64(softMemoryLimit)
	for range time.Tick(period) {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		want := limitFor(int64(sample[0].Value.Uint64()))
		if want != limit {
			limit = want
			debug.SetMemoryLimit(limit)
		}
	}
}

// limitFor is the memory limit for a live heap of live bytes.
func limitFor(live int64) int64 {
	return max(softMemoryLimit, live*follow.Load()/10)
}
