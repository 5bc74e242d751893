package commands

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/visible"
)

// validOutput checks an --output value.
func validOutput(format string) error {
	switch format {
	case "text", "json", "yaml":
		return nil
	}
	return errorf("--output must be text, json or yaml, not %q", format)
}

// validCyclesOutput checks the --output of the commands that print cycles
// (explain, replay --no-tui), which also write Markdown.
func validCyclesOutput(format string) error {
	switch format {
	case "text", "json", "yaml", "markdown", "html":
		return nil
	}
	return errorf("--output must be text, json, yaml, markdown or html, not %q", format)
}

// sortCycles orders cycles by sequence number, as they were started.
func sortCycles(cycles []*recorder.Cycle) {
	sort.SliceStable(cycles, func(i, j int) bool { return cycles[i].Seq < cycles[j].Seq })
}

// distinctCycles keeps the first cycle of each sequence number: a recording
// that holds a cycle twice (reported as a problem) prints it once.
func distinctCycles(cycles []*recorder.Cycle) []*recorder.Cycle {
	seen := map[int]bool{}
	var out []*recorder.Cycle
	for _, c := range cycles {
		if !seen[c.Seq] {
			seen[c.Seq] = true
			out = append(out, c)
		}
	}
	return out
}

// podCycles keeps the cycles of pod (a name or namespace/name); when there
// are none, the error lists the pods there are.
func podCycles(cycles []*recorder.Cycle, pod, where string) ([]*recorder.Cycle, error) {
	var kept []*recorder.Cycle
	for _, c := range cycles {
		if c.Pod.Name == pod || c.Pod.Key() == pod {
			kept = append(kept, c)
		}
	}
	if len(kept) > 0 {
		return kept, nil
	}
	pods := podKeys(cycles)
	if len(pods) == 0 {
		return nil, errorf("no cycle for pod %q in %s: it has no cycles at all", pod, where)
	}
	return nil, errorf("no cycle for pod %q in %s%s; its pods are %s", pod, where, input.DidYouMean(pod, pods), listSome(pods, 20))
}

// podKeys lists the pods of cycles, each once, in order of first cycle,
// printable (see visible): they go into error messages.
func podKeys(cycles []*recorder.Cycle) []string {
	seen := map[string]bool{}
	var keys []string
	for _, c := range cycles {
		if k := c.Pod.Key(); !seen[k] {
			seen[k] = true
			keys = append(keys, visible.String(k))
		}
	}
	return keys
}

// notScheduled lists the pods whose last cycle did not bind them, with the result.
func notScheduled(cycles []*recorder.Cycle) []string {
	last := map[string]*recorder.Cycle{}
	for _, c := range cycles {
		if prev, ok := last[c.Pod.Key()]; !ok || c.Seq >= prev.Seq {
			last[c.Pod.Key()] = c
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range cycles { // in order of each pod's first cycle
		k := c.Pod.Key()
		if seen[k] {
			continue
		}
		seen[k] = true
		if l := last[k]; l.Outcome.Result != recorder.ResultBound {
			out = append(out, visible.String(fmt.Sprintf("%s (%s)", k, l.Outcome.Result)))
		}
	}
	return out
}

// listSome joins up to n items, then says how many more there are.
func listSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}
