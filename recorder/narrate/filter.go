package narrate

import (
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/recorder"
)

// The words of the Filter phase that every view says the same way: the
// text output (explain), the TUI's phase views and node detail, and the
// live bindings.

// NotKept says a node passed every filter but was not kept: the search had
// found enough feasible nodes (percentageOfNodesToScore).
const NotKept = "passed, not kept: enough feasible nodes were found"

// NodesNotKept says how many nodes passed but were not kept.
func NodesNotKept(n int) string {
	return fmt.Sprintf("%d node(s) passed but were not kept: enough feasible nodes were found", n)
}

// NodeSubset says which PreFilter plugins narrowed Filter to which nodes,
// of how many (of, as analysis words a snapshot's size); at most max
// names are listed.
func NodeSubset(pf *recorder.PreFilterPhase, of string, max int) string {
	names := pf.NodeSubset
	more := ""
	if len(names) > max {
		names, more = names[:max], fmt.Sprintf(" and %d more", len(pf.NodeSubset)-max)
	}
	return fmt.Sprintf("%s narrowed filtering to %d of %s node(s): %s%s", strings.Join(pf.SubsetPlugins, ", "), len(pf.NodeSubset), of, strings.Join(names, ", "), more)
}

// PreFilterStopped says PreFilter rejected the pod, so no node was filtered.
func PreFilterStopped(pf *recorder.PreFilterPhase) string {
	return fmt.Sprintf("PreFilter returned %s: %s; no node was filtered", pf.Code, pf.Message)
}

// FastPath says which node a cycle tried before the full search and what
// came of it.
func FastPath(fp *recorder.FastPath) string {
	what := "the pod's nominated node (set by an earlier preemption)"
	if fp.Kind == recorder.FastPathBatch {
		what = "the opportunistic-batching hint (the next-best node of the previous pod with the same signature)"
	}
	if fp.Feasible {
		return fmt.Sprintf("fast path: %s %s passed every filter; it was chosen without searching or scoring other nodes", what, fp.Node)
	}
	why := fp.Code
	if len(fp.Reasons) > 0 {
		why += ": " + strings.Join(fp.Reasons, "; ")
	}
	return fmt.Sprintf("fast path: %s %s failed (%s); the full search follows", what, fp.Node, why)
}
