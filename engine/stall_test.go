package engine

import (
	"testing"
	"time"
)

// A wait goes on past its limit while progress moves, and is stalled once
// progress has not moved for the limit, whatever time went before.
func TestStallJudgesProgress(t *testing.T) {
	const limit = time.Minute
	start := time.Unix(0, 0)
	tests := []struct {
		name string
		// progress[i] is the count seen at the i-th look, one every
		// 40 seconds.
		progress []int64
		want     []bool
	}{
		{"progress every look goes on for ever", []int64{1, 2, 3, 4, 5, 6, 7}, []bool{false, false, false, false, false, false, false}},
		{"no progress ends at the limit", []int64{0, 0, 0}, []bool{false, true, true}},
		{"progress, then none for the limit", []int64{0, 5, 9, 9, 9, 9}, []bool{false, false, false, false, true, true}},
		{"progress late restarts the limit", []int64{0, 0, 1, 1, 1}, []bool{false, true, false, false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n int64
			s := newStall(func() int64 { return n }, limit, start)
			for i, p := range tt.progress {
				n = p
				now := start.Add(time.Duration(i+1) * 40 * time.Second)
				if got := s.stalled(now); got != tt.want[i] {
					t.Errorf("look %d (progress %d, at %v): stalled = %v, want %v", i, p, now.Sub(start), got, tt.want[i])
				}
			}
		})
	}
	if got, want := stuck(limit, "3 pod(s) in a cycle or binding").Error(),
		"scheduler stuck: no cycle finished and no object written for 1m0s; still 3 pod(s) in a cycle or binding"; got != want {
		t.Errorf("stuck = %q, want %q", got, want)
	}
}
