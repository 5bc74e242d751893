package text

import (
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/visible"
)

// Capacity prints capacity's answer on the fixture named fixture: how many
// more replicas of the workload fit and what stops the next one, and, when
// next is set, suggest's search on that replica (pod).
func (t *Writer) Capacity(fixture string, res *recorder.CapacityResult, next *recorder.SuggestResult, pod string) {
	t.Printf("capacity: %s %s/%s in %s\n", res.Kind, res.Namespace, res.Name, fixture)
	t.Printf("asks for %d, %d placed\n", res.Replicas, res.Placed)
	replica := res.Replicas + res.More + 1
	switch {
	case res.Placed < res.Replicas:
		replica = res.Placed + 1
		t.Printf("no more fit: it does not fit as it is; a replica stays pending: %s\n", visible.String(res.Stopped))
	case res.Limit > 0:
		t.Printf("at least %d more fit (%d in all): the search stops at %d more\n", res.More, res.Replicas+res.More, res.Limit)
	default:
		t.Printf("%d more fit (%d in all); replica %d stays pending: %s\n", res.More, res.Replicas+res.More, replica, visible.String(res.Stopped))
	}
	t.Printf("found by %d run(s) of the fixture, at %s replicas\n", len(res.Runs), joinInts(res.Runs))
	if sg := next; sg != nil {
		t.Printf("\nwhat would let replica %d (pod %s) fit, each change re-run on its last cycle:\n", replica, pod)
		switch {
		case sg.Note != "":
			t.Printf("  %s\n", sg.Note)
		case len(sg.Suggestions) == 0:
			t.Printf("  no single change of the %d tried (of %d drawn from its diagnosis) lets it fit\n", sg.Tried-1, sg.Candidates)
		}
		for i, s := range sg.Suggestions {
			where := "lands on " + s.Node
			if s.ViaPreemption {
				where += " after preempting"
			}
			t.Printf("  %d. %s → %s\n", i+1, s.Text, where)
		}
		if len(sg.Suggestions) > 0 {
			t.Printf("  (a change to the pod is to this replica alone; made in the template, it changes every replica)\n")
		}
		if sg.Cut {
			t.Printf("  the budget cut the search: %d candidate(s) were not tried; raise --budget to try them\n", sg.Candidates-(sg.Tried-1))
		}
	}
}
