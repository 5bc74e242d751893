package text

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/schedscope/schedscope/recorder"
)

// GroupSuggest prints what suggest --pod-group found for group in the
// fixture named fixture: where the group stands, each confirmed change,
// smallest first, with where its run bound the members and the whatif
// command (commands[i], "" for none) that shows it.
func (t *Writer) GroupSuggest(fixture string, group recorder.PodGroupRef, res *recorder.GroupSuggestResult, commands []string) {
	t.Printf("suggest: pod group %s in %s\n", group.Key(), fixture)
	if b := res.Baseline; b != nil {
		if b.Outcome.Message == "" {
			t.Printf("now: %s\n", b.Outcome.Result)
		} else {
			t.Printf("now: %s: %s\n", b.Outcome.Result, b.Outcome.Message)
		}
	}
	if res.Note != "" {
		t.Printf("%s\n", res.Note)
		return
	}
	t.Printf("ran the fixture again %d times, one per candidate change drawn from the group's last cycle\n", res.Tried)
	if len(res.Suggestions) == 0 {
		t.Printf("no single change the search tried lets the group bind\n")
	} else {
		t.Printf("%d change(s) let it bind, smallest first:\n", len(res.Suggestions))
		for i, s := range res.Suggestions {
			what := GroupSuggestion(group, s)
			var placed []string
			for _, k := range slices.Sorted(maps.Keys(s.Bindings)) {
				node := s.Bindings[k]
				if node == "" {
					node = "unbound"
				}
				placed = append(placed, strings.TrimPrefix(k, group.Namespace+"/")+" → "+node)
			}
			t.Printf("  %d. %s: %s\n", i+1, what, strings.Join(placed, ", "))
			if commands[i] != "" {
				t.Printf("     try: %s\n", commands[i])
			}
		}
	}
	if res.Unconfirmed > 0 {
		t.Printf("%d other change(s) were run and did not let it bind\n", res.Unconfirmed)
	}
}

// GroupSuggestion says what a group suggestion changes: "lower the
// gang's minCount to 2", "add a node like s1 (s1-copy)", "lower infer-2's
// request to cpu 800m (what s2 had free)".
func GroupSuggestion(group recorder.PodGroupRef, s recorder.GroupSuggestion) string {
	switch s.Kind {
	case recorder.GroupChangeMinCount:
		return "lower the gang's minCount to " + strconv.Itoa(int(s.MinCount))
	case recorder.GroupChangeAddNode:
		return "add a node like " + s.LikeNode + " (" + s.Node + ")"
	case recorder.GroupChangeMemberRequest:
		var asks []string
		for _, r := range slices.Sorted(maps.Keys(s.Requests)) {
			asks = append(asks, r+" "+s.Requests[r])
		}
		return "lower " + strings.TrimPrefix(s.Pod, group.Namespace+"/") + "'s request to " + strings.Join(asks, ", ") + " (what " + s.Node + " had free)"
	case recorder.GroupChangeEvict:
		return "evict " + victims(group, s.Victims)
	}
	return s.Kind
}

// victims names the pods an eviction suggestion evicts, where each
// runs and its priority, and whether the group's members could have
// preempted it.
func victims(group recorder.PodGroupRef, vs []recorder.GroupVictim) string {
	var names []string
	could := 0
	for _, v := range vs {
		name := strings.TrimPrefix(v.Pod, group.Namespace+"/") + " on " + v.Node + " (priority " + strconv.Itoa(int(v.Priority))
		if v.Preemptible {
			could++
			name += ", preemptible"
		}
		names = append(names, name+")")
	}
	switch {
	case could == 0 && len(vs) == 1:
		return names[0] + ", which the members may not preempt"
	case could == 0:
		return strings.Join(names, ", ") + ", none of which the members may preempt"
	}
	return strings.Join(names, ", ")
}
