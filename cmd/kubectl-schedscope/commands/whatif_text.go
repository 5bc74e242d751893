package commands

import (
	"io"
	"strings"

	"github.com/schedscope/schedscope/recorder/export/text"

	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// textWriter is recorder/export/text's Writer with what only the commands
// word in text: a what-if, whose result is the engine's (scenario.WhatIf),
// which a renderer of recordings may not import.
type textWriter struct{ *text.Writer }

func newTextWriter(w io.Writer) *textWriter { return &textWriter{text.New(w)} }

// whatIf prints a what-if on the recorded cycle of fixture name for
// people: what was changed, the two outcomes, and the diff.
func (t *textWriter) whatIf(recorded *recorder.Cycle, name string, changes []recorder.Change, w *scenario.WhatIf, doc whatIfDocument) {
	t.Printf("what-if: pod %s, cycle %d (attempt %d) of %s\n", doc.Pod, recorded.Seq, recorded.Attempt, name)
	if len(changes) == 0 {
		t.Printf("changes: none (the cycle re-run as it was)\n")
	} else {
		t.Printf("changes:\n")
		for _, c := range changes {
			t.Printf("  - %s\n", narrate.Change(c))
		}
	}
	switch {
	case doc.Sampled && doc.BeforeRerun:
		note := "the re-run visited the same nodes as the recorded cycle"
		if doc.RecordedSampleDiffers {
			note = "the recorded cycle's parallel search visited other nodes than this re-run; both sides below come from re-runs, so the diff is the change's alone"
		}
		t.Printf("sampled search (%d of %d nodes): before and after are re-runs that filter in one goroutine from node %d; %s\n",
			recorded.NodesToFind, recorded.NumNodes(), w.SearchStart, note)
	case doc.Sampled:
		t.Printf("sampled search (%d of %d nodes): before and after both filter in one goroutine from node %d, so they visit nodes in the same order and the diff is the change's alone\n",
			recorded.NodesToFind, recorded.NumNodes(), w.SearchStart)
	}
	t.Printf("before: %s\n", summarizeLine(w.Before))
	t.Printf("after:  %s\n", summarizeLine(w.After))
	if w.ViaPreemption {
		t.Printf("        after its victims left, the retry bound it to %s\n", w.Landing)
	}
	t.Printf("\n")
	for _, l := range narrate.Diff(doc.Diff, text.MaxRows) {
		t.Printf("%s\n", l)
	}
}

// summarizeLine says how a cycle ended and over how many nodes.
func summarizeLine(c *recorder.Cycle) string {
	s := recorder.Summarize(c)
	parts := []string{narrate.SummaryOutcome(s)}
	if s.Result == recorder.ResultBound && c.Selection != nil {
		parts = append(parts, "("+narrate.Selection(c)+")")
	}
	return strings.Join(parts, " ")
}
