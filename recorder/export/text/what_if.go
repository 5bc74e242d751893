package text

import (
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// WhatIf prints a what-if on a recorded cycle of the fixture named fixture,
// for people: what was changed, the two outcomes, and the diff.
func (t *Writer) WhatIf(fixture string, changes []recorder.Change, w *recorder.WhatIf) {
	recorded := w.Recorded
	t.Printf("what-if: pod %s, cycle %d (attempt %d) of %s\n", recorded.Pod.Namespace+"/"+recorded.Pod.Name, recorded.Seq, recorded.Attempt, fixture)
	if len(changes) == 0 {
		t.Printf("changes: none (the cycle re-run as it was)\n")
	} else {
		t.Printf("changes:\n")
		for _, c := range changes {
			t.Printf("  - %s\n", narrate.Change(c))
		}
	}
	switch {
	case w.Sampled && w.BeforeRerun:
		note := "the re-run visited the same nodes as the recorded cycle"
		if w.RecordedSampleDiffers {
			note = "the recorded cycle's parallel search visited other nodes than this re-run; both sides below come from re-runs, so the diff is the change's alone"
		}
		t.Printf("sampled search (%d of %d nodes): before and after are re-runs that filter in one goroutine from node %d; %s\n",
			recorded.NodesToFind, recorded.NumNodes(), w.SearchStart, note)
	case w.Sampled:
		t.Printf("sampled search (%d of %d nodes): before and after both filter in one goroutine from node %d, so they visit nodes in the same order and the diff is the change's alone\n",
			recorded.NodesToFind, recorded.NumNodes(), w.SearchStart)
	}
	t.Printf("before: %s\n", outcomeLine(w.Before))
	t.Printf("after:  %s\n", outcomeLine(w.After))
	if w.ViaPreemption {
		t.Printf("        after its victims left, the retry bound it to %s\n", w.Landing)
	}
	t.Printf("\n")
	for _, l := range narrate.Diff(w.Diff, MaxRows) {
		t.Printf("%s\n", l)
	}
}

// outcomeLine says how a cycle ended and, when it bound the pod, by which
// rule the node was selected.
func outcomeLine(c *recorder.Cycle) string {
	s := recorder.Summarize(c)
	parts := []string{narrate.SummaryOutcome(s)}
	if s.Result == recorder.ResultBound && c.Selection != nil {
		parts = append(parts, "("+narrate.Selection(c)+")")
	}
	return strings.Join(parts, " ")
}
