package text

import (
	"strconv"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/visible"
)

// GroupCapacity prints capacity --pod-group's answer for group in the
// fixture named fixture: how many more copies of it fit, the copy that
// does not bind and why, and the runs that found it.
func (t *Writer) GroupCapacity(fixture string, group recorder.PodGroupRef, res *recorder.GroupCapacityResult) {
	policy := res.Policy
	if res.MinCount > 0 {
		policy += ", minCount " + strconv.Itoa(int(res.MinCount))
	}
	t.Printf("capacity: pod group %s (%s, %d member(s)) in %s\n", visible.String(group.Key()), policy, res.Members, fixture)
	switch {
	case !res.Bound && res.Policy == recorder.PolicyBasic:
		t.Printf("no copy fits: not every member of the group binds as it is: %s\n", visible.String(res.Stopped))
	case !res.Bound:
		t.Printf("no copy fits: the group itself does not bind: %s\n", visible.String(res.Stopped))
	case res.Limit > 0:
		t.Printf("at least %d more copies fit (%d groups in all): the search stops at %d\n", res.More, res.More+1, res.Limit)
	default:
		if res.More == 0 {
			t.Printf("it binds; no copy of it fits beside it\n")
		} else {
			how := "each bound by its pod-group cycle"
			if res.Policy == recorder.PolicyBasic {
				how = "each with every member bound"
			}
			t.Printf("%d more copies fit (%d groups in all), %s: %s\n", res.More, res.More+1, how, strings.Join(res.Copies, ", "))
		}
		t.Printf("copy %d (%s) does not bind: %s\n", res.More+1, res.StoppedGroup, visible.String(res.Stopped))
	}
	if res.Member != "" {
		t.Printf("  its member %s fits nowhere: %s\n", res.Member, visible.String(res.MemberMessage))
		for _, s := range res.Short {
			t.Printf("  %s\n", narrate.ResourceFree(s))
		}
	}
	t.Printf("found by %d run(s) of the fixture, at %s copies\n", len(res.Runs), joinInts(res.Runs))
}

// joinInts writes ns as "1, 2, 4".
func joinInts(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ", ")
}
