package recorder

import (
	"encoding/json"
	"strings"
	"testing"
)

// fuzzLimits keep fuzzed inputs cheap while exercising every bound.
var fuzzLimits = limits{header: 4 << 10, record: 64 << 10, ints: 1 << 16}

// intsIn counts the values of a cycle's Ints lists.
func intsIn(c *Cycle) int64 {
	var n int64
	if c.Filter != nil {
		n += int64(len(c.Filter.Feasible) + len(c.Filter.Discarded))
	}
	if c.Score != nil {
		n += int64(len(c.Score.Nodes) + len(c.Score.Totals))
		for _, p := range c.Score.Plugins {
			n += int64(len(p.Raw) + len(p.Normalized))
		}
	}
	if c.Selection != nil {
		n += int64(len(c.Selection.Top))
	}
	return n
}

// checkProblem fails unless err is a problem whose offset lies in the input
// and whose message is one line naming it.
func checkProblem(t *testing.T, err error, size int64) {
	t.Helper()
	if !IsProblem(err) {
		t.Fatalf("error %v (%T) is not a problem", err, err)
	}
	off := problemOffset(err)
	if off < 0 || off >= size {
		t.Fatalf("problem %q at offset %d, outside the %d-byte input", err, off, size)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "byte") || strings.Contains(msg, "line 0") {
		t.Fatalf("problem message %q: want one line naming its byte offset", msg)
	}
}

// cycleJSON is a cycle's own fields, for comparing cycles read two ways.
func cycleJSON(t *testing.T, c *Cycle) string {
	t.Helper()
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatalf("encoding a cycle that was read: %v", err)
	}
	return string(data)
}
