package text

import (
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// RunDiff prints a diff of two runs: each pod that changed, with its
// cycle diff, then how many went the same way. recordings says the two
// sides are recordings, whose sampled searches may have raced.
func (t *Writer) RunDiff(doc *recorder.RunDiff, recordings bool) {
	t.Printf("diff: A = %s, B = %s\n", doc.A, doc.B)
	if doc.Note != "" {
		t.Printf("note: %s\n", doc.Note)
	}
	for _, p := range doc.Problems {
		t.Printf("problem: %s\n", p)
	}
	t.Printf("%d of %d pod(s) changed\n", doc.Changed, len(doc.Pods))
	for _, p := range doc.Pods {
		if !p.Changed {
			continue
		}
		t.Printf("\n%s: %s  →  %s\n", p.Pod, sideLine(p.A), sideLine(p.B))
		if p.Diff != nil {
			for _, l := range narrate.Diff(p.Diff, 10) {
				t.Printf("  %s\n", l)
			}
			if p.Diff.Sampling != nil && recordings {
				t.Printf("  (a sampled search: kube-scheduler's parallel filter picks the sample anew each run, so part of this may be that race, not the change)\n")
			}
		}
	}
	same := len(doc.Pods) - doc.Changed
	if same > 0 {
		t.Printf("\n%d pod(s) went the same way in both\n", same)
	}
}

// sideLine is where a pod went on one side of a diff.
func sideLine(s *recorder.DiffSide) string {
	switch {
	case s == nil:
		return "(no cycle)"
	case s.Outcome == recorder.ResultBound:
		return s.Node
	}
	return s.Outcome
}
