// Package report prints a run's cycles in the format an -o names (text,
// JSON, YAML, Markdown, HTML), through the renderers beside it: the cycles,
// their pod groups, the queue, and the summary after them. Cycles prints
// them all at once (explain); Stream one cycle at a time from a recording
// (replay --no-tui), byte for byte the same; Files writes one cycle as the
// Markdown and HTML the TUI's X shares.
package report

import (
	"encoding/json"
	"io"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/recorder/export/html"
	"github.com/schedscope/schedscope/recorder/export/markdown"
	"github.com/schedscope/schedscope/recorder/export/text"
)

// Cycles is what explain and replay --no-tui print: cycles in the
// text walk through the phases, or as the plain JSON (or YAML) export.
type Cycles struct {
	Header recorder.Header
	// Source says where the cycles come from, for the text header.
	Source   string
	Warnings []string
	Problems []error
	Cycles   []*recorder.Cycle
	// Groups are the pod-group cycles of the cycles' members; text tells
	// each member's cycle through its group, and each group's cycle after
	// the cycles (before them with GroupsOnly: explain --pod-group).
	Groups     []*recorder.PodGroupCycle
	GroupsOnly bool
	// GroupQueue holds the scheduling queue's events; with GroupsOnly,
	// text tells each group's own (QueueEvent.PodGroup).
	GroupQueue []*recorder.QueueEvent
	Observed   []*recorder.Observed
	// Pods, if set, are where every pod stands; text ends with those not bound.
	Pods []recorder.PodState
	// Story, for one pod explained, tells its story in text: its cycles and
	// queue events in time order.
	Story bool
	// Cluster is what a fixture run's controllers left (explain).
	Cluster *recorder.ClusterState
	// Stopped, if set, says the run stopped before the fixture's end
	// (explain --pod), in place of the cluster it would have left.
	Stopped string
	// Suggest, if set, is the command that searches what would let a pod
	// be scheduled (explain); text names it under each such pod.
	Suggest func(pod string) string
	// Shortfalls are the numbers behind each cycle's resource rejections,
	// by Seq (recorder.RunShortfalls over the whole run, before a pod's
	// cycles are picked out).
	Shortfalls map[int]*recorder.Shortfalls
}

// summary is what follows the cycles, with warnings (text prints them in
// its header) and the problems found.
func (o *Cycles) summary(warnings []string) document.Summary {
	for _, p := range o.Problems {
		warnings = append(warnings, p.Error())
	}
	s := document.SummaryOf(warnings, o.Pods, o.Cluster, o.Suggest)
	s.Stopped = o.Stopped
	return s
}

// shortfall is the numbers behind c's resource rejections, or nil.
func (o *Cycles) shortfall(c *recorder.Cycle) *recorder.Shortfalls { return o.Shortfalls[c.Seq] }

// Print writes the cycles in format (text, json, yaml, markdown or html).
func (o *Cycles) Print(w io.Writer, format string) error {
	if format == "json" || format == "yaml" {
		doc := export.NewDocument(o.Header, o.Cycles, o.Observed)
		for i, c := range o.Cycles {
			doc.Cycles[i] = doc.Cycles[i].WithShortfalls(c, o.shortfall(c))
		}
		doc.Warnings = o.Warnings
		for _, p := range o.Problems {
			doc.Problems = append(doc.Problems, p.Error())
		}
		doc.Pods = export.NewPodStates(o.Pods)
		doc.Cluster = o.Cluster
		doc.PodGroups = o.Groups
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
	bySeq := make(map[int]*recorder.Cycle, len(o.Cycles))
	for _, c := range o.Cycles {
		bySeq[c.Seq] = c
	}
	if format == "markdown" {
		md := &markdown.Writer{Out: document.Out{W: w, Short: o.shortfall}}
		md.Header(o.Header, o.Source)
		o.documentBody(md, bySeq)
		if o.Story && len(o.Pods) == 1 {
			md.Story(o.Pods[0], o.Cycles)
		}
		md.Summary(o.summary(o.Warnings))
		return md.Err()
	}
	if format == "html" {
		h := &html.Writer{Out: document.Out{W: w, Short: o.shortfall}}
		h.Begin(o.Header, o.Source)
		o.documentBody(h, bySeq)
		h.Summary(o.summary(o.Warnings))
		h.End()
		return h.Err()
	}
	t := text.New(w)
	t.Short = o.shortfall
	t.Header(o.Header, o.Source, o.Warnings)
	if o.GroupsOnly {
		for _, g := range o.Groups {
			t.PodGroup(g, bySeq)
		}
		if len(o.Groups) > 0 {
			t.GroupQueue(o.Groups[0].Group, o.GroupQueue)
		}
	}
	for _, c := range o.Cycles {
		t.Cycle(c)
		t.MemberGroup(c, o.Groups)
	}
	if !o.GroupsOnly {
		for _, g := range o.Groups {
			t.PodGroup(g, bySeq)
		}
	}
	for _, ob := range o.Observed {
		t.Observed(ob)
	}
	if o.Story && len(o.Pods) == 1 {
		t.Story(o.Pods[0], o.Cycles)
	}
	t.Summary(o.summary(nil))
	return t.Err()
}

// documentBody is what the Markdown and HTML documents hold between their
// header and summary, in one order: with GroupsOnly the pod-group cycles
// first, then each cycle with its member's group line, else the groups
// after the cycles.
func (o *Cycles) documentBody(d interface {
	Cycle(*recorder.Cycle)
	MemberGroup(*recorder.Cycle, []*recorder.PodGroupCycle)
	PodGroup(*recorder.PodGroupCycle, map[int]*recorder.Cycle)
}, bySeq map[int]*recorder.Cycle) {
	if o.GroupsOnly {
		for _, g := range o.Groups {
			d.PodGroup(g, bySeq)
		}
	}
	for _, c := range o.Cycles {
		d.Cycle(c)
		d.MemberGroup(c, o.Groups)
	}
	if !o.GroupsOnly {
		for _, g := range o.Groups {
			d.PodGroup(g, bySeq)
		}
	}
}
