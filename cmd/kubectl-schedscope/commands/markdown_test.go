package commands

import (
	"strings"
	"testing"
)

// explain -o markdown writes each cycle as a section with GitHub tables:
// every row of a table has as many cells as its header, the rejecting
// plugin is marked, the chosen node is bold, the losers say why.
func TestExplainMarkdown(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"explain", "-f", "preemption", "-o", "markdown"}, []string{
			`# Scheduling cycles of fixture \(embedded\) preemption`,
			"## Cycle 1 · `default/urgent` · ✗ Unschedulable; preemption nominated node-1",
			"> 0/2 nodes are available: 2 Insufficient cpu.",
			"| node-1 | ✓ | ✓ | ✓ | ↷ | ↷ | **✗** |",
			"### PostFilter (preemption)",
			"- candidate `node-1`: evict `default/filler-1` (priority 100) — **nominated**",
			`fast path: the pod's nominated node \(set by an earlier preemption\) node-1 passed every filter`,
		}},
		{[]string{"explain", "--pod", "web", "-o", "markdown"}, []string{
			"| **node-a** ★ | 300 | 90 | 0 | 0 | 73 | 0 | 463 |",
			"- node-d lost by 11: NodeResourcesFit −9, NodeResourcesBalancedAllocation −2",
			"## Story of `default/web` (Bound)",
		}},
	} {
		out, errOut, code := run(t, tt.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errOut)
		}
		for _, want := range tt.want {
			if !strings.Contains(out, want) {
				t.Errorf("%v: the Markdown lacks %q:\n%s", tt.args, want, out)
			}
		}
		// Every table row has its header's number of cells.
		cells := -1
		for _, l := range strings.Split(out, "\n") {
			if !strings.HasPrefix(l, "|") {
				cells = -1
				continue
			}
			n := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|")
			if cells < 0 {
				cells = n
			} else if n != cells {
				t.Errorf("%v: a row of %d cells under a header of %d: %q", tt.args, n-1, cells-1, l)
			}
		}
	}
	if _, errOut, code := run(t, "replay", "../../../tui/testdata/default.rec", "--no-tui", "-o", "markdown"); code != 0 || errOut != "" {
		t.Errorf("replay --no-tui -o markdown: exit %d: %s", code, errOut)
	}
}
