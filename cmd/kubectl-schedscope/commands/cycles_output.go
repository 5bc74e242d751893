package commands

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/recorder/export/html"
	"github.com/schedscope/schedscope/recorder/export/markdown"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/visible"
)

// cyclesOutput is what explain and replay --no-tui print: cycles in the
// text walk through the phases, or as the plain JSON (or YAML) export.
type cyclesOutput struct {
	header recorder.Header
	// source says where the cycles come from, for the text header.
	source   string
	warnings []string
	problems []error
	cycles   []*recorder.Cycle
	// groups are the pod-group cycles of the cycles' members; text tells
	// each member's cycle through its group, and each group's cycle after
	// the cycles (before them with groupsOnly: explain --pod-group).
	groups     []*recorder.PodGroupCycle
	groupsOnly bool
	// groupQueue holds the scheduling queue's events; with groupsOnly,
	// text tells each group's own (QueueEvent.PodGroup).
	groupQueue []*recorder.QueueEvent
	observed   []*recorder.Observed
	// pods, if set, are where every pod stands; text ends with those not bound.
	pods []recorder.PodState
	// story, for one pod explained, tells its story in text: its cycles and
	// queue events in time order.
	story bool
	// cluster is what a fixture run's controllers left (explain).
	cluster *recorder.ClusterState
	// stopped, if set, says the run stopped before the fixture's end
	// (explain --pod), in place of the cluster it would have left.
	stopped string
	// suggest, if set, is the command that searches what would let a pod
	// be scheduled (explain); text names it under each such pod.
	suggest func(pod string) string
	// shortfalls are the numbers behind each cycle's resource rejections,
	// by Seq (recorder.RunShortfalls over the whole run, before a pod's
	// cycles are picked out).
	shortfalls map[int]*recorder.Shortfalls
}

// summary is what follows the cycles, with warnings (text prints them in
// its header) and the problems found.
func (o *cyclesOutput) summary(warnings []string) document.Summary {
	for _, p := range o.problems {
		warnings = append(warnings, p.Error())
	}
	s := document.SummaryOf(warnings, o.pods, o.cluster, o.suggest)
	s.Stopped = o.stopped
	return s
}

// shortfall is the numbers behind c's resource rejections, or nil.
func (o *cyclesOutput) shortfall(c *recorder.Cycle) *recorder.Shortfalls { return o.shortfalls[c.Seq] }

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

// print writes the cycles in format (text, json, yaml, markdown or html).
func (o *cyclesOutput) print(w io.Writer, format string) error {
	if format == "json" || format == "yaml" {
		doc := export.NewDocument(o.header, o.cycles, o.observed)
		for i, c := range o.cycles {
			doc.Cycles[i] = doc.Cycles[i].WithShortfalls(c, o.shortfall(c))
		}
		doc.Warnings = o.warnings
		for _, p := range o.problems {
			doc.Problems = append(doc.Problems, p.Error())
		}
		doc.Pods = export.NewPodStates(o.pods)
		doc.Cluster = o.cluster
		doc.PodGroups = o.groups
		data, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		if format == "yaml" {
			if data, err = export.YAML(data); err != nil {
				return err
			}
		}
		_, err = w.Write(append(data, '\n'))
		return err
	}
	bySeq := make(map[int]*recorder.Cycle, len(o.cycles))
	for _, c := range o.cycles {
		bySeq[c.Seq] = c
	}
	if format == "markdown" {
		md := &markdown.Writer{Out: document.Out{W: w, Short: o.shortfall}}
		md.Header(o.header, o.source)
		if o.groupsOnly {
			for _, g := range o.groups {
				md.PodGroup(g, bySeq)
			}
		}
		for _, c := range o.cycles {
			md.Cycle(c)
			md.MemberGroup(c, o.groups)
		}
		if !o.groupsOnly {
			for _, g := range o.groups {
				md.PodGroup(g, bySeq)
			}
		}
		if o.story && len(o.pods) == 1 {
			md.Story(o.pods[0], o.cycles)
		}
		md.Summary(o.summary(o.warnings))
		return md.Err()
	}
	if format == "html" {
		h := &html.Writer{Out: document.Out{W: w, Short: o.shortfall}}
		h.Begin(o.header, o.source)
		if o.groupsOnly {
			for _, g := range o.groups {
				h.PodGroup(g, bySeq)
			}
		}
		for _, c := range o.cycles {
			h.Cycle(c)
			h.MemberGroup(c, o.groups)
		}
		if !o.groupsOnly {
			for _, g := range o.groups {
				h.PodGroup(g, bySeq)
			}
		}
		h.Summary(o.summary(o.warnings))
		h.End()
		return h.Err()
	}
	t := newTextWriter(w)
	t.Short = o.shortfall
	t.Header(o.header, o.source, o.warnings)
	if o.groupsOnly {
		for _, g := range o.groups {
			t.PodGroup(g, bySeq)
		}
		if len(o.groups) > 0 {
			t.GroupQueue(o.groups[0].Group, o.groupQueue)
		}
	}
	for _, c := range o.cycles {
		t.Cycle(c)
		t.MemberGroup(c, o.groups)
	}
	if !o.groupsOnly {
		for _, g := range o.groups {
			t.PodGroup(g, bySeq)
		}
	}
	for _, ob := range o.observed {
		t.Observed(ob)
	}
	if o.story && len(o.pods) == 1 {
		t.Story(o.pods[0], o.cycles)
	}
	t.Summary(o.summary(nil))
	return t.Err()
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
