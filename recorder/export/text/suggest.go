package text

import (
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// Suggest prints what a search for changes found on the recorded cycle of
// the fixture named fixture: where the pod stands, each confirmed change,
// smallest first, with the command (commands[i]) that shows it as a
// what-if, and what the search did not try.
func (t *Writer) Suggest(fixture string, recorded *recorder.Cycle, res *recorder.SuggestResult, commands []string) {
	t.Printf("suggest: pod %s, cycle %d of %s\n", res.Pod, recorded.Seq, fixture)
	t.Printf("now: %s\n", narrate.SummaryOutcome(recorder.Summarize(recorded)))
	if res.Node != "" {
		t.Printf("asked: why not %s?\n", res.Node)
	}
	if res.Note != "" {
		t.Printf("%s\n", res.Note)
	}
	if res.Candidates == 0 {
		return
	}
	t.Printf("re-ran the cycle %d times (budget %d) over %d candidate change(s) drawn from its diagnosis\n", res.Tried, res.Budget, res.Candidates)
	if len(res.Suggestions) == 0 {
		t.Printf("no single change the search tried makes the pod schedulable\n")
	} else {
		t.Printf("%d change(s) make it schedulable, smallest first:\n", len(res.Suggestions))
		for i, s := range res.Suggestions {
			where := "lands on " + s.Node
			if s.ViaPreemption {
				where = "lands on " + s.Node + " after preempting"
			}
			t.Printf("  %d. %s → %s\n", i+1, s.Text, where)
			t.Printf("     %s\n", commands[i])
		}
	}
	if res.Unconfirmed > 0 {
		t.Printf("%d other change(s) were re-run and did not make it schedulable%s\n", res.Unconfirmed, onNode(res.Node))
	}
	if res.Cut {
		t.Printf("the budget cut the search: %d candidate(s) were not tried; raise --budget to try them\n", res.Candidates-(res.Tried-1))
	}
}

func onNode(n string) string {
	if n == "" {
		return ""
	}
	return " on " + n
}
