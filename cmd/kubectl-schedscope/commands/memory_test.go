package commands

import "testing"

// The limit stays at softMemoryLimit for a small heap, then follows the
// live heap: 1.5 times it, or 3 times in a command that forks.
func TestMemoryLimitFollowsTheLiveHeap(t *testing.T) {
	defer follow.Store(follow.Load())
	follow.Store(followOne)
	const gib = 1 << 30
	for _, c := range []struct {
		live, want int64
		forks      bool
	}{
		{live: 100 << 20, want: softMemoryLimit},
		{live: gib, want: 3 * gib / 2},
		{live: 100 << 20, want: softMemoryLimit, forks: true},
		{live: gib, want: 3 * gib, forks: true},
	} {
		if c.forks {
			forkingMemory()
		}
		if got := limitFor(c.live); got != c.want {
			t.Errorf("live heap %d MiB (forks %v): limit %d MiB, want %d MiB", c.live>>20, c.forks, got>>20, c.want>>20)
		}
	}
}
