package recorder

import (
	"encoding/json"
	"slices"
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

// useCycle does with a cycle what the text output, the export and the TUI
// do: it names every node index and reads every score, each with the
// index the cycle holds. It panics on an index out of range. (The export
// and the wording are fuzzed in their own packages.)
func useCycle(c *Cycle) {
	for i := range c.NumNodes() {
		c.NodeName(i)
	}
	if f := c.Filter; f != nil {
		for _, r := range f.Rejected {
			if r.Plugin >= 0 {
				_ = f.Plugins[r.Plugin]
			}
		}
		for _, i := range append(slices.Clone(f.Feasible), f.Discarded...) {
			if c.Nodes != nil {
				_ = c.Nodes.Names[i]
			}
		}
	}
	if d := c.Diagnostic; d != nil {
		for _, cell := range d.Cells {
			_ = d.Plugins[cell.Plugin]
		}
	}
	if s := c.Score; s != nil {
		for i, n := range s.Nodes {
			if c.Nodes != nil {
				_ = c.Nodes.Names[n]
			}
			for p := range s.Plugins {
				s.Weighted(p, i)
			}
			s.Contributions(0, i)
		}
	}
	if s := c.Selection; s != nil {
		for _, i := range s.Top {
			if c.Nodes != nil {
				_ = c.Nodes.Names[i]
			}
		}
	}
	c.WinnerRow()
}
