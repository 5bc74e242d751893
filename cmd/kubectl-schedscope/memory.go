package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The process's memory policy. Go collects when the heap has grown past
// what the last collection left live by GOGC percent (100 by default; a
// command that runs a fixture sets 300, commands/simulate.go). Loading a
// large snapshot makes garbage several times the size of what it keeps:
// a 40 000-pod snapshot peaked at 850 MB of memory for 300 MB live. A soft
// limit of softMemoryLimit makes the collector work harder as the heap
// nears it; on that snapshot the peak came down to about 640 MB, at about
// the same time as before (make bench, BenchmarkSnapshotScale).
//
// The limit then follows the live heap, staying at 1.5 times it once that
// is larger: a run that keeps more than the limit live (a larger cluster,
// the three schedulers of a what-if, a long live session) is collected as
// GOGC=50 would, rather than collected without end at the limit.
// GOMEMLIMIT set by the user wins.
const softMemoryLimit = 512 << 20

func limitMemory() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	debug.SetMemoryLimit(softMemoryLimit)
	go followLiveHeap(250 * time.Millisecond)
}

// followLiveHeap sets the memory limit to the larger of softMemoryLimit
// and 1.5 times the live heap, every period.
func followLiveHeap(period time.Duration) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	limit := int64(softMemoryLimit)
	for range time.Tick(period) {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		want := max(softMemoryLimit, int64(sample[0].Value.Uint64())*3/2)
		if want != limit {
			limit = want
			debug.SetMemoryLimit(limit)
		}
	}
}
